/**
 * What other features use of the products feature: the catalog kept in memory (which every
 * change to products must invalidate) and the one mapping of a stored product to the API's.
 */
export { createCatalog, type Catalog } from "./catalog.ts";
export { productOf } from "./product-row.ts";
