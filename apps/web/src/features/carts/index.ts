/* What other features use of the cart: its page parts (a line's picture too), the totals list. */
export { CartSkeleton, LineImage, PageLinks, StackedTable, stackedCell } from "./cart-parts.tsx";
export { TotalsList } from "./OrderSummaryCard.tsx";
export { EstimatedBadge, LineRemarks, PrivateBadge } from "./line-remarks.tsx";
export { KeepPrivateFrom } from "./KeepPrivateFrom.tsx";
