/**
 * What the notification channels keep: the devices that asked for Web Push, and the changes
 * waiting for a member's next digest mail (at most one an hour per session).
 */
import { index, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./accounts.ts";
import { createdAt } from "./columns.ts";
import { sessions } from "./sessions.ts";

/**
 * A browser's PushSubscription: its push service's endpoint (one row per endpoint, owned by the
 * user who last posted it) and the keys its messages are encrypted to. A push service answering
 * 404 or 410 removes it; deleting the account removes them all.
 */
export const pushSubscriptions = pgTable(
  "push_subscriptions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    endpoint: text("endpoint").notNull().unique(),
    /** The browser's P-256 public key (base64url, 65 bytes). */
    p256dh: text("p256dh").notNull(),
    /** The 16-byte authentication secret (base64url). */
    auth: text("auth").notNull(),
    createdAt: createdAt(),
    /** When its push service last accepted a message. */
    lastSuccessAt: timestamp("last_success_at", { withTimezone: true }),
  },
  (t) => [index("push_subscriptions_user_idx").on(t.userId)],
);

/**
 * A digest mail on its way to a member about one session: its job runs at `dueAt`, an hour after
 * the first change since the last digest, and later changes join it.
 */
export const mailDigests = pgTable(
  "mail_digests",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    sessionId: uuid("session_id")
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    dueAt: timestamp("due_at", { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.sessionId] })],
);

/** One change by others waiting for the member's next digest of that session. */
export const mailDigestItems = pgTable(
  "mail_digest_items",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    sessionId: uuid("session_id")
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    body: text("body").notNull(),
    /** The app path the change links to. */
    url: text("url").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("mail_digest_items_user_session_idx").on(t.userId, t.sessionId, t.createdAt)],
);
