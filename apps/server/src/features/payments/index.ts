/** Payment details, what a member pays (with the EPC QR payload), and the orders as CSV. */
export type { PaymentDeps } from "./deps.ts";
export { paymentRoutes } from "./routes.ts";
