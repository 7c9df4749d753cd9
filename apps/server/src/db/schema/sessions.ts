/** Sessions: the session, its members, invites and links, failed joins, the activity log. */
import {
  BUDGET_MODES,
  CHECKOUT_BY,
  INVITE_ROLES,
  INVITE_STATUSES,
  SESSION_PARTICIPANT_OPTIONS,
  SESSION_STATUSES,
  SESSION_ROLES,
  SESSION_TYPES,
  type SplitPolicy,
} from "@cartner/contract";
import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from "drizzle-orm/pg-core";
import { users } from "./accounts.ts";
import { createdAt } from "./columns.ts";

/** A shared shopping session. Budget in integer cents (null: none). */
export const sessions = pgTable(
  "sessions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    type: text("type", { enum: SESSION_TYPES }).notNull(),
    participants: text("participants", { enum: SESSION_PARTICIPANT_OPTIONS }).notNull(),
    status: text("status", { enum: SESSION_STATUSES }).notNull().default("active"),
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
    /** How the cart's cost is split; the contract's DEFAULT_SPLIT_POLICY until the creator changes it. */
    splitPolicy: jsonb("split_policy")
      .$type<SplitPolicy>()
      .notNull()
      .default(sql`'{"mode":"by_adder","weights":{},"fees":"proportional"}'::jsonb`),
    /**
     * Who may check out: "creator", or "members" (every member who pays). Set by the type's
     * preset, changed by the creator; the gate reads it (lock_session()). Sessions from before
     * presets keep "creator", the rule they were made under.
     */
    checkoutBy: text("checkout_by", { enum: CHECKOUT_BY }).notNull().default("creator"),
    /** Members who may approve "ask first" lines besides the creator (members only, by id). */
    approvers: uuid("approvers")
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    endedAt: timestamp("ended_at", { withTimezone: true }),
    /**
     * The series this session carries (all four set, or none): its RRULE value, the IANA time
     * zone it is read in, the DTSTART it counts from (INTERVAL's phase, COUNT), and when the next
     * session starts unless this one is checked out first. The series moves to the next session.
     */
    seriesRule: text("series_rule"),
    seriesTimeZone: text("series_time_zone"),
    seriesAnchor: timestamp("series_anchor", { withTimezone: true }),
    seriesNextAt: timestamp("series_next_at", { withTimezone: true }),
    /** The series' session this one followed; each session is followed at most once. */
    previousSessionId: uuid("previous_session_id").references((): AnyPgColumn => sessions.id, {
      onDelete: "set null",
    }),
  },
  (t) => [
    check("sessions_budget_nonnegative", sql`${t.budgetCents} is null or ${t.budgetCents} >= 0`),
    check("sessions_checkout_by", sql`${t.checkoutBy} in ('creator', 'members')`),
    check(
      "sessions_series_whole",
      sql`(${t.seriesRule} is null) = (${t.seriesTimeZone} is null)
        and (${t.seriesRule} is null) = (${t.seriesAnchor} is null)
        and (${t.seriesRule} is null) = (${t.seriesNextAt} is null)`,
    ),
    uniqueIndex("sessions_previous_session_idx")
      .on(t.previousSessionId)
      .where(sql`${t.previousSessionId} is not null`),
    index("sessions_series_next_idx")
      .on(t.seriesNextAt)
      .where(sql`${t.seriesNextAt} is not null`),
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
    role: text("role", { enum: SESSION_ROLES }).notNull(),
    /** The member's own spending cap, cents (null: none). */
    budgetCents: integer("budget_cents"),
    /** The member's "I'm done" mark. */
    ready: boolean("ready").notNull().default(false),
    /**
     * Their share's total (cents) when they set the mark (null: unmarked, or marked before this
     * column). The mark counts only while their share's total is still this (lib/ready-mark.ts).
     */
    readyTotalCents: integer("ready_total_cents"),
    /** What the budget does when the share passes it: "warn" (as before), or "ask" first. */
    budgetMode: text("budget_mode", { enum: BUDGET_MODES }).notNull().default("warn"),
    /** Marked as a child by the creator. */
    child: boolean("child").notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    check("session_members_budget_mode", sql`${t.budgetMode} in ('warn', 'ask')`),
    primaryKey({ columns: [t.sessionId, t.userId] }),
    // By person and time: the memberships of a period (buy again) without the rest of a history.
    index("session_members_user_created_idx").on(t.userId, t.createdAt),
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
    role: text("role", { enum: INVITE_ROLES }).notNull(),
    invitedBy: uuid("invited_by")
      .notNull()
      .references(() => users.id),
    status: text("status", { enum: INVITE_STATUSES }).notNull().default("pending"),
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
 * A link that makes whoever opens it a member with its role, without approval.
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
    role: text("role", { enum: INVITE_ROLES }).notNull(),
    /** Shows the cart's list without an account; nobody joins with it (role viewer, no uses). */
    lookOnly: boolean("look_only").notNull().default(false),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    /** null for a look-only link, which is never used up. */
    maxUses: integer("max_uses"),
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
    // A look-only link is a viewer's and has no uses; a joining link has a use limit.
    check(
      "invite_links_look_only_shape",
      sql`(${t.lookOnly} and ${t.role} = 'viewer' and ${t.maxUses} is null and ${t.uses} = 0)
        or (not ${t.lookOnly} and ${t.maxUses} is not null)`,
    ),
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

/**
 * The session's activity log: one row per committed change, written
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
    /** The cart line an entry is about (null: none), so a private line's entries hide with it. */
    lineId: uuid("line_id"),
    /**
     * Members who never see the entry: its line's hiddenFrom, kept in step with the line (the one
     * change the append-only trigger lets through).
     */
    hiddenFrom: uuid("hidden_from")
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
  },
  (t) => [index("activity_session_idx").on(t.sessionId, t.seq)],
);
