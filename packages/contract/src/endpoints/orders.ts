import { z } from "zod";
import { AdjustmentBodySchema, DisputeBodySchema } from "../adjustments.ts";
import {
  BalancesResponseSchema,
  CheckoutResponseSchema,
  ConfirmShareBodySchema,
  OrderResponseSchema,
  OrdersQuerySchema,
  OrdersResponseSchema,
  ShortLineSchema,
  WaitingLineSchema,
} from "../orders.ts";
import { ApiErrorSchema } from "../errors.ts";
import {
  CheckoutBodySchema,
  SetPayersBodySchema,
  SettlePlanQuerySchema,
  SettlePlanResponseSchema,
  RecordTransferBodySchema,
  RecordTransferResponseSchema,
} from "../payers.ts";
import { EntriesQuerySchema, EntriesResponseSchema } from "../ledger.ts";
import { NoBody, SessionIdParams, sessionErrors, type EndpointGroup } from "./base.ts";

const pdf = z.string().describe("application/pdf");
const OrderIdParams = z.strictObject({ id: z.uuid("Order not found") });
/**
 * 409 OUT_OF_STOCK: the lines that want more than is left, and what is left for each; 409
 * PENDING_APPROVALS: the lines waiting for approval.
 */
const CheckoutConflictSchema = ApiErrorSchema.extend({
  lines: z.array(z.union([ShortLineSchema, WaitingLineSchema])).optional(),
});

/** Checkout, orders, settling up. */
export const orderEndpoints = {
  "POST /api/sessions/:id/checkout": {
    summary:
      "Turn the cart into an order at today's prices, split by the session's policy, taking each line's quantity off the product's stock, and end the session (creator); optionally with who pays the shop (payers: amounts adding up to the total, each the payee or a member with a share; by default the payee pays it all). Lines of unavailable products are left out (named in leftOut); lines over the stock answer 409 OUT_OF_STOCK unless overStock is take_what_is_left; lines waiting for approval answer 409 PENDING_APPROVALS (naming them) unless pending is drop, which checks out without them (they go)",
    access: "session.checkout",
    params: SessionIdParams,
    body: CheckoutBodySchema,
    responses: { 201: CheckoutResponseSchema },
    errors: sessionErrors,
    errorBodies: { 409: CheckoutConflictSchema },
  },
  "GET /api/orders": {
    summary:
      "Orders you placed or have a share in, newest first, a page at a time (cursor: the last order's id); sessionId: the order that session became; toPay: only orders where your share is still to pay",
    access: "user",
    query: OrdersQuerySchema,
    responses: { 200: OrdersResponseSchema },
    errors: [400],
  },
  "GET /api/orders/:id": {
    summary: "One order (its payee and members with a share)",
    access: "order.read",
    params: OrderIdParams,
    responses: { 200: OrderResponseSchema },
    errors: [400, 404],
  },
  "GET /api/orders/:id/entries": {
    summary:
      "The order's ledger, oldest first: every debt, payment, settlement and correction between two people on it (its payee, payers and members with a share)",
    access: "order.read",
    params: OrderIdParams,
    query: EntriesQuerySchema,
    responses: { 200: EntriesResponseSchema },
    errors: [400, 404],
  },
  "GET /api/orders/:id/receipt.pdf": {
    summary: "The order's receipt as a PDF: every line, every share and its status",
    access: "order.read",
    params: OrderIdParams,
    responses: { 200: pdf },
    errors: [400, 404],
  },
  "POST /api/orders/:id/paid": {
    summary:
      "Say you paid what you owe on the order: a claim to each payer you owe, which they confirm (a member with a share); twice changes nothing",
    access: "order.pay",
    params: OrderIdParams,
    responses: { 200: OrderResponseSchema },
    errors: [400, 404, 409],
  },
  "POST /api/orders/:id/confirm/:userId": {
    summary:
      "Settle what that member owes you on the order (the payee, or another payer: each settles only their own part): confirm their payment arrived (the default; they must have said they paid), or record it as paid in cash or written off (also when unpaid)",
    access: "order.confirm",
    params: z.strictObject({ id: z.uuid("Order not found"), userId: z.uuid("Share not found") }),
    body: ConfirmShareBodySchema,
    responses: { 200: OrderResponseSchema },
    errors: [400, 403, 404, 409],
  },
  "POST /api/orders/:id/mail": {
    summary: "Send the checkout mail again to members whose mail failed (payee)",
    access: "order.mail",
    params: OrderIdParams,
    body: NoBody,
    responses: { 200: OrderResponseSchema },
    errors: [400, 403, 404],
  },
  "POST /api/orders/:id/reveal": {
    summary:
      "Show the order's private items to every member of the session (payee); again changes nothing",
    access: "order.reveal",
    params: OrderIdParams,
    body: NoBody,
    responses: { 200: OrderResponseSchema },
    errors: [400, 403, 404],
  },
  "POST /api/orders/:id/adjustments": {
    summary:
      "Record what happened at the shop (payee): a line not delivered, substituted, its quantity or price changed, refunded, or an order-level fee or discount; the order re-splits by its checkout rules to the cent",
    access: "order.adjust",
    params: OrderIdParams,
    body: AdjustmentBodySchema,
    responses: { 201: OrderResponseSchema },
    errors: [400, 403, 404],
  },
  "POST /api/orders/:id/adjustments/:adjId/dispute": {
    summary: "Dispute an adjustment with a comment (a member with a share); the payee sees it",
    access: "order.dispute",
    params: z.strictObject({
      id: z.uuid("Order not found"),
      adjId: z.uuid("Adjustment not found"),
    }),
    body: DisputeBodySchema,
    responses: { 200: OrderResponseSchema },
    errors: [400, 403, 404],
  },
  "PUT /api/orders/:id/payers": {
    summary:
      "Say who paid the shop and how much (payee): amounts adding up to the total, to members of the order; refused once a share is paid or settled",
    access: "order.payers",
    params: OrderIdParams,
    body: SetPayersBodySchema,
    responses: { 200: OrderResponseSchema },
    errors: [400, 403, 404, 409],
  },
  "GET /api/balances/settle-plan": {
    summary:
      "The fewest transfers that settle every open balance in the orders you are part of (with: only those you share with that person)",
    access: "user",
    query: SettlePlanQuerySchema,
    responses: { 200: SettlePlanResponseSchema },
    errors: [400],
  },
  "POST /api/balances/transfers": {
    summary:
      "Record that you paid someone you owe: settles your open shares owed to them (less what they owe you), oldest first, exactly",
    access: "order.transfer",
    body: RecordTransferBodySchema,
    responses: { 201: RecordTransferResponseSchema },
    errors: [400, 403, 404],
  },
  "GET /api/balances": {
    summary: "Who owes whom: your net with each person across unconfirmed shares",
    access: "user",
    responses: { 200: BalancesResponseSchema },
    errors: [],
  },
} as const satisfies EndpointGroup;
