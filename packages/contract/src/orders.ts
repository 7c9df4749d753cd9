import { z } from "zod";

/** A share's settlement: the member pays the payee outside the app, then says so; the payee confirms. */
export const SHARE_STATUSES = ["unpaid", "paid", "confirmed"] as const;
export const ShareStatusSchema = z.enum(SHARE_STATUSES);
export type ShareStatus = z.infer<typeof ShareStatusSchema>;

/** Whether the checkout mail reached a member (the payee sees it and may send it again). */
export const MAIL_STATUSES = ["pending", "sent", "failed"] as const;

const money = z.number();
const PersonSchema = z.object({ _id: z.string(), name: z.string() });

/** "CRT-000042": the order's readable number, sequential across the whole app. */
export const orderNumber = (n: number): string => `CRT-${String(n).padStart(6, "0")}`;

export const OrderLineSchema = z.object({
  productId: z.string(),
  name: z.string(),
  unitPrice: money,
  quantity: z.number().int(),
  addedBy: PersonSchema,
  /** Who shared the line in equal parts; empty: the session's policy split it. */
  sharedWith: z.array(PersonSchema),
  lineTotal: money,
});
export type OrderLine = z.infer<typeof OrderLineSchema>;

export const OrderShareSchema = z.object({
  userId: z.string(),
  name: z.string(),
  subtotal: money,
  fees: money,
  tax: money,
  total: money,
  status: ShareStatusSchema,
  paidAt: z.string().nullable(),
  confirmedAt: z.string().nullable(),
  /** The checkout mail to this member; the payee sees "failed" and may send it again. */
  mail: z.enum(MAIL_STATUSES),
});
export type OrderShare = z.infer<typeof OrderShareSchema>;

/** API.md "Checkout, orders, settling up": immutable once placed, except the shares' statuses. */
export const OrderSchema = z.object({
  _id: z.string(),
  number: z.string(),
  sessionId: z.string(),
  sessionName: z.string(),
  placedAt: z.string(),
  placedBy: PersonSchema,
  payee: PersonSchema,
  lines: z.array(OrderLineSchema),
  split: z.array(OrderShareSchema),
  subtotal: money,
  fees: money,
  tax: money,
  total: money,
});
export type Order = z.infer<typeof OrderSchema>;

export const OrderResponseSchema = z.object({ order: OrderSchema });
export const OrdersResponseSchema = z.object({ orders: z.array(OrderSchema) });

/** One person's net with you across all orders: positive = they owe you. */
export const BalanceSchema = z.object({
  user: z.object({ _id: z.string(), name: z.string(), avatar: z.string() }),
  amount: money,
  /** The unconfirmed shares behind the amount, newest first (positive = they owe you). */
  orders: z.array(
    z.object({
      _id: z.string(),
      number: z.string(),
      sessionName: z.string(),
      placedAt: z.string(),
      amount: money,
      status: ShareStatusSchema,
    }),
  ),
});
export type Balance = z.infer<typeof BalanceSchema>;
export const BalancesResponseSchema = z.object({ balances: z.array(BalanceSchema) });
