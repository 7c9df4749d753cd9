/**
 * What other features use of orders: the shares not yet settled (an account's deletion), and the
 * checkout's options (the deadline's automatic checkout goes through the orders service's own).
 */
export { unsettledShares } from "./order-view.ts";
export type { CheckoutOptions } from "./checkout.ts";
export type { OrderService } from "./service.ts";
export { formatMoney } from "./format.ts";
