import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from "react";
import type { Product } from "@cartner/contract";
import { Pencil } from "lucide-react";
import { Badge, Button, FormAlert, TextField } from "../../components/ui/index.ts";
import { ApiError, errorMessage } from "../../lib/api.ts";
import { focusFirstError, type FieldErrors } from "../../lib/form-errors.ts";
import { formatMoney } from "../../lib/format.ts";
import { toast } from "../../lib/toast.ts";
import { useChangeProduct } from "../../api/catalog.ts";
import { ProductImage } from "../products/index.ts";
import { ROW_FIELDS, changesOf, type RowDraft } from "./catalog-model.ts";

const draftOf = (product: Product): RowDraft => ({
  name: product.name,
  price: product.price.toFixed(2),
  stock: String(product.stock),
  available: product.available,
});

/** One product of the catalog: its values, changed in place (Save or Cancel; Escape cancels). */
export function CatalogRow({ product }: { product: Product }) {
  const [draft, setDraft] = useState<RowDraft | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const editButton = useRef<HTMLButtonElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const wasEditing = useRef(false);
  const ids = useId();

  // Focus follows the editor: into its first field when it opens, back to Edit when it closes.
  useEffect(() => {
    if (draft && !wasEditing.current) formRef.current?.querySelector("input")?.focus();
    if (!draft && wasEditing.current) editButton.current?.focus();
    wasEditing.current = draft !== null;
  }, [draft]);

  const change = useChangeProduct({
    onSuccess: () => {
      setDraft(null);
      setErrors({});
      setFormError(null);
    },
    onError: (error) => {
      if (error instanceof ApiError && error.fields) {
        setErrors(error.fields);
        if (formRef.current) focusFirstError(formRef.current, error.fields, [...ROW_FIELDS]);
      }
      setFormError(errorMessage(error, "The change could not be saved. Try again."));
    },
  });

  const toggleSale = useChangeProduct({
    onSuccess: ({ product: saved }) =>
      toast.success(`${saved.name} is ${saved.available ? "on sale again" : "off sale"}.`),
    onError: (error) => toast.error(errorMessage(error, "That could not be saved. Try again.")),
  });

  function cancel() {
    setDraft(null);
    setErrors({});
    setFormError(null);
  }

  function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!draft) return;
    const { body, errors: found } = changesOf(product, draft);
    setErrors(found);
    setFormError(null);
    if (Object.keys(found).length > 0) {
      focusFirstError(event.currentTarget, found, [...ROW_FIELDS]);
      return;
    }
    if (Object.keys(body).length === 0) return cancel();
    change.mutate({ id: product._id, body });
  }

  function onKeyDown(event: KeyboardEvent) {
    if (event.key === "Escape") {
      event.stopPropagation();
      cancel();
    }
  }

  const set = (patch: Partial<RowDraft>) => setDraft((d) => (d ? { ...d, ...patch } : d));

  return (
    <li className="flex flex-col gap-3 rounded-card bg-surface p-4 shadow-soft ring-1 ring-slate-900/5">
      <div className="flex items-start gap-3">
        <div className="size-14 shrink-0 overflow-hidden rounded-xl">
          <ProductImage src={product.imageUrl} alt="" />
        </div>
        <div className="flex min-w-0 flex-1 flex-col gap-1">
          <p className="font-semibold break-words text-ink">{product.name}</p>
          <p className="text-sm break-words text-slate-600">
            {[product.brand, product.category, product.key].filter(Boolean).join(" · ")}
          </p>
          <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
            <span className="font-semibold text-ink tabular-nums">
              {formatMoney(product.price)}
            </span>
            <span className="text-slate-600 tabular-nums">{product.stock} in stock</span>
            <Badge tone={product.available ? "success" : "neutral"}>
              {product.available ? "On sale" : "Off sale"}
            </Badge>
          </p>
        </div>
      </div>
      {draft ? (
        <form
          ref={formRef}
          noValidate
          onSubmit={save}
          onKeyDown={onKeyDown}
          aria-label={`Edit ${product.name}`}
          className="flex flex-col gap-3 border-t border-slate-200 pt-3"
        >
          <div className="grid gap-3 sm:grid-cols-[2fr_1fr_1fr]">
            <TextField
              id={`${ids}-name`}
              name="name"
              label="Name"
              value={draft.name}
              error={errors.name}
              onChange={(e) => set({ name: e.target.value })}
            />
            <TextField
              id={`${ids}-price`}
              name="price"
              label="Price"
              inputMode="decimal"
              value={draft.price}
              error={errors.price}
              onChange={(e) => set({ price: e.target.value })}
            />
            <TextField
              id={`${ids}-stock`}
              name="stock"
              label="Stock"
              inputMode="numeric"
              value={draft.stock}
              error={errors.stock}
              onChange={(e) => set({ stock: e.target.value })}
            />
          </div>
          <label className="flex items-center gap-2 text-sm font-medium text-ink">
            <input
              type="checkbox"
              name="available"
              className="size-4 accent-primary-600"
              checked={draft.available}
              onChange={(e) => set({ available: e.target.checked })}
            />
            On sale
          </label>
          {errors.available && <p className="text-sm text-danger-700">{errors.available}</p>}
          <FormAlert message={formError} />
          <div className="flex flex-wrap gap-2">
            <Button type="submit" size="sm" loading={change.isPending}>
              Save
            </Button>
            <Button variant="secondary" size="sm" onClick={cancel}>
              Cancel
            </Button>
          </div>
        </form>
      ) : (
        <div className="flex flex-wrap gap-2">
          <Button
            ref={editButton}
            variant="secondary"
            size="sm"
            aria-label={`Edit ${product.name}`}
            onClick={() => setDraft(draftOf(product))}
          >
            <Pencil aria-hidden="true" className="size-4" />
            Edit
          </Button>
          <Button
            variant="ghost"
            size="sm"
            loading={toggleSale.isPending}
            onClick={() =>
              toggleSale.mutate({ id: product._id, body: { available: !product.available } })
            }
          >
            {product.available ? "Make unavailable" : "Make available"}
            <span className="sr-only">: {product.name}</span>
          </Button>
        </div>
      )}
    </li>
  );
}
