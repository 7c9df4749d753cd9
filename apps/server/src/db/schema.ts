import { sql } from "drizzle-orm";
import {
  check,
  index,
  integer,
  jsonb,
  pgTable,
  smallint,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();

export const users = pgTable("users", {
  id: uuid("id").primaryKey().defaultRandom(),
  name: text("name").notNull(),
  /** Stored lower-cased; unique. */
  email: text("email").notNull().unique(),
  passwordHash: text("password_hash").notNull(),
  emailVerifiedAt: timestamp("email_verified_at", { withTimezone: true }),
  /** When the last code was sent; guards the 60 s resend interval atomically. */
  otpSentAt: timestamp("otp_sent_at", { withTimezone: true }),
  createdAt: createdAt(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** A signed-in device. JWTs carry its id as `sid`; revoking the row kills the token at once. */
export const authSessions = pgTable(
  "auth_sessions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (t) => [index("auth_sessions_user_idx").on(t.userId)],
);

export const otpCodes = pgTable(
  "otp_codes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    purpose: text("purpose", { enum: ["register", "login", "update"] }).notNull(),
    /** HMAC-SHA256 of the code under the server secret; the code itself is never stored. */
    codeHash: text("code_hash").notNull(),
    attempts: integer("attempts").notNull().default(0),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    consumedAt: timestamp("consumed_at", { withTimezone: true }),
    /** What an `update` code applies when verified (new email, new password hash). */
    payload: jsonb("payload").$type<Record<string, string>>(),
    createdAt: createdAt(),
  },
  (t) => [index("otp_codes_user_idx").on(t.userId, t.createdAt)],
);

/** One row per failed verification; counted over the last hour per account. */
export const otpFailures = pgTable(
  "otp_failures",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [index("otp_failures_user_idx").on(t.userId, t.createdAt)],
);

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

/** The marketplace catalog. Money in integer cents; rating in tenths (0..50). */
export const products = pgTable(
  "products",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Stable seed key; the seed inserts missing products by it and never overwrites. */
    slug: text("slug").notNull().unique(),
    name: text("name").notNull(),
    description: text("description").notNull(),
    category: text("category").notNull(),
    priceCents: integer("price_cents").notNull(),
    ratingTenths: smallint("rating_tenths").notNull(),
    reviews: integer("reviews").notNull().default(0),
    stock: integer("stock").notNull().default(0),
    color: text("color"),
    /** Display order in the default ("relevance" without a search) listing. */
    position: integer("position").notNull().default(0),
    /** The product picture, drawn at seed time (an SVG of our own, no external URL). */
    imageSvg: text("image_svg").notNull(),
    /** Short content hash, part of the image URL so it can be cached forever. */
    imageHash: text("image_hash").notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("products_price_nonnegative", sql`${t.priceCents} >= 0`),
    check("products_stock_nonnegative", sql`${t.stock} >= 0`),
    check("products_rating_range", sql`${t.ratingTenths} between 0 and 50`),
    index("products_category_idx").on(t.category),
  ],
);
