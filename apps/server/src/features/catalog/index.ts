/**
 * What other parts of the server use of the catalog feature: the operator's routes, product
 * photos, the steps that follow every change to products (every server hears it; open carts
 * follow a price, availability or stock), and the reload of a server's catalog when another
 * server (or an import) changed it.
 */
export { afterCatalogChange, catalogChanged, type AfterChangeDeps } from "./after-change.ts";
export type { CatalogDeps } from "./deps.ts";
export { reloadCatalogOnImport } from "./reload.ts";
export { catalogRoutes } from "./routes.ts";
export {
  encodePhoto,
  PHOTO_MAX_BYTES,
  productPhoto,
  storeProductImage,
  type PhotoDeps,
  type PhotoOrigin,
} from "./photo.ts";
export {
  commandLineDeps,
  followCatalog,
  FOLLOWED_FIELDS,
  type CatalogChangeDeps,
} from "./follow.ts";
