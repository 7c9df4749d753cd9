/** The money: one append-only book of debts between two people per order (decision 033). */
import { LEDGER_KINDS } from "@cartner/contract";
import { sql } from "drizzle-orm";
import {
  bigint,
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
import { orders } from "./orders.ts";

/**
 * By this entry `from` owes `to` `amount_cents` more on one order. Never updated or deleted (a
 * trigger refuses both): a correction is a new entry. `pending`: a claim ("paid") not counted
 * until an entry naming it in `ref_id` posts it ("confirmed") or voids it ("reversal"); an entry
 * is named by at most one other. The entries of one event share `txn`, `at`, who did it, the
 * request's idempotency key and the activity entry the event wrote.
 */
export const ledgerEntries = pgTable(
  "ledger_entries",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** The book's order of writing (oldest first). */
    seq: bigint("seq", { mode: "number" }).generatedAlwaysAsIdentity().notNull(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id),
    txn: uuid("txn").notNull(),
    at: timestamp("at", { withTimezone: true }).notNull(),
    kind: text("kind", { enum: LEDGER_KINDS }).notNull(),
    fromId: uuid("from_id")
      .notNull()
      .references(() => users.id),
    toId: uuid("to_id")
      .notNull()
      .references(() => users.id),
    amountCents: integer("amount_cents").notNull(),
    pending: boolean("pending").notNull().default(false),
    refId: uuid("ref_id"),
    /** Who did it; null for what the app did itself (an account's deletion, the upgrade). */
    byId: uuid("by_id").references(() => users.id),
    byName: text("by_name").notNull(),
    note: text("note"),
    idempotencyKey: text("idempotency_key"),
    activitySeq: bigint("activity_seq", { mode: "number" }),
  },
  (t) => [
    check("ledger_entries_amount_positive", sql`${t.amountCents} > 0`),
    check("ledger_entries_two_people", sql`${t.fromId} <> ${t.toId}`),
    index("ledger_entries_order_idx").on(t.orderId, t.seq),
    index("ledger_entries_from_idx").on(t.fromId),
    index("ledger_entries_to_idx").on(t.toId),
    // A claim is posted or voided once.
    uniqueIndex("ledger_entries_ref_idx").on(t.refId),
  ],
);
