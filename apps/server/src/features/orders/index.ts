/** What other features use of orders: the shares not yet settled (an account's deletion). */
export { unsettledShares } from "./order-view.ts";
