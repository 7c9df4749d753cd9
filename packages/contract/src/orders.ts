/*
 * The orders' schemas. Functions the web uses live in zod-free modules (owed.ts, adjust.ts): one
 * here would take this module, with ApiErrorSchema.extend, into the first load (npm run build
 * checks it).
 */
import { z } from "zod";
import { PAGE_LIMIT_MAX } from "./constants.ts";
import { nextCursor, pageQuery } from "./pages.ts";
import { AdjustedLineSchema, AdjustmentSchema } from "./adjustments.ts";
import { ApiErrorSchema } from "./errors.ts";
import { LINE_SUBSTITUTES } from "./constants.ts";

/** A share's settlement: the member pays the payee outside the app, then says so; the payee confirms. */
export const SHARE_STATUSES = ["unpaid", "paid", "confirmed"] as const;
export const ShareStatusSchema = z.enum(SHARE_STATUSES);
export type ShareStatus = z.infer<typeof ShareStatusSchema>;

/**
 * How a confirmed share was settled: the member's transfer the payee confirmed, cash handed over,
 * or written off by the payee (cash and written off settle an unpaid share too).
 */
export const SETTLEMENT_KINDS = ["transfer", "cash", "written_off"] as const;
export const SettlementKindSchema = z.enum(SETTLEMENT_KINDS, {
  error: "how is transfer, cash or written_off",
});
export type SettlementKind = z.infer<typeof SettlementKindSchema>;

/** POST /orders/:id/confirm/:userId: no body (the server sees null) is a confirmed transfer. */
export const ConfirmShareBodySchema = z
  .strictObject({ how: SettlementKindSchema.default("transfer") })
  .nullish();
export type ConfirmShareBody = z.input<typeof ConfirmShareBodySchema>;

/** Whether the checkout mail reached a member (the payee sees it and may send it again). */
export const MAIL_STATUSES = ["pending", "sent", "failed"] as const;

const money = z.number();
const PersonSchema = z.object({ _id: z.string(), name: z.string() });

/** "CRT-000042": the order's readable number, sequential across the whole app. */
export const orderNumber = (n: number): string => `CRT-${String(n).padStart(6, "0")}`;

export const OrderLineSchema = z.object({
  /** Null on a free line (something not in the catalog, by name). */
  productId: z.string().nullable(),
  name: z.string(),
  unitPrice: money,
  quantity: z.number().int(),
  addedBy: PersonSchema,
  /** Who shared the line in equal parts; empty: the session's policy split it. */
  sharedWith: z.array(PersonSchema),
  lineTotal: money,
  /** The line as delivered after the order's adjustments; null while none changed it. */
  adjusted: AdjustedLineSchema.nullable(),
  free: z.boolean(),
  /** A free line's price is its estimate until the payee prices it (a `price` adjustment). */
  estimated: z.boolean(),
  /** For whoever shops; null: none. */
  note: z.string().nullable(),
  substitute: z.enum(LINE_SUBSTITUTES),
  /**
   * Members the line is hidden from (a private line, a present): shown to its adder and the payee
   * only (others get []); a member in it never receives the line at all.
   */
  hiddenFrom: z.array(z.string()),
});
export type OrderLine = z.infer<typeof OrderLineSchema>;

export const OrderShareSchema = z.object({
  userId: z.string(),
  name: z.string(),
  subtotal: money,
  fees: money,
  tax: money,
  /** The share after the order's adjustments (`originalTotal`: at checkout). */
  total: money,
  originalTotal: money,
  /** Paid toward the share before it last changed; the rest (total - paid) is owed while unpaid. */
  paid: money,
  /**
   * Paid beyond the adjusted share and not paid back yet: the payers owe it back (the sum of its
   * parts' credits below).
   */
  credit: money,
  status: ShareStatusSchema,
  paidAt: z.string().nullable(),
  confirmedAt: z.string().nullable(),
  /** How the payee settled it; null while unsettled, and for the payee's own share. */
  settledAs: SettlementKindSchema.nullable(),
  /** The member has since deleted their account: the share stays for the payee to settle. */
  accountDeleted: z.boolean(),
  /** The checkout mail to this member; the payee sees "failed" and may send it again. */
  mail: z.enum(MAIL_STATUSES),
});
export type OrderShare = z.infer<typeof OrderShareSchema>;

/** One share's part owed to one payer, and what of it is still open. */
export const OrderPartSchema = z.object({
  debtor: z.string(),
  payer: z.string(),
  amount: money,
  open: money,
  credit: money,
  /** What the debtor says they paid the payer, waiting for the payer to confirm it. */
  claimed: money,
  /**
   * What the payer says they paid the debtor back of `credit`, waiting for the debtor to confirm
   * it (a payer who owes a credit back says so as anyone says they paid).
   */
  claimedBack: money,
});
export type OrderPart = z.infer<typeof OrderPartSchema>;

/**
 * An order: its lines as placed never change; the payee's adjustments (what the shop really
 * delivered and charged) re-split it, and the totals and shares are the adjusted ones.
 */
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
  /** The total at checkout, before any adjustment. */
  originalTotal: money,
  /** Oldest first. */
  adjustments: z.array(AdjustmentSchema),
  /**
   * Who paid the shop and how much, adding up to the total (by default the payee, all of it).
   * Every share is owed to the payers in proportion (owedToPayers).
   */
  payers: z.array(z.object({ user: PersonSchema, amount: money })),
  /**
   * What each two people owe each other on the order, from its book: `amount`, the part of the
   * debtor's adjusted share owed to the payer (net of the payer's part owed to the debtor, when
   * both paid the shop); `open`, still owed; `credit`, owed back to the debtor by the payer;
   * `claimed`, said paid and waiting for the payer; `claimedBack`, the credit said paid back and
   * waiting for the debtor. All 0 once settled.
   */
  parts: z.array(OrderPartSchema),
  /**
   * How many lines are hidden from the reader (private lines): left out of `lines` (and their
   * adjustments), their cost still in the totals and shares. 0 for everyone else.
   */
  privateCount: z.number().int(),
});
export type Order = z.infer<typeof OrderSchema>;

export const OrderResponseSchema = z.object({ order: OrderSchema });

/** A line checkout left out of the order: its product was made unavailable. */
export const LeftOutLineSchema = z.object({
  lineId: z.string(),
  name: z.string(),
  quantity: z.number().int(),
});
/** POST /sessions/:id/checkout: the order, and the lines left out of it (unavailable products). */
export const CheckoutResponseSchema = OrderResponseSchema.extend({
  leftOut: z.array(LeftOutLineSchema),
});
export type CheckoutResponse = z.infer<typeof CheckoutResponseSchema>;

/** A line that wants more than the stock has left: how many it wants, how many are left for it. */
export const ShortLineSchema = z.object({
  lineId: z.string(),
  name: z.string(),
  wanted: z.number().int(),
  left: z.number().int(),
});
export type ShortLine = z.infer<typeof ShortLineSchema>;

/** A line waiting for approval that stopped a checkout (409 PENDING_APPROVALS): whose, how many. */
export const WaitingLineSchema = z.object({
  lineId: z.string(),
  name: z.string(),
  quantity: z.number().int(),
  addedBy: z.object({ _id: z.string(), name: z.string() }),
});
export type WaitingLine = z.infer<typeof WaitingLineSchema>;

/**
 * My Orders a page at a time, newest first; `sessionId` (repeated for several) asks for the orders
 * those sessions became (at most one each), `toPay` for the orders where the reader's share is
 * still to pay.
 */
export const OrdersQuerySchema = pageQuery("order").extend({
  sessionId: z
    .preprocess(
      (v) => (typeof v === "string" ? [v] : v),
      z
        .array(z.uuid("sessionId is a session id"))
        .max(PAGE_LIMIT_MAX, `sessionId is at most ${PAGE_LIMIT_MAX} sessions`),
    )
    .optional(),
  toPay: z
    .enum(["true", "false"], "toPay is true or false")
    .transform((v) => v === "true")
    .optional(),
});
export type OrdersQuery = z.infer<typeof OrdersQuerySchema>;
export const OrdersResponseSchema = z.object({ orders: z.array(OrderSchema), nextCursor });

/** One person's net with you across all orders: positive = they owe you. */
export const BalanceSchema = z.object({
  user: z.object({ _id: z.string(), name: z.string(), avatar: z.string() }),
  amount: money,
  /**
   * The orders behind the amount, newest first (positive = they owe you): shares not settled, and
   * credits not paid back.
   */
  orders: z.array(
    z.object({
      _id: z.string(),
      number: z.string(),
      sessionName: z.string(),
      placedAt: z.string(),
      amount: money,
      status: ShareStatusSchema,
      /** Only a credit behind it (paid beyond an adjusted share): owed back. */
      credit: z.boolean(),
    }),
  ),
});
export type Balance = z.infer<typeof BalanceSchema>;
export const BalancesResponseSchema = z.object({ balances: z.array(BalanceSchema) });

/**
 * One share not yet settled, as DELETE /users/me lists it: `amount` is positive when the
 * counterparty owes you (you are the payee), negative when you owe them (as in balances).
 */
export const UnsettledShareSchema = z.object({
  orderId: z.string(),
  number: z.string(),
  amount: money,
  counterparty: PersonSchema,
});
export type UnsettledShare = z.infer<typeof UnsettledShareSchema>;

/** The 409 of DELETE /users/me: the error shape plus the shares (code UNSETTLED_SHARES). */
export const UnsettledSharesErrorSchema = ApiErrorSchema.extend({
  shares: z.array(UnsettledShareSchema).optional(),
});
