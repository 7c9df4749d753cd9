/**
 * What other features use of orders: an order's shares and what one still owes its payee (what
 * to pay), the shares not yet settled (an account's deletion), how a share's status is written
 * (mails; amounts are lib/money.ts) and the service's type. The deadline's automatic checkout is
 * the orders service's own, passed to deadlines (deadlines/due.ts says what it needs of it).
 */
export { orderOf, payersOf, sharesOf } from "./reading/view.ts";
export { openOwed, unsettledShares } from "./balances/open-parts.ts";
export type { OrderService } from "./service.ts";
export { shareStatusLabel } from "./reading/format.ts";
