/* What other features use of the cart: its page parts and the totals list. */
export { CartSkeleton, PageLinks, StackedTable, stackedCell } from "./cart-parts.tsx";
export { TotalsList } from "./OrderSummaryCard.tsx";
