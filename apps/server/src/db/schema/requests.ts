/** What the server keeps about requests themselves: idempotent answers, the dev outbox. */
import { sql } from "drizzle-orm";
import { index, integer, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import { users } from "./accounts.ts";
import { createdAt } from "./columns.ts";

/** Mails kept by the development outbox (no SMTP_URL); listed at /dev/mailbox. */
export const devMails = pgTable(
  "dev_mails",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    recipient: text("recipient").notNull(),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    html: text("html").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("dev_mails_created_idx").on(sql`${t.createdAt} DESC`)],
);

/**
 * Answers to writes sent with an Idempotency-Key (clients retry writes made offline with the same key), kept 24 h: the
 * same key from the same user replays the first answer. `status` is null while the first request
 * is still running. A success answer that carries a secret keeps its status only (no body).
 */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    /**
     * HMAC-SHA256 of method, path and body under a key derived from the server secret (a body may
     * hold a password): the same key with another request is refused (422).
     */
    requestHash: text("request_hash").notNull(),
    status: integer("status"),
    contentType: text("content_type"),
    body: text("body"),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.key] }),
    index("idempotency_keys_created_idx").on(t.createdAt),
  ],
);
