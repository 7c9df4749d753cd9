/**
 * What other features use of orders: the shares not yet settled (an account's deletion), and how
 * money and a share's status are written (mails).
 */
export { unsettledShares } from "./order-view.ts";
export { formatMoney, shareStatusLabel } from "./format.ts";
