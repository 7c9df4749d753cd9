import { z } from "zod";
import {
  ProductListResponseSchema,
  ProductQuerySchema,
  ProductResponseSchema,
} from "../products.ts";
import type { EndpointGroup } from "./base.ts";

/** Any string: a malformed product id is the same 404 as a missing one. */
const ProductIdParams = z.strictObject({ id: z.string().max(64) });
const ImageFileParams = z.strictObject({ file: z.string().max(200) });

/** Products and their images. */
export const productEndpoints = {
  "GET /api/products": {
    summary: "List products: search, filter by category and price, sort, page",
    access: "user",
    query: ProductQuerySchema,
    responses: { 200: ProductListResponseSchema },
    errors: [400],
  },
  "GET /api/products/:id": {
    summary: "One product",
    access: "user",
    params: ProductIdParams,
    responses: { 200: ProductResponseSchema },
    errors: [404],
  },
  "GET /api/catalog/images/:file": {
    summary:
      "A product image: its drawn SVG, or its photo as WebP (the file name ends in -320.webp or -800.webp, the size in pixels); public, and the file name changes when the image does",
    access: "public",
    media: true,
    params: ImageFileParams,
    responses: { 200: z.any().describe("image/svg+xml or image/webp") },
    errors: [404],
  },
} as const satisfies EndpointGroup;
