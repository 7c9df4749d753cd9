import { z } from "zod";
import { LINE_SUBSTITUTES, QUANTITY_MAX, QUANTITY_MIN } from "./constants.ts";
import { DeadlineSchema } from "./deadlines.ts";
import { MemberSchema, PersonSchema, SessionStatusSchema } from "./sessions.ts";

/** Members a line is hidden from (a present): the hidden-from route's and an add's. */
export const HiddenFromIdsSchema = z.array(z.uuid("Unknown member")).max(100);

export const AddToCartBodySchema = z.strictObject({
  productId: z.uuid("Unknown product"),
  quantity: z.number().int().min(QUANTITY_MIN).max(QUANTITY_MAX).default(1),
  /**
   * Private from the start: the members the new line is hidden from (members only, never the
   * caller or the creator). More of a product joins the caller's line of it only when that line
   * is hidden from all of them (409 otherwise).
   */
  hiddenFrom: HiddenFromIdsSchema.optional(),
});
export const QuantityChangeBodySchema = z.strictObject({
  productId: z.uuid("Unknown product"),
  change: z.union([z.literal(1), z.literal(-1)], { message: "change is +1 or -1" }),
  /** Another member's line (creator only); without it, the caller's own line. */
  lineId: z.uuid().optional(),
});
export const LineQuerySchema = z.strictObject({ lineId: z.uuid().optional() });

export const SubstituteSchema = z.enum(LINE_SUBSTITUTES, {
  error: "substitute is one of any, similar, none",
});

export const CartLineSchema = z.object({
  _id: z.string(),
  /** A free line's is `{ _id: null, name, price: its estimate or 0, imageUrl: a placeholder }`. */
  productId: z.object({
    _id: z.string().nullable(),
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
  /** The product's price now (what the line costs and is split at). */
  unitPrice: z.number(),
  /** The product's price when the line was added. */
  addedPrice: z.number(),
  /**
   * The price members last saw: the one last acknowledged, else the one it was added at. The
   * "was" figure while `priceChanged` (added at 2.99, acknowledged at 3.49, now 3.99: was 3.49).
   */
  seenPrice: z.number(),
  /**
   * The price changed since members last saw it (`seenPrice`): shown at the new price beside the
   * one last seen until a member acknowledges it (or the cart is checked out).
   */
  priceChanged: z.boolean(),
  /** False once the product was made unavailable: checkout leaves the line out. */
  available: z.boolean(),
  /** Units of this line over the product's stock (lines of the cart taken oldest first), or 0. */
  stockShort: z.number().int(),
  /** Something not in the catalog, added by name. */
  free: z.boolean(),
  /** A free line's price is an estimate until the payee prices it on the order. */
  estimated: z.boolean(),
  /** For whoever shops; null: none. */
  note: z.string().nullable(),
  substitute: SubstituteSchema,
  /**
   * The line waits for approval (its adder's budget asks first and it took their share over it):
   * not in the totals nor the split (the cart's `pendingTotal` counts it) until the creator or an
   * approver approves it; declined, it goes. `message`: the request's (null: none). Null: it does
   * not wait.
   */
  pending: z.object({ requestedAt: z.string(), message: z.string().nullable() }).nullable(),
  /**
   * Members the line is hidden from (a private line, a present): shown to its adder and the
   * creator only (others get []); a member in it never receives the line at all.
   */
  hiddenFrom: z.array(z.string()),
});
export type CartLine = z.infer<typeof CartLineSchema>;

/**
 * Checkout's refusal (409) when the caller is a member some lines are hidden from: they would see
 * the presents. Names only how many, and who checks out instead.
 */
export const privateAtCheckout = (count: number): string =>
  `${count === 1 ? "1 item in the cart is" : `${count} items in the cart are`} private and hidden from you: the session's creator or whoever added ${count === 1 ? "it" : "them"} checks out.`;

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
    /** Members who approve lines waiting for approval, besides the creator (their ids). */
    approvers: z.array(z.string()),
  }),
  products: z.array(CartLineSchema),
  totalPrice: z.number(),
  /** The units of the lines the reader sees. */
  itemCount: z.number().int(),
  /** What the lines waiting for approval come to (kept out of `totalPrice` and the split). */
  pendingTotal: z.number(),
  /**
   * Lines hidden from the reader (a count only; 0 for everyone else): their cost is in
   * `totalPrice` and the shares, so the reader's figures still add up.
   */
  privateCount: z.number().int(),
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
      product: z.object({
        _id: z.string().nullable(),
        name: z.string(),
        price: money,
        imageUrl: z.string(),
      }),
      quantity: z.number().int(),
      /** The adder's name, as the summary shows it; their id beside it. */
      addedBy: z.string(),
      addedById: z.string(),
      /** What whoever checks out should know: an estimated price, a note, the substitute. */
      estimated: z.boolean(),
      note: z.string().nullable(),
      substitute: SubstituteSchema,
    }),
  ),
  split: z.array(ShareSchema),
  /** Lines hidden from the reader, counted in the totals (a count only; see the cart's). */
  privateCount: z.number().int(),
  subtotal: money,
  fees: money,
  tax: money,
  total: money,
});
export type SessionSummary = z.infer<typeof SessionSummarySchema>;
