/** Accounts: users, their signed-in devices, one-time codes and profiles. */
import { OTP_PURPOSES, type AccountRole } from "@cartner/contract";
import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";
import { bytea, createdAt } from "./columns.ts";

export const users = pgTable(
  "users",
  {
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
    /**
     * The IANA time zone every time sent to the person is stated in (mails, notifications, pushes,
     * receipts; decision 040). Taken from the browser at sign-in until the person chooses one.
     */
    timeZone: text("time_zone").notNull().default("UTC"),
    /** The person chose the zone in their profile: a sign-in no longer sets it from the browser. */
    timeZoneChosen: boolean("time_zone_chosen").notNull().default(false),
    /**
     * The account's roles across the deployment ("operator" runs the catalog), given and taken by
     * `npm run operator -- grant|revoke EMAIL`; none for everyone else.
     */
    roles: text("roles")
      .array()
      .$type<AccountRole[]>()
      .notNull()
      .default(sql`'{}'::text[]`),
  },
  (t) => [
    // The contract's ACCOUNT_ROLES; a new role is a migration.
    check("users_roles_known", sql`${t.roles} <@ array['operator']::text[]`),
  ],
);

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
    purpose: text("purpose", { enum: OTP_PURPOSES }).notNull(),
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
