import { useId, useRef, useState, type FormEvent } from "react";
import {
  PRODUCT_CATEGORIES,
  PRODUCT_IMAGE_MAX_BYTES,
  type NewProductBody,
} from "@cartner/contract";
import {
  Button,
  FieldError,
  FormAlert,
  Label,
  SelectField,
  TextField,
} from "../../components/ui/index.ts";
import { ApiError, errorMessage } from "../../lib/api.ts";
import { focusFirstError, type FieldErrors } from "../../lib/form-errors.ts";
import { toast } from "../../lib/toast.ts";
import { useAddProduct } from "../../api/catalog.ts";
import { parseAmount } from "./catalog-model.ts";

const FIELDS = ["name", "category", "price", "stock", "brand", "description", "image"];
const IMAGE_TYPES = "image/jpeg,image/png,image/webp";

/** What the browser can tell before asking: a name, a price and a stock that are numbers. */
function check(
  form: FormData,
  image: File | undefined,
): { body: NewProductBody; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const name = String(form.get("name") ?? "").trim();
  if (name === "") errors.name = "Enter a name.";
  const price = parseAmount(String(form.get("price") ?? ""));
  if (typeof price !== "number") errors.price = "Enter a price such as 2.99.";
  const stockText = String(form.get("stock") ?? "").trim();
  const stock = stockText === "" ? 0 : parseAmount(stockText);
  if (typeof stock !== "number" || !Number.isInteger(stock)) {
    errors.stock = "Enter a whole number of units.";
  }
  const brand = String(form.get("brand") ?? "").trim();
  const body: NewProductBody = {
    name,
    category: String(form.get("category")) as NewProductBody["category"],
    price: typeof price === "number" ? price : 0,
    stock: typeof stock === "number" ? stock : 0,
    description: String(form.get("description") ?? ""),
    ...(brand ? { brand } : {}),
  };
  if (image && image.size > PRODUCT_IMAGE_MAX_BYTES) {
    errors.image = "The picture must be at most 5 MB.";
  }
  return { body, errors };
}

/** Add a product: its name, category, price, stock, and a picture (JPEG, PNG or WebP). */
export function AddProductForm({ onDone }: { onDone: () => void }) {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const imageId = useId();
  const imageRef = useRef<HTMLInputElement>(null);

  const add = useAddProduct({
    onSuccess: ({ product, imageError }) => {
      if (imageError) {
        toast.warning(
          `${product.name} was added, but its picture was refused: ${errorMessage(imageError, "try another picture from its row.")}`,
        );
      } else toast.success(`${product.name} was added to the catalog.`);
      formRef.current?.reset();
      onDone();
    },
    onError: (error) => {
      if (error instanceof ApiError && error.fields) {
        setErrors(error.fields);
        if (formRef.current) focusFirstError(formRef.current, error.fields, FIELDS);
      }
      setFormError(errorMessage(error, "The product could not be added. Try again."));
    },
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    // The chosen file itself, as the input holds it.
    const image = imageRef.current?.files?.[0];
    const { body, errors: found } = check(form, image);
    setErrors(found);
    setFormError(null);
    if (Object.keys(found).length > 0) {
      focusFirstError(event.currentTarget, found, FIELDS);
      return;
    }
    add.mutate({ body, image: image ?? null });
  }

  return (
    <form ref={formRef} noValidate onSubmit={submit} className="flex flex-col gap-4">
      <div className="grid gap-4 sm:grid-cols-2">
        {/* The button that opened the form is gone: the focus starts here. */}
        <TextField name="name" label="Name" required autoFocus error={errors.name} />
        <SelectField
          name="category"
          label="Category"
          defaultValue="Groceries"
          error={errors.category}
        >
          {PRODUCT_CATEGORIES.map((category) => (
            <option key={category} value={category}>
              {category}
            </option>
          ))}
        </SelectField>
        <TextField name="price" label="Price" inputMode="decimal" required error={errors.price} />
        <TextField
          name="stock"
          label="Stock"
          inputMode="numeric"
          optional
          hint="Units you can sell; 0 when left empty."
          error={errors.stock}
        />
        <TextField name="brand" label="Brand" optional error={errors.brand} />
        <TextField name="description" label="Description" optional error={errors.description} />
      </div>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={imageId} optional>
          Picture
        </Label>
        <input
          ref={imageRef}
          id={imageId}
          name="image"
          type="file"
          accept={IMAGE_TYPES}
          aria-invalid={errors.image ? true : undefined}
          aria-describedby={`${imageId}-hint ${imageId}-error`}
          className="text-sm text-slate-700 file:mr-3 file:rounded-xl file:border-0 file:bg-primary-50 file:px-3.5 file:py-2 file:font-semibold file:text-primary-700 hover:file:bg-primary-100"
        />
        <p id={`${imageId}-hint`} className="text-sm text-slate-500">
          JPEG, PNG or WebP, at most 5 MB. Without one, the app draws a picture.
        </p>
        <FieldError id={`${imageId}-error`} message={errors.image} />
      </div>
      <FormAlert message={formError} />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" loading={add.isPending}>
          Add product
        </Button>
        <Button variant="secondary" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
