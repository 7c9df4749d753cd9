/** Checked-out carts and each member's share of them. */
import {
  type AdjustmentKind,
  type LineSubstitute,
  MAIL_STATUSES,
  type SplitPolicy,
} from "@cartner/contract";
import { sql } from "drizzle-orm";
import {
  bigint,
  index,
  integer,
  jsonb,
  pgSequence,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";
import { users } from "./accounts.ts";
import { carts } from "./carts.ts";
import { sessions } from "./sessions.ts";

/** A line of an order as it was at checkout: never changes afterwards. */
export interface OrderLineSnapshot {
  /** Null on a free line: its name is what was asked for, its price the estimate. */
  productId: string | null;
  name: string;
  unitPriceCents: number;
  quantity: number;
  addedBy: { _id: string; name: string };
  sharedWith: { _id: string; name: string }[];
  lineTotalCents: number;
  /** For whoever shops; absent on orders placed before lines had them. */
  note?: string | null;
  substitute?: LineSubstitute;
  /**
   * Members the line is hidden from (a private line; absent: none): for them it is not in the
   * order, its cost still in the figures. Cleared when the payee reveals the order's private lines.
   */
  hiddenFrom?: string[];
  /** The cart line it was, on a private line: its activity entries are revealed with it. */
  lineId?: string;
}

/** Who carried a share at checkout, with their role then: the members an adjustment re-splits among. */
export interface OrderMemberSnapshot {
  userId: string;
  name: string;
  role: "creator" | "participant";
}

/** An adjustment as stored (cents), with the disputes against it, oldest first. */
export interface StoredAdjustment {
  id: string;
  at: string;
  by: { _id: string; name: string };
  kind: AdjustmentKind;
  lineIndex?: number;
  quantity?: number;
  unitPriceCents?: number;
  amountCents?: number;
  name?: string;
  note?: string;
  disputes: { by: { _id: string; name: string }; at: string; comment: string }[];
}

/**
 * Where every order's version is drawn from: one sequence for all orders, so a version is never
 * given twice (a cache keyed by an order's id and version can never take one state for another).
 */
export const orderVersions = pgSequence("order_versions");

/**
 * A checked-out cart: one per session. Its lines, members and policy stay as they were at
 * checkout; the payee's adjustments re-split it, and the totals columns hold the adjusted
 * figures. Names are kept as they were at checkout.
 */
export const orders = pgTable(
  "orders",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Sequential across the app; shown as CRT-000042. Gaps only where a checkout rolled back. */
    number: integer("number").generatedAlwaysAsIdentity().notNull().unique(),
    sessionId: uuid("session_id")
      .notNull()
      .unique()
      .references(() => sessions.id),
    cartId: uuid("cart_id")
      .notNull()
      .references(() => carts.id),
    sessionName: text("session_name").notNull(),
    placedAt: timestamp("placed_at", { withTimezone: true }).notNull(),
    placedById: uuid("placed_by_id").references(() => users.id),
    placedByName: text("placed_by_name").notNull(),
    /** Who paid the shop (the creator); every other share is owed to them. */
    payeeId: uuid("payee_id").references(() => users.id),
    payeeName: text("payee_name").notNull(),
    lines: jsonb("lines").$type<OrderLineSnapshot[]>().notNull(),
    policy: jsonb("policy").$type<SplitPolicy>().notNull(),
    subtotalCents: integer("subtotal_cents").notNull(),
    feesCents: integer("fees_cents").notNull(),
    taxCents: integer("tax_cents").notNull(),
    totalCents: integer("total_cents").notNull(),
    /** The total at checkout; null on orders placed before adjustments existed (= total). */
    originalTotalCents: integer("original_total_cents"),
    /** The paying members at checkout; null on older orders (their shares and payee say it). */
    members: jsonb("members").$type<OrderMemberSnapshot[]>(),
    adjustments: jsonb("adjustments").$type<StoredAdjustment[]>().notNull().default([]),
    /**
     * Moved by every write to what the order's view shows, in the writing transaction: by triggers
     * on the order, its shares, payers and ledger entries, and on a member's account deletion
     * (order_touch, order_part_touch, order_member_touch in src/db/functions.ts). The servers keep
     * each order's built view keyed by it (features/orders/reading/kept.ts).
     */
    version: bigint("version", { mode: "number" })
      .notNull()
      .default(sql`nextval('order_versions')`),
  },
  // The payee's orders newest first, as My Orders pages them (its payee_id prefix serves every
  // lookup by payee alone). NULLS FIRST is what a plain DESC sorts by, so the index is the
  // query's order; Drizzle's desc() alone would write NULLS LAST.
  (t) => [
    index("orders_payee_placed_idx").on(
      t.payeeId,
      t.placedAt.desc().nullsFirst(),
      t.number.desc().nullsFirst(),
    ),
  ],
);

/**
 * The order's sort key (placed_at, number), copied onto each share and payer row as it is
 * inserted (order_sort_key() in src/db/functions): My Orders reads a page of a person's orders
 * newest first from an index, never their whole history. An order's placed_at and number never
 * change after checkout, so the copies never go stale.
 */
const sortKey = {
  placedAt: timestamp("placed_at", { withTimezone: true })
    .notNull()
    // Set by the trigger, never by the insert: left out, it is "default" (null), then the copy.
    .$defaultFn(() => sql`default`),
  orderNumber: integer("order_number")
    .notNull()
    .$defaultFn(() => sql`default`),
};

/**
 * One member's share of an order: the split's figures (adjusted), and whether the checkout mail
 * reached them. What they owe, paid and are owed back is the ledger's (ledger.ts).
 */
export const orderShares = pgTable(
  "order_shares",
  {
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id),
    name: text("name").notNull(),
    subtotalCents: integer("subtotal_cents").notNull(),
    feesCents: integer("fees_cents").notNull(),
    taxCents: integer("tax_cents").notNull(),
    totalCents: integer("total_cents").notNull(),
    /** The share at checkout; null on shares from before adjustments existed (= total). */
    originalTotalCents: integer("original_total_cents"),
    /** The checkout mail to this member: it never undoes the order; the payee may resend. */
    mail: text("mail", { enum: MAIL_STATUSES }).notNull().default("pending"),
    ...sortKey,
  },
  (t) => [
    primaryKey({ columns: [t.orderId, t.userId] }),
    index("order_shares_user_placed_idx").on(
      t.userId,
      t.placedAt.desc().nullsFirst(),
      t.orderNumber.desc().nullsFirst(),
    ),
  ],
);

/**
 * Who paid the shop, when the payee said several people did (two cards): amounts adding up to the
 * order's total. No rows: the payee paid all of it. Names are kept as they were when set.
 */
export const orderPayers = pgTable(
  "order_payers",
  {
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id),
    name: text("name").notNull(),
    amountCents: integer("amount_cents").notNull(),
    /** The order the payee listed them in (the rounding's order, so it never changes). */
    position: integer("position").notNull(),
    ...sortKey,
  },
  (t) => [
    primaryKey({ columns: [t.orderId, t.userId] }),
    index("order_payers_user_placed_idx").on(
      t.userId,
      t.placedAt.desc().nullsFirst(),
      t.orderNumber.desc().nullsFirst(),
    ),
  ],
);

/**
 * A mark for a person, written in the writing transaction by every write that moves the version
 * of an order they are on (or takes them off one): the order's row, its shares, payers and book
 * (order_people_mark(), order_part_touch(), order_mark() in src/db/functions). Balances, the settle
 * plan and the CSV of all orders are kept while the sum of their people's weights is the same
 * (docs/decisions/061-person-marks.md): a writer only inserts, and folds the person's older marks
 * it can lock without waiting into its own (their weights added), so the sum grows by one per
 * committed writer whatever the order of commits, and a person has about one row. No foreign
 * key: a mark outlives nothing, and a key would lock the user's row on every write of an order.
 */
export const orderMarks = pgTable(
  "order_marks",
  {
    personId: uuid("person_id").notNull(),
    id: bigint("id", { mode: "number" }).generatedAlwaysAsIdentity(),
    weight: bigint("weight", { mode: "number" }).notNull().default(1),
  },
  (t) => [primaryKey({ columns: [t.personId, t.id] })],
);
