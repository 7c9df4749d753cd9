import {
  CatalogChangesQuerySchema,
  CatalogChangesResponseSchema,
  CatalogListResponseSchema,
  CatalogProductParamsSchema,
  CatalogQuerySchema,
  NewProductBodySchema,
  ProductChangeBodySchema,
} from "../catalog.ts";
import { ProductResponseSchema } from "../products.ts";
import type { EndpointGroup } from "./base.ts";

/** The operator's catalog: every call is an account action of the permissions table. */
export const catalogEndpoints = {
  "GET /api/catalog/products": {
    summary:
      "The whole catalog for its operators, by name: q searches name, brand, description, key and GTIN; available (true or false) filters, without it every product; cursor pages",
    access: "catalog.read",
    query: CatalogQuerySchema,
    responses: { 200: CatalogListResponseSchema },
    errors: [400, 403],
  },
  "POST /api/catalog/products": {
    summary:
      "Add a product (its key is made when not given; a key in use is 409); the change is logged with who made it",
    access: "catalog.edit",
    body: NewProductBodySchema,
    responses: { 201: ProductResponseSchema },
    errors: [400, 403, 409],
  },
  "PATCH /api/catalog/products/:id": {
    summary:
      "Change any of a product's name, description, category, brand, gtin, price, stock and availability; each changed field is logged with who changed it",
    access: "catalog.edit",
    params: CatalogProductParamsSchema,
    body: ProductChangeBodySchema,
    responses: { 200: ProductResponseSchema },
    errors: [400, 403, 404],
  },
  "PUT /api/catalog/products/:id/image": {
    summary:
      "Replace a product's picture: multipart/form-data with one file field `image` (JPEG, PNG or WebP, at most 5 MB)",
    access: "catalog.edit",
    params: CatalogProductParamsSchema,
    body: "multipart",
    responses: { 200: ProductResponseSchema },
    errors: [400, 403, 404, 413, 415],
  },
  "GET /api/catalog/changes": {
    summary:
      "The log of catalog changes, newest first: when, who, which product and field, from and to",
    access: "catalog.read",
    query: CatalogChangesQuerySchema,
    responses: { 200: CatalogChangesResponseSchema },
    errors: [400, 403],
  },
} as const satisfies EndpointGroup;
