import { z } from "zod";
import { PRODUCT_CATEGORIES, PRODUCT_SORTS } from "./constants.ts";
import { text } from "./text.ts";

export const ProductCategorySchema = z.enum(PRODUCT_CATEGORIES);
export type ProductCategory = z.infer<typeof ProductCategorySchema>;
export const ProductSortSchema = z.enum(PRODUCT_SORTS);
export type ProductSort = z.infer<typeof ProductSortSchema>;

export const PRODUCTS_PAGE_MAX = 100;

export const ProductSchema = z.object({
  _id: z.string(),
  name: z.string(),
  /** Currency units with at most two decimals (stored as integer cents). */
  price: z.number(),
  imageUrl: z.string(),
  rating: z.number().min(0).max(5),
  reviews: z.number().int().min(0),
  description: z.string(),
  category: ProductCategorySchema,
  stock: z.number().int().min(0),
  color: z.string().optional(),
  brand: z.string().nullable(),
  /** The product's GTIN (EAN/UPC digits) when its feed gave one. */
  gtin: z.string().nullable(),
  /** False once the operator's feed or Catalog page took it off sale (it is never deleted). */
  available: z.boolean(),
  /** The product's stable id in the operator's feed. */
  key: z.string(),
});
export type Product = z.infer<typeof ProductSchema>;

const money = z.coerce
  .number({ message: "must be a number" })
  .min(0, "must be 0 or more")
  .max(1_000_000, "is too large");

/** GET /api/products query. `category` may repeat. */
export const ProductQuerySchema = z
  .strictObject({
    q: text({ max: 100, maxMessage: "is too long" }).optional(),
    category: z
      .union([ProductCategorySchema, z.array(ProductCategorySchema).max(PRODUCT_CATEGORIES.length)])
      .transform((value) => (Array.isArray(value) ? value : [value]))
      .optional(),
    minPrice: money.optional(),
    maxPrice: money.optional(),
    sort: ProductSortSchema.default("relevance"),
    limit: z.coerce.number().int().min(1).max(PRODUCTS_PAGE_MAX).optional(),
    offset: z.coerce.number().int().min(0).max(100_000).default(0),
    /** true (the default): the products on sale; false: those taken off sale. */
    available: z
      .enum(["true", "false"], { message: 'must be "true" or "false"' })
      .transform((value) => value === "true")
      .default(true),
  })
  .refine((q) => q.minPrice === undefined || q.maxPrice === undefined || q.minPrice <= q.maxPrice, {
    message: "minPrice must not exceed maxPrice",
    path: ["minPrice"],
  });
export type ProductQuery = z.input<typeof ProductQuerySchema>;

export const ProductListResponseSchema = z.object({
  products: z.array(ProductSchema),
  total: z.number().int(),
});
export type ProductListResponse = z.infer<typeof ProductListResponseSchema>;

export const ProductResponseSchema = z.object({ product: ProductSchema });
