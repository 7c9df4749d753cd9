/**
 * What other features use of carts: cart_view()'s answer, the split of a cart, the lines it
 * counts and how a line's product shows, how a product's stock goes round the lines (checkout),
 * and the live events of a cart that changed (the catalog's changes move open carts).
 */
export { countedLines, productOf, splitOf, type CartView } from "./view.ts";
export { allotStock, type StockLine } from "./stock.ts";
export { cartChanged } from "./events.ts";
