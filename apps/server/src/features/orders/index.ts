/**
 * What other features use of orders: an order's shares and what one still owes its payee (what
 * to pay), the shares not yet settled (an account's deletion), how money and a share's status are
 * written (mails), and the checkout's options (the deadline's automatic checkout goes through the orders service's own).
 */
export { orderOf, payersOf, sharesOf } from "./order-view.ts";
export { openOwed, unsettledShares } from "./open-parts.ts";
export type { CheckoutOptions } from "./checkout.ts";
export type { OrderService } from "./service.ts";
export { formatMoney, shareStatusLabel } from "./format.ts";
