/**
 * The operator's catalog calls: the whole catalog paged, a new product, a change to one, and the
 * log of changes with who made them. Every field a person types is checked here, and a refusal
 * names the field.
 */
import { z } from "zod";
import { ProductCategorySchema, ProductSchema } from "./products.ts";
import { text } from "./text.ts";

export const CATALOG_PAGE_DEFAULT = 50;
export const CATALOG_PAGE_MAX = 100;
/** A product picture upload: at most this many bytes, in one of these types. */
export const PRODUCT_IMAGE_MAX_BYTES = 5 * 1024 * 1024;
export const PRODUCT_IMAGE_TYPES = ["image/jpeg", "image/png", "image/webp"] as const;
/** The largest price a product takes (1,000,000.00), as the import's. */
export const PRODUCT_PRICE_MAX = 1_000_000;
export const PRODUCT_STOCK_MAX = 1_000_000_000;

/** A GTIN (EAN-8, UPC-A, EAN-13, GTIN-14) with its check digit right; spaces and dashes dropped. */
export function gtinOf(value: string): string | undefined {
  const digits = value.replace(/[\s-]/g, "");
  if (!/^(\d{8}|\d{12}|\d{13}|\d{14})$/.test(digits)) return undefined;
  const body = digits.slice(0, -1);
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    // From the right of the body: weights 3, 1, 3, 1...
    sum += Number(body[body.length - 1 - i]) * (i % 2 === 0 ? 3 : 1);
  }
  return (10 - (sum % 10)) % 10 === Number(digits.at(-1)) ? digits : undefined;
}

/** A cursor a list answered (opaque to clients). */
const CursorSchema = z.string().min(1).max(500, "is not a cursor this list gave");

/** GET /api/catalog/products: without `available`, every product, on sale or not. */
export const CatalogQuerySchema = z.strictObject({
  q: text({ max: 100, maxMessage: "is too long" }).optional(),
  available: z
    .enum(["true", "false"], { message: 'must be "true" or "false"' })
    .transform((value) => value === "true")
    .optional(),
  cursor: CursorSchema.optional(),
  limit: z.coerce
    .number({ message: "must be a number" })
    .int("must be a whole number")
    .min(1, "must be 1 or more")
    .max(CATALOG_PAGE_MAX, `must be at most ${CATALOG_PAGE_MAX}`)
    .default(CATALOG_PAGE_DEFAULT),
});
export type CatalogQuery = z.input<typeof CatalogQuerySchema>;

export const CatalogListResponseSchema = z.object({
  products: z.array(ProductSchema),
  /** null on the last page. */
  nextCursor: z.string().nullable(),
});
export type CatalogListResponse = z.infer<typeof CatalogListResponseSchema>;

const price = z
  .number({ message: "must be a number" })
  .min(0, "must be 0 or more")
  .max(PRODUCT_PRICE_MAX, `must be at most ${PRODUCT_PRICE_MAX}`)
  .refine((value) => Number.isInteger(Math.round(value * 100 * 1e6) / 1e6), {
    message: "must have at most two decimals",
  });
const stock = z
  .number({ message: "must be a number" })
  .int("must be a whole number")
  .min(0, "must be 0 or more")
  .max(PRODUCT_STOCK_MAX, "is too large");
const gtin = z
  .string({ message: "must be a text" })
  .transform((value, ctx) => {
    const found = gtinOf(value);
    if (found === undefined) {
      ctx.addIssue({
        code: "custom",
        message: "is not a GTIN (8, 12, 13 or 14 digits with a right check digit)",
      });
      return z.NEVER;
    }
    return found;
  })
  .nullable();
const orNull = (max: number) =>
  text({ max, maxMessage: `is longer than ${max} characters` })
    .transform((value) => (value === "" ? null : value))
    .nullable();

/** What the operator may change on a product (PATCH takes any of them). */
const editable = {
  name: text({
    min: 1,
    minMessage: "is required",
    max: 150,
    maxMessage: "is longer than 150 characters",
    name: true,
  }),
  description: text({ max: 5000, maxMessage: "is longer than 5000 characters", multiline: true }),
  category: ProductCategorySchema,
  brand: orNull(70),
  gtin,
  price,
  stock,
  available: z.boolean({ message: "must be true or false" }),
};

/** POST /api/catalog/products: a product's fields but `_id` (and what the app draws itself). */
export const NewProductBodySchema = z.strictObject({
  ...editable,
  description: editable.description.default(""),
  brand: editable.brand.default(null),
  gtin: editable.gtin.default(null),
  stock: editable.stock.default(0),
  available: editable.available.default(true),
  /** The product's stable key (a feed's id); one is made when none is given. */
  key: text({
    min: 1,
    minMessage: "is required",
    max: 50,
    maxMessage: "is longer than 50 characters",
  })
    .regex(/^[\w.:/-]+$/, "may hold only letters, digits and . _ : / -")
    .optional(),
  color: orNull(100).optional(),
});
export type NewProductBody = z.input<typeof NewProductBodySchema>;

/** PATCH /api/catalog/products/:id: any of the editable fields, at least one. */
export const ProductChangeBodySchema = z
  .strictObject({
    name: editable.name.optional(),
    description: editable.description.optional(),
    category: editable.category.optional(),
    brand: editable.brand.optional(),
    gtin: editable.gtin.optional(),
    price: editable.price.optional(),
    stock: editable.stock.optional(),
    available: editable.available.optional(),
  })
  .refine((body) => Object.keys(body).length > 0, { message: "Change at least one field" });
export type ProductChangeBody = z.input<typeof ProductChangeBodySchema>;

export const CatalogProductParamsSchema = z.strictObject({ id: z.uuid("Product not found") });

export const CatalogChangeSchema = z.object({
  at: z.string(),
  /** Who made it: an operator, or null for the command line's import. */
  by: z.object({ _id: z.string(), name: z.string() }).nullable(),
  productId: z.string(),
  /** The field changed ("added" for a new product, "image" for a new picture). */
  field: z.string(),
  /** The values before and after, in the API's units (a price in currency units). */
  from: z.unknown(),
  to: z.unknown(),
});
export type CatalogChange = z.infer<typeof CatalogChangeSchema>;

/** GET /api/catalog/changes: newest first. */
export const CatalogChangesQuerySchema = z.strictObject({ cursor: CursorSchema.optional() });
export const CatalogChangesResponseSchema = z.object({
  changes: z.array(CatalogChangeSchema),
  nextCursor: z.string().nullable(),
});
export type CatalogChangesResponse = z.infer<typeof CatalogChangesResponseSchema>;
