/** What other features use of the products feature: a product's picture in its square frame. */
export { ProductImage } from "./ProductImage.tsx";
