/** Payment details, what a member pays (with the EPC QR payload), and the orders as CSV. */
export { createPaymentDetailsService, type PaymentDetailsService } from "./details.ts";
export { createPayInfo, type PayInfoReader } from "./pay-info.ts";
export { paymentRoutes } from "./routes.ts";
