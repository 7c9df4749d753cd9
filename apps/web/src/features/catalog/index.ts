/** The operator's Catalog page (its own lazily loaded chunk). */
export { CatalogPage } from "./CatalogPage.tsx";
