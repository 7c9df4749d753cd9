/** What the app tells each person (the bell's list) and how each person wants to be told. */
import type { NotificationKind, NotificationPreferences } from "@cartner/contract";
import { sql } from "drizzle-orm";
import {
  bigint,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { users } from "./accounts.ts";
import { createdAt } from "./columns.ts";
import { orders } from "./orders.ts";
import { sessions } from "./sessions.ts";

/**
 * One notification of one reader. Changes by others in a session are one unread row per reader
 * and session (the partial unique index): each further change rewrites its text and counts up,
 * until the reader reads it.
 */
export const notifications = pgTable(
  "notifications",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Order of arrival (a regrouped row takes a new one): ties of created_at go newest first. */
    seq: bigint("seq", { mode: "number" }).generatedByDefaultAsIdentity().notNull(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind").$type<NotificationKind>().notNull(),
    sessionId: uuid("session_id").references(() => sessions.id, { onDelete: "cascade" }),
    orderId: uuid("order_id").references(() => orders.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    body: text("body").notNull(),
    url: text("url").notNull(),
    /**
     * A request for approval: the cart and the line it is about (no foreign keys: lines come and
     * go, and the request outlives its line). The list joins the line by its key to say whether
     * it still waits.
     */
    cartId: uuid("cart_id"),
    lineId: uuid("line_id"),
    /** How many changes the row stands for (1 for every kind but grouped changes). */
    count: integer("count").notNull().default(1),
    createdAt: createdAt(),
    readAt: timestamp("read_at", { withTimezone: true }),
  },
  (t) => [
    index("notifications_user_created_idx").on(t.userId, t.createdAt),
    // The unread count every list answers: the unread rows only, not a person's whole history.
    index("notifications_user_unread_idx")
      .on(t.userId)
      .where(sql`${t.readAt} is null`),
    uniqueIndex("notifications_unread_changes_idx")
      .on(t.userId, t.sessionId)
      .where(sql`${t.kind} = 'changes' and ${t.readAt} is null`),
  ],
);

/** A person's choices; no row: the defaults (DEFAULT_NOTIFICATION_PREFERENCES). */
export const notificationPreferences = pgTable("notification_preferences", {
  userId: uuid("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  prefs: jsonb("prefs").$type<NotificationPreferences>().notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
