/** A session's cart, its lines, and removed lines kept for undo. */
import { CART_STATUSES } from "@cartner/contract";
import { sql } from "drizzle-orm";
import {
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
 * One line per (cart, product, member who added it). Active carts price lines at the product's
 * current price; ending the session freezes it into unit_price_cents.
 */
export const cartLines = pgTable(
  "cart_lines",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    cartId: uuid("cart_id")
      .notNull()
      .references(() => carts.id, { onDelete: "cascade" }),
    productId: uuid("product_id")
      .notNull()
      .references(() => products.id),
    addedBy: uuid("added_by")
      .notNull()
      .references(() => users.id),
    quantity: integer("quantity").notNull(),
    unitPriceCents: integer("unit_price_cents"),
    /** Members who share the line in equal parts; empty: the session's policy applies. */
    sharedWith: uuid("shared_with")
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    /** Carried into the series' next session (at that day's price). */
    staple: boolean("staple").notNull().default(false),
    addedAt: timestamp("added_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("cart_lines_owner_idx").on(t.cartId, t.productId, t.addedBy),
    check("cart_lines_quantity_range", sql`${t.quantity} between 1 and 99`),
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
    productId: uuid("product_id")
      .notNull()
      .references(() => products.id),
    addedBy: uuid("added_by")
      .notNull()
      .references(() => users.id),
    quantity: integer("quantity").notNull(),
    sharedWith: uuid("shared_with").array().notNull(),
    staple: boolean("staple").notNull().default(false),
    addedAt: timestamp("added_at", { withTimezone: true }).notNull(),
    removedBy: uuid("removed_by")
      .notNull()
      .references(() => users.id),
    removedAt: timestamp("removed_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("removed_lines_cart_idx").on(t.cartId, t.removedAt)],
);
