/** What other features use of carts: cart_view()'s answer and the split of a cart. */
export { splitOf, type CartView } from "./view.ts";
