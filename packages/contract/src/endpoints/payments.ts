import { z } from "zod";
import {
  PayInfoSchema,
  PaymentDetailsBodySchema,
  PaymentDetailsResponseSchema,
  PublicConfigSchema,
} from "../payments.ts";
import type { EndpointGroup } from "./base.ts";

const csv = z.string().describe("text/csv; UTF-8 with BOM, ISO dates, amounts as plain numbers");
const OrderIdParams = z.strictObject({ id: z.uuid("Order not found") });

/** The deployment's currency, payment details, what to pay, and the orders as CSV. */
export const paymentEndpoints = {
  "GET /api/config": {
    summary: "The deployment's settings the web app needs: the currency of every amount",
    access: "public",
    responses: { 200: PublicConfigSchema },
    errors: [],
  },
  "GET /api/users/me/payment-details": {
    summary: "How you like to be paid (every field null until you say)",
    access: "user",
    responses: { 200: PaymentDetailsResponseSchema },
    errors: [],
  },
  "PUT /api/users/me/payment-details": {
    summary:
      "Say how you like to be paid: { iban?, accountName?, payLink? (https), note? }, the whole set (a field left out or empty is cleared). The IBAN is checked (country, length, checksum) and stored without spaces, upper case",
    access: "user",
    body: PaymentDetailsBodySchema,
    responses: { 200: PaymentDetailsResponseSchema },
    errors: [400],
  },
  "GET /api/orders/:id/pay-info": {
    summary:
      "What to pay the payee for this order (a member with a share): their payment details, the amount still owed, the order number as the reference, and the EPC (SEPA) QR payload when the currency is EUR and the payee has an IBAN",
    access: "order.payInfo",
    params: OrderIdParams,
    responses: { 200: PayInfoSchema },
    errors: [400, 403, 404],
  },
  "GET /api/orders/export.csv": {
    summary:
      "Your orders as CSV: a row per share you owe or are owed (as payee, every member's), with its status and payment dates",
    access: "user",
    responses: { 200: csv },
    errors: [],
  },
  "GET /api/orders/:id/export.csv": {
    summary: "One order as CSV: its lines, its shares with their status, and its totals",
    access: "order.read",
    params: OrderIdParams,
    responses: { 200: csv },
    errors: [400, 404],
  },
} as const satisfies EndpointGroup;
