import { sql } from "drizzle-orm";
import type { SplitPolicy } from "@cartner/contract";
import {
  bigint,
  boolean,
  customType,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  uniqueIndex,
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
  /**
   * When the last code for /auth/verify-otp (sign-up, sign-in, update) was sent; guards its 60 s
   * resend interval atomically.
   */
  otpSentAt: timestamp("otp_sent_at", { withTimezone: true }),
  /** The same for password reset codes, which have their own interval. */
  resetOtpSentAt: timestamp("reset_otp_sent_at", { withTimezone: true }),
  createdAt: createdAt(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  /** Set when the account was deleted: the row stays (others' carts and orders name it). */
  deletedAt: timestamp("deleted_at", { withTimezone: true }),
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
    /** As the browser sent it when signing in (the devices list names browser and OS). */
    userAgent: text("user_agent").notNull().default(""),
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
    purpose: text("purpose", { enum: ["register", "login", "update", "reset"] }).notNull(),
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

/**
 * One row per refused code: at /auth/verify-otp a wrong code entered against a live code, at
 * /auth/reset-password any refused try. Counted over the last hour per account (or typed email) and
 * client address, so nobody can lock someone else out from another address.
 */
export const otpFailures = pgTable(
  "otp_failures",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** The account; none when a reset was tried for an email without one. */
    userId: uuid("user_id").references(() => users.id, { onDelete: "cascade" }),
    /** HMAC-SHA256 of the email under the server secret: typed emails are never stored. */
    emailDigest: text("email_digest"),
    address: text("address"),
    createdAt: createdAt(),
  },
  (t) => [
    index("otp_failures_user_idx").on(t.userId, t.address, t.createdAt),
    index("otp_failures_email_idx").on(t.emailDigest, t.address, t.createdAt),
  ],
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

/** A shared shopping session. Budget in integer cents (null: none). */
export const sessions = pgTable(
  "sessions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    type: text("type", { enum: ["Couple", "Friends", "Family", "Solo"] }).notNull(),
    participants: text("participants", { enum: ["1", "2", "3+"] }).notNull(),
    status: text("status", { enum: ["active", "ended"] })
      .notNull()
      .default("active"),
    budgetCents: integer("budget_cents"),
    /** 8 characters from an unambiguous alphabet; what people type to join. */
    code: text("code").notNull().unique(),
    /** Shown to the creator and participants, so it is kept as entered (compared in constant time). */
    passcode: text("passcode"),
    creatorId: uuid("creator_id")
      .notNull()
      .references(() => users.id),
    /** Grows with every change to the session or its cart; clients use it to spot stale data. */
    version: integer("version").notNull().default(1),
    /** How the cart's cost is split (DESIGN section 9); the contract's DEFAULT_SPLIT_POLICY. */
    splitPolicy: jsonb("split_policy")
      .$type<SplitPolicy>()
      .notNull()
      .default(sql`'{"mode":"by_adder","weights":{},"fees":"proportional"}'::jsonb`),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    endedAt: timestamp("ended_at", { withTimezone: true }),
  },
  (t) => [
    check("sessions_budget_nonnegative", sql`${t.budgetCents} is null or ${t.budgetCents} >= 0`),
  ],
);

/** Who is in a session, with their role; a pending row is a join request. One row per person. */
export const sessionMembers = pgTable(
  "session_members",
  {
    sessionId: uuid("session_id")
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role", { enum: ["creator", "participant", "viewer", "pending"] }).notNull(),
    /** The member's own spending cap, cents (null: none). */
    budgetCents: integer("budget_cents"),
    /** The member's "I'm done" mark. */
    ready: boolean("ready").notNull().default(false),
    /**
     * Their share's total (cents) when they set the mark (null: unmarked, or marked before this
     * column). The mark counts only while their share's total is still this (issue 29).
     */
    readyTotalCents: integer("ready_total_cents"),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.sessionId, t.userId] }),
    index("session_members_user_idx").on(t.userId),
  ],
);

/** An invite by email; it waits for that email to register if it has no account yet. */
export const sessionInvites = pgTable(
  "session_invites",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    sessionId: uuid("session_id")
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    role: text("role", { enum: ["participant", "viewer"] }).notNull(),
    invitedBy: uuid("invited_by")
      .notNull()
      .references(() => users.id),
    status: text("status", { enum: ["pending", "accepted", "rejected"] })
      .notNull()
      .default("pending"),
    createdAt: createdAt(),
    respondedAt: timestamp("responded_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("session_invites_one_pending_idx")
      .on(t.sessionId, t.email)
      .where(sql`${t.status} = 'pending'`),
    index("session_invites_email_idx").on(t.email),
  ],
);

/**
 * A link that makes whoever opens it a member with its role, without approval (DESIGN section 9).
 * The token is random (128 bits); only its SHA-256 is looked up, and the creator's copy to show
 * again is kept encrypted under the server's secret.
 */
export const inviteLinks = pgTable(
  "invite_links",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    sessionId: uuid("session_id")
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull().unique(),
    /** AES-256-GCM of the token (iv, tag, ciphertext; base64url), for the creator's list. */
    tokenSealed: text("token_sealed").notNull(),
    role: text("role", { enum: ["participant", "viewer"] }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    maxUses: integer("max_uses").notNull(),
    uses: integer("uses").notNull().default(0),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    createdBy: uuid("created_by")
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [
    index("invite_links_session_idx").on(t.sessionId, t.createdAt),
    check("invite_links_uses_in_range", sql`${t.uses} between 0 and ${t.maxUses}`),
  ],
);

/** Failed join attempts, counted per user, per client address and per session to slow guessing. */
export const joinFailures = pgTable(
  "join_failures",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    sessionId: uuid("session_id").references(() => sessions.id, { onDelete: "cascade" }),
    /** The client's address (behind a proxy, from X-Forwarded-For with TRUST_PROXY). */
    address: text("address"),
    createdAt: createdAt(),
  },
  (t) => [
    index("join_failures_user_idx").on(t.userId, t.createdAt),
    index("join_failures_session_idx").on(t.sessionId, t.createdAt),
    index("join_failures_address_idx").on(t.address, t.createdAt),
  ],
);

/** One cart per session; ending the session completes it (kept as history). */
export const carts = pgTable("carts", {
  id: uuid("id").primaryKey().defaultRandom(),
  sessionId: uuid("session_id")
    .notNull()
    .unique()
    .references(() => sessions.id, { onDelete: "cascade" }),
  status: text("status", { enum: ["active", "completed"] })
    .notNull()
    .default("active"),
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
    addedAt: timestamp("added_at", { withTimezone: true }).notNull(),
    removedBy: uuid("removed_by")
      .notNull()
      .references(() => users.id),
    removedAt: timestamp("removed_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("removed_lines_cart_idx").on(t.cartId, t.removedAt)],
);

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => Buffer.from(value),
});

/** What a user tells about themselves; created empty on first read. */
export const profiles = pgTable("profiles", {
  userId: uuid("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  bio: text("bio").notNull().default(""),
  location: text("location").notNull().default(""),
  languages: jsonb("languages").$type<string[]>().notNull().default([]),
  occupation: text("occupation").notNull().default(""),
  phoneNumber: text("phone_number").notNull().default(""),
  /** The uploaded picture, re-encoded to a 256 px WebP; in the database so every instance serves it. */
  avatarWebp: bytea("avatar_webp"),
  avatarUpdatedAt: timestamp("avatar_updated_at", { withTimezone: true }),
  createdAt: createdAt(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** A line of an order as it was at checkout (DESIGN section 9): never changes afterwards. */
export interface OrderLineSnapshot {
  productId: string;
  name: string;
  unitPriceCents: number;
  quantity: number;
  addedBy: { _id: string; name: string };
  sharedWith: { _id: string; name: string }[];
  lineTotalCents: number;
}

/**
 * A checked-out cart (DESIGN section 9, "Checkout"): one per session, immutable once placed; only
 * its shares' settlement changes. Names are kept as they were at checkout.
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
  },
  (t) => [index("orders_payee_idx").on(t.payeeId)],
);

/** One member's part of an order and its settlement: unpaid -> paid (by them) -> confirmed (payee). */
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
    status: text("status", { enum: ["unpaid", "paid", "confirmed"] }).notNull(),
    paidAt: timestamp("paid_at", { withTimezone: true }),
    confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
    /** How the payee settled it (set with "confirmed"; null for the payee's own share). */
    settledAs: text("settled_as", { enum: ["transfer", "cash", "written_off"] }),
    /** The checkout mail to this member: it never undoes the order; the payee may resend. */
    mail: text("mail", { enum: ["pending", "sent", "failed"] })
      .notNull()
      .default("pending"),
  },
  (t) => [
    primaryKey({ columns: [t.orderId, t.userId] }),
    index("order_shares_user_idx").on(t.userId),
  ],
);

/**
 * Answers to writes sent with an Idempotency-Key (API.md "Offline and activity"), kept 24 h: the
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

/**
 * The session's activity log (DESIGN section 9, "Activity"): one row per committed change, written
 * in the change's own transaction; append-only (a trigger refuses updates and deletes). The actor's
 * name is kept as it was, so a removed or deleted member's entries still say who.
 */
export const activity = pgTable(
  "activity",
  {
    seq: bigint("seq", { mode: "number" }).generatedAlwaysAsIdentity().primaryKey(),
    sessionId: uuid("session_id")
      .notNull()
      .references(() => sessions.id),
    at: timestamp("at", { withTimezone: true }).notNull(),
    actorId: uuid("actor_id").references(() => users.id),
    actorName: text("actor_name").notNull(),
    type: text("type").notNull(),
    details: jsonb("details").$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [index("activity_session_idx").on(t.sessionId, t.seq)],
);
