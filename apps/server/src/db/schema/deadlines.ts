/**
 * Deadlines: when a session's cart closes, stored as an instant
 * (docs/decisions/018-time-zones.md), and the reminders already sent for it.
 */
import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";
import { createdAt } from "./columns.ts";
import { sessions } from "./sessions.ts";

/**
 * A session's deadline, one at most. The cart is closed from `closes_at` on: `cart_write_core()`
 * compares it with the write's own time under the cart's lock, so nothing needs to happen at that
 * instant for the lock to hold. What does happen then (the activity entry, the live event, the
 * automatic checkout) is a job's (features/deadlines), recorded here so that it happens once.
 */
export const sessionDeadlines = pgTable(
  "session_deadlines",
  {
    sessionId: uuid("session_id")
      .primaryKey()
      .references(() => sessions.id, { onDelete: "cascade" }),
    closesAt: timestamp("closes_at", { withTimezone: true }).notNull(),
    /** Minutes before closes_at, largest first; at most 5, each 1..10080. */
    remindAt: integer("remind_at").array().notNull(),
    autoCheckout: boolean("auto_checkout").notNull().default(false),
    /** When the lock's entry was written (the job ran); null while open or not yet processed. */
    lockedAt: timestamp("locked_at", { withTimezone: true }),
    /**
     * The automatic checkout is owed: set with the lock when auto_checkout is on, cleared in the
     * checkout's own transaction (or when it was skipped for an empty cart).
     */
    checkoutDue: boolean("checkout_due").notNull().default(false),
    /**
     * When the deadline was set, moved or reopened with a reminder's time already gone: the
     * instant the one reminder that stands for them went at once; null when none did.
     */
    remindedOnSetAt: timestamp("reminded_on_set_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("session_deadlines_closes_idx").on(t.closesAt),
    check("session_deadlines_reminders", sql`cardinality(${t.remindAt}) <= 5`),
  ],
);

/**
 * The reminders of a deadline that went (or were passed over: their time had gone when the
 * deadline was set, or a later one was due too), one row per (session, minutes before). Moving,
 * reopening or clearing the deadline deletes its rows, so the new deadline's reminders go again.
 */
export const deadlineReminders = pgTable(
  "deadline_reminders",
  {
    sessionId: uuid("session_id")
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    minutesBefore: integer("minutes_before").notNull(),
    /** The deadline it was for. */
    closesAt: timestamp("closes_at", { withTimezone: true }).notNull(),
    /** false: passed over, nothing sent. */
    sent: boolean("sent").notNull(),
    /** How many members it went to. */
    recipients: integer("recipients").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.sessionId, t.minutesBefore] })],
);
