/** A session's cart, its lines, and removed lines kept for undo. */
import {
  CART_STATUSES,
  FREE_LINE_NAME_MAX_LENGTH,
  LINE_NOTE_MAX_LENGTH,
  LINE_SUBSTITUTES,
} from "@cartner/contract";
import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  boolean,
  check,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { users } from "./accounts.ts";
import { products } from "./catalog.ts";
import { createdAt } from "./columns.ts";
import { sessions } from "./sessions.ts";

/** A line's name when it has no product, and what the shopper should know about it. */
function lineExtras() {
  return {
    /** A free line's name (set exactly when product_id is null). */
    name: text("name"),
    /** For whoever does the shopping ("ripe ones"). */
    note: text("note"),
    /** What the shopper may take instead when it is not there. */
    substitute: text("substitute", { enum: LINE_SUBSTITUTES }).notNull().default("any"),
  };
}

/** A line names a product or is free (has a name), never both; a note is short. */
function lineChecks(
  table: string,
  t: {
    productId: AnyPgColumn;
    name: AnyPgColumn;
    note: AnyPgColumn;
    substitute: AnyPgColumn;
    unitPriceCents: AnyPgColumn;
  },
) {
  return [
    check(`${table}_product_or_name`, sql`(${t.productId} is null) <> (${t.name} is null)`),
    check(
      `${table}_name_length`,
      sql`char_length(${t.name}) <= ${sql.raw(String(FREE_LINE_NAME_MAX_LENGTH))}`,
    ),
    check(
      `${table}_note_length`,
      sql`char_length(${t.note}) <= ${sql.raw(String(LINE_NOTE_MAX_LENGTH))}`,
    ),
    check(
      `${table}_substitute`,
      sql`${t.substitute} in (${sql.raw(LINE_SUBSTITUTES.map((s) => `'${s}'`).join(", "))})`,
    ),
    check(`${table}_price_not_negative`, sql`${t.unitPriceCents} >= 0`),
  ];
}

/** One cart per session; ending the session completes it (kept as history). */
export const carts = pgTable("carts", {
  id: uuid("id").primaryKey().defaultRandom(),
  sessionId: uuid("session_id")
    .notNull()
    .unique()
    .references(() => sessions.id, { onDelete: "cascade" }),
  status: text("status", { enum: CART_STATUSES }).notNull().default("active"),
  createdAt: createdAt(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * One line per (cart, product, member who added it), or a free line: a name and no product, as
 * many as members add. Active carts price product lines at the product's current price; ending
 * the session freezes it into unit_price_cents. A free line's unit_price_cents is its estimate
 * (0 without one) from the start: it is priced for real on the order, after the shop.
 */
export const cartLines = pgTable(
  "cart_lines",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    cartId: uuid("cart_id")
      .notNull()
      .references(() => carts.id, { onDelete: "cascade" }),
    /** Null on a free line, which has a name instead. */
    productId: uuid("product_id").references(() => products.id),
    addedBy: uuid("added_by")
      .notNull()
      .references(() => users.id),
    quantity: integer("quantity").notNull(),
    unitPriceCents: integer("unit_price_cents"),
    /**
     * The product's price when the line was added (kept as more are added to it): while the
     * product's price differs from the price the members last saw (this, or the acknowledged
     * price), the cart shows the line at the new price with the old one beside it.
     */
    addedPriceCents: integer("added_price_cents"),
    /** The product's price when a member last acknowledged a change of it (null: never). */
    acknowledgedPriceCents: integer("acknowledged_price_cents"),
    ...lineExtras(),
    /** Members who share the line in equal parts; empty: the session's policy applies. */
    sharedWith: uuid("shared_with")
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    /** Carried into the series' next session (at that day's price). */
    staple: boolean("staple").notNull().default(false),
    /**
     * Members the line is hidden from (a private line): for them it does not exist; never its
     * adder nor the session's creator. Empty: seen by every member.
     */
    hiddenFrom: uuid("hidden_from")
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    addedAt: timestamp("added_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    /**
     * Set while the line waits for approval (its adder's budget asks first and the change took
     * their share over it): kept out of the totals and the split until approved (cleared) or
     * declined (the line goes). cart_write_core() sets it.
     */
    pendingAt: timestamp("pending_at", { withTimezone: true }),
  },
  (t) => [
    // Free lines (no product) never collide here: NULLs are distinct in a unique index.
    uniqueIndex("cart_lines_owner_idx").on(t.cartId, t.productId, t.addedBy),
    check("cart_lines_quantity_range", sql`${t.quantity} between 1 and 99`),
    ...lineChecks("cart_lines", t),
  ],
);

/**
 * A line as it was just before its removal, so the member who removed it can undo that within
 * a short window (cart_write() 'restore', migration 0019): the line comes back with its id,
 * adder, quantity, sharers and added time, so the split is as before. Rows go once restored,
 * and older than the window on the cart's next removal.
 */
export const removedLines = pgTable(
  "removed_lines",
  {
    lineId: uuid("line_id").primaryKey(),
    cartId: uuid("cart_id")
      .notNull()
      .references(() => carts.id, { onDelete: "cascade" }),
    productId: uuid("product_id").references(() => products.id),
    addedBy: uuid("added_by")
      .notNull()
      .references(() => users.id),
    quantity: integer("quantity").notNull(),
    addedPriceCents: integer("added_price_cents"),
    acknowledgedPriceCents: integer("acknowledged_price_cents"),
    /** A free line's estimate (its unit price in the cart); null for a product line. */
    unitPriceCents: integer("unit_price_cents"),
    ...lineExtras(),
    sharedWith: uuid("shared_with").array().notNull(),
    staple: boolean("staple").notNull().default(false),
    hiddenFrom: uuid("hidden_from")
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    addedAt: timestamp("added_at", { withTimezone: true }).notNull(),
    /** The line was waiting for approval when removed: it comes back waiting. */
    pendingAt: timestamp("pending_at", { withTimezone: true }),
    removedBy: uuid("removed_by")
      .notNull()
      .references(() => users.id),
    removedAt: timestamp("removed_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    index("removed_lines_cart_idx").on(t.cartId, t.removedAt),
    ...lineChecks("removed_lines", t),
  ],
);
