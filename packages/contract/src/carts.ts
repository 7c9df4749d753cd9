import { z } from "zod";
import { QUANTITY_MAX, QUANTITY_MIN } from "./constants.ts";
import { fromCents } from "./money.ts";
import type { ShareCents } from "./split.ts";
import { DeadlineSchema } from "./deadlines.ts";
import { MemberSchema, PersonSchema, SessionStatusSchema } from "./sessions.ts";

export const AddToCartBodySchema = z.strictObject({
  productId: z.uuid("Unknown product"),
  quantity: z.number().int().min(QUANTITY_MIN).max(QUANTITY_MAX).default(1),
});
export const QuantityChangeBodySchema = z.strictObject({
  productId: z.uuid("Unknown product"),
  change: z.union([z.literal(1), z.literal(-1)], { message: "change is +1 or -1" }),
  /** Another member's line (creator only); without it, the caller's own line. */
  lineId: z.uuid().optional(),
});
export const LineQuerySchema = z.strictObject({ lineId: z.uuid().optional() });

export const CartLineSchema = z.object({
  _id: z.string(),
  productId: z.object({
    _id: z.string(),
    name: z.string(),
    price: z.number(),
    imageUrl: z.string(),
    color: z.string().optional(),
  }),
  quantity: z.number().int(),
  addedBy: z.object({ _id: z.string(), name: z.string() }),
  addedAt: z.string(),
  lineTotal: z.number(),
  /** Members who share the line in equal parts; empty: the session's policy applies. */
  sharedWith: z.array(z.object({ _id: z.string(), name: z.string() })),
  /** Carried into the series' next session at that day's price. */
  staple: z.boolean(),
});
export type CartLine = z.infer<typeof CartLineSchema>;

const money = z.number();

/** One member's part of a cart or order; a cart's shares add up to its totals to the cent. */
export const ShareSchema = z.object({
  userId: z.string(),
  name: z.string(),
  subtotal: money,
  fees: money,
  tax: money,
  total: money,
  /** The member's own spending cap (null: none). */
  budget: money.nullable(),
  overBudget: z.boolean(),
});
export type Share = z.infer<typeof ShareSchema>;

/** A share as the API shows it, against the member's own budget (a warning, never a block). */
export function shareWithBudget(share: ShareCents, budgetCents: number | null): Share {
  return {
    userId: share.userId,
    name: share.name,
    subtotal: fromCents(share.subtotal),
    fees: fromCents(share.fees),
    tax: fromCents(share.tax),
    total: fromCents(share.total),
    budget: budgetCents === null ? null : fromCents(budgetCents),
    overBudget: budgetCents !== null && share.total > budgetCents,
  };
}

/** A cart is active until its session ends (checked out or ended), then completed. */
export const CART_STATUSES = ["active", "completed"] as const;

export const CartSchema = z.object({
  _id: z.string(),
  status: z.enum(CART_STATUSES),
  sessionId: z.object({
    _id: z.string(),
    sessionName: z.string(),
    status: SessionStatusSchema,
    creator: PersonSchema,
    invitedUsers: z.array(MemberSchema),
    /** The session's deadline: once `locked`, the cart takes no more changes (409 CART_LOCKED). */
    deadline: DeadlineSchema.nullable(),
  }),
  products: z.array(CartLineSchema),
  totalPrice: z.number(),
  itemCount: z.number().int(),
  /** Every paying member's running total, fees and tax included. */
  split: z.array(ShareSchema),
  version: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Cart = z.infer<typeof CartSchema>;

export const SessionSummarySchema = z.object({
  sessionName: z.string(),
  participants: z.array(z.object({ _id: z.string(), name: z.string() })),
  cartItems: z.array(
    z.object({
      product: z.object({ _id: z.string(), name: z.string(), price: money, imageUrl: z.string() }),
      quantity: z.number().int(),
      /** The adder's name, as the summary shows it; their id beside it. */
      addedBy: z.string(),
      addedById: z.string(),
    }),
  ),
  split: z.array(ShareSchema),
  subtotal: money,
  fees: money,
  tax: money,
  total: money,
});
export type SessionSummary = z.infer<typeof SessionSummarySchema>;
