/**
 * What other features and the wiring use of orders: the deps the functions take, the checkout
 * (the deadline's automatic checkout is this one, bound in src/services.ts; deadlines/due.ts says
 * what it needs of it) and the checkout mail's job, reading orders (My Orders, one order, its
 * book: the CSV export), an order's shares and what one still owes its payee (what to pay), the
 * shares not yet settled (an account's deletion), and how a share's status is written (mails;
 * amounts are lib/money.ts), and the store that keeps orders by version (set up once per app).
 */
export type { OrderDeps } from "./deps.ts";
export { checkout } from "./checkout/checkout.ts";
export { sendOrderMail } from "./checkout/mail-jobs.ts";
export { keepOrders } from "./reading/kept.ts";
export { allOrdersAnswer, getOrder, listOrders, orderEntries } from "./reading/orders.ts";
export { orderOf, payersOf, sharesOf } from "./reading/view.ts";
export { openOwed } from "./balances/open-parts.ts";
export { unsettledShares } from "./balances/balances.ts";
export { shareStatusLabel } from "./reading/format.ts";
