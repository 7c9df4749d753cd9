/**
 * The session's activity log: one entry per committed change, who did what and when. Each entry
 * is one of the shapes below, told apart by its `type`; the type's details sit beside the common
 * fields (`seq`, `at`, `actor`, `type`). The server writes its entries through these types, a
 * server test parses every entry its flows write with `ActivityEntrySchema`, and the web words
 * an entry by narrowing on `type`.
 */
import { z } from "zod";
import { BUDGET_MODES, FEE_MODES, SPLIT_MODES } from "./presets.ts";
import { ADJUSTMENT_KINDS } from "./adjust.ts";
import { SettlementKindSchema } from "./orders.ts";
import { DROPPED_REASONS } from "./series.ts";
import { InviteRoleSchema } from "./sessions.ts";

export const ACTIVITY_TYPES = [
  "item.added",
  "item.quantity",
  "item.removed",
  "item.restored",
  "item.approved",
  "item.declined",
  "item.shared",
  "item.given",
  "cart.cleared",
  "member.joined",
  "member.left",
  "member.removed",
  "member.role",
  "session.updated",
  "split.policy",
  "order.placed",
  "order.paid",
  "order.confirmed",
  "order.adjusted",
  "order.disputed",
  "order.revealed",
  "order.payers",
  "order.transfer",
  "item.staple",
  "item.edited",
  "series.updated",
  "series.started",
  "series.continued",
  "deadline.set",
  "deadline.cleared",
  "deadline.locked",
  "deadline.reopened",
  "deadline.checkout_skipped",
] as const;
export type ActivityType = (typeof ACTIVITY_TYPES)[number];

const common = {
  seq: z.number().int(),
  at: z.string(),
  /** The actor's name as it was when the entry was written. */
  actor: z.strictObject({ _id: z.string(), name: z.string() }),
};

/** One shape of entry: the common fields, the type, and its details, nothing else. */
const entry = <T extends ActivityType, D extends z.ZodRawShape>(type: T, details: D) =>
  z.strictObject({ ...common, type: z.literal(type), ...details });

/** A line's product, by id and by its name when the entry was written; a free line's id is null. */
const product = { productId: z.string().nullable(), product: z.string() };
const count = z.number().int();
const money = z.number();
/** The member a change was about: their name then, and their id. */
const member = { member: z.string(), memberId: z.string() };
/** A line's quantity after the change, and whose line it is (its adder's name). */
const line = { ...product, quantity: count, lineOf: z.string() };
/** Why a change was made for someone: their account was deleted. */
const accountDeleted = z.literal("account_deleted");
/** Why a line went without its adder removing it: the account was deleted, or they left the session. */
const lineGoneWith = z.enum(["account_deleted", "member_left"]);
const order = { orderId: z.string(), number: z.string() };

/** The session fields an edit names: what changed, never a new code or passcode itself. */
export const SESSION_FIELDS = [
  "sessionName",
  "sessionType",
  "participants",
  "passcode",
  "budget",
  "code",
  "splitMode",
  "fees",
  "checkoutBy",
  "approvers",
] as const;
export type SessionField = (typeof SESSION_FIELDS)[number];

export const ActivityEntrySchema = z.union([
  /** `pending`: the line now waits for approval (its adder's budget asks first). */
  entry("item.added", { ...product, quantity: count, pending: z.literal(true).optional() }),
  entry("item.quantity", {
    ...line,
    change: z.union([z.literal(1), z.literal(-1)]),
    pending: z.literal(true).optional(),
  }),
  /** A line that waited for approval was approved (it counts now) or declined (it went). */
  entry("item.approved", { ...line, message: z.string().optional() }),
  entry("item.declined", { ...line, message: z.string().optional() }),
  /**
   * `reason`: the line went with its adder, whose account was deleted or who left or was removed
   * from the session (then the actor is the one who chose to remove it).
   */
  entry("item.removed", { ...line, reason: lineGoneWith.optional() }),
  entry("item.restored", line),
  /** `with`: the sharers' names; empty when the line went back to the session's policy. */
  entry("item.shared", { ...product, with: z.array(z.string()) }),
  /**
   * A member who left (or was removed) gave their line to `to`, its adder from now on. `pending`:
   * the line it became waits for approval (it waited, or joined a line of `to`'s that waits).
   */
  entry("item.given", {
    ...line,
    to: z.string(),
    toId: z.string(),
    pending: z.literal(true).optional(),
  }),
  entry("cart.cleared", { lines: count, items: count }),
  /** A join request approved: the entry is the new member's, `approvedBy` the creator's id. */
  entry("member.joined", { approvedBy: z.string() }),
  /** An invite by email or an invite link accepted. */
  entry("member.joined", { role: InviteRoleSchema, via: z.enum(["invite", "link"]) }),
  entry("member.left", {}),
  entry("member.removed", member),
  /** A role change ("creator": the session handed over), with the budget when both changed. */
  entry("member.role", {
    ...member,
    role: z.enum(["creator", "participant", "viewer"]),
    budget: money.nullable().optional(),
  }),
  /** The session edited, or a new code drawn (`changed` names the fields). */
  entry("session.updated", {
    changed: z.array(z.enum(SESSION_FIELDS)),
    sessionName: z.string().optional(),
    budget: money.nullable().optional(),
  }),
  entry("session.updated", { status: z.literal("ended") }),
  /** The actor's "I'm done" mark set or cleared. */
  entry("session.updated", { ready: z.boolean() }),
  /** A member's budget (null: none). */
  entry("session.updated", { ...member, budget: money.nullable() }),
  /** A member's budget mode or child mark (the creator's), with the budget when it came too. */
  entry("session.updated", {
    ...member,
    budget: money.nullable().optional(),
    budgetMode: z.enum(BUDGET_MODES).optional(),
    child: z.boolean().optional(),
  }),
  entry("split.policy", { mode: z.enum(SPLIT_MODES), fees: z.enum(FEE_MODES) }),
  /**
   * `automatic`: placed at the deadline, as the creator had chosen (the entry is the creator's).
   * `payers`: who paid the shop, when named at checkout (absent: the payee paid it all).
   */
  entry("order.placed", {
    ...order,
    total: money,
    automatic: z.literal(true).optional(),
    payers: z.array(z.strictObject({ name: z.string(), amount: money })).optional(),
  }),
  entry("order.paid", { ...order, amount: money }),
  /**
   * The payee settled a member's share; `how` is missing on entries written before settlements
   * said how (a confirmed transfer). `reason`: written off because the payee's account was deleted.
   */
  entry("order.confirmed", {
    ...order,
    ...member,
    amount: money,
    how: SettlementKindSchema.optional(),
    reason: accountDeleted.optional(),
  }),
  /**
   * The payee recorded an adjustment: its kind, the line's name at checkout (`line`, absent for an
   * order-level one), and the order's total before and after the re-split.
   */
  entry("order.adjusted", {
    ...order,
    adjustmentId: z.string(),
    kind: z.enum(ADJUSTMENT_KINDS),
    line: z.string().optional(),
    from: money,
    to: money,
  }),
  /** A member disputed an adjustment, with their comment. */
  entry("order.disputed", {
    ...order,
    adjustmentId: z.string(),
    kind: z.enum(ADJUSTMENT_KINDS),
    comment: z.string(),
  }),
  /** The payee showed the order's private lines to every member (`count`: how many). */
  entry("order.revealed", { ...order, count: z.number().int() }),
  /** The payee said who paid the shop and how much (the shares are owed to them in proportion). */
  entry("order.payers", {
    ...order,
    payers: z.array(z.strictObject({ name: z.string(), amount: money })),
  }),
  /** The actor recorded a transfer to `to` that settled their part of this order's share. */
  entry("order.transfer", { ...order, to: z.string(), toId: z.string(), amount: money }),
  /** A line marked (or no longer) to be carried into the series' next session. */
  entry("item.staple", { ...product, staple: z.boolean(), lineOf: z.string() }),
  /** A line's note or substitute changed (a free line's name or estimate too): which of them. */
  entry("item.edited", {
    ...product,
    lineOf: z.string(),
    fields: z.array(z.enum(["note", "substitute", "name", "estimatedPrice"])),
  }),
  /** The session made to repeat on a rule (or the rule changed), with its next start. */
  entry("series.updated", { rule: z.string(), timeZone: z.string(), nextAt: z.string() }),
  /** The series ended: no next session starts. */
  entry("series.updated", { ended: z.literal(true) }),
  /**
   * This session started as the series' next one, after `fromSessionId`; `dropped`: the staple
   * lines not carried, by product name and why.
   */
  entry("series.started", {
    fromSessionId: z.string(),
    dropped: z.array(z.strictObject({ name: z.string(), reason: z.enum(DROPPED_REASONS) })),
  }),
  /** The series moved on to its next session, `sessionId`. */
  entry("series.continued", { sessionId: z.string() }),
  /**
   * A deadline set or moved (`previousClosesAt`: the one it replaced, null when there was none).
   * Times are ISO 8601 instants; each reader shows them in their own time zone.
   */
  entry("deadline.set", {
    closesAt: z.string(),
    remindAt: z.array(count),
    autoCheckout: z.boolean(),
    previousClosesAt: z.string().nullable(),
  }),
  /** The deadline removed: the cart stays open. */
  entry("deadline.cleared", { closesAt: z.string() }),
  /** The cart closed at its deadline (written by the server, as the creator's entry). */
  entry("deadline.locked", { closesAt: z.string(), autoCheckout: z.boolean() }),
  /** A closed cart opened again until a new deadline. */
  entry("deadline.reopened", { closesAt: z.string(), previousClosesAt: z.string() }),
  /**
   * The automatic checkout at the deadline did not happen: the cart was empty. `private_lines` is
   * on entries written while an order could not keep a line private (checkout now keeps them).
   */
  entry("deadline.checkout_skipped", {
    closesAt: z.string(),
    reason: z.enum(["empty_cart", "private_lines"]),
  }),
]);
/** One activity entry; narrow on `type` to read its details. */
export type ActivityEntry = z.infer<typeof ActivityEntrySchema>;
/** The same entry: the name the rest of the code reads. */
export type Activity = ActivityEntry;

type Common = "seq" | "at" | "actor" | "type";
/** The details of an entry of type T (each shape of it, when it has several). */
export type ActivityDetails<T extends ActivityType> =
  Extract<ActivityEntry, { type: T }> extends infer E
    ? E extends unknown
      ? Omit<E, Common>
      : never
    : never;

/** An entry as a change writes it: its type and its details (none for a type that has none). */
export type ActivityWrite = {
  [T in ActivityType]: { type: T } & (Record<string, never> extends ActivityDetails<T>
    ? { details?: ActivityDetails<T> }
    : { details: ActivityDetails<T> });
}[ActivityType];

/**
 * An entry as GET /api/sessions/:id/activity sends it: each stored entry as it was written, its
 * details passed through whatever they are (an entry written by an older server included). Its
 * type is `ActivityEntry`: the server writes only those shapes, which its tests check.
 */
export const ActivitySchema = z
  .object({
    ...common,
    actor: z.object({ _id: z.string(), name: z.string() }),
    type: z.enum(ACTIVITY_TYPES),
  })
  .catchall(z.unknown()) as unknown as z.ZodType<ActivityEntry, ActivityEntry>;

export const ActivityQuerySchema = z.strictObject({
  after: z.coerce
    .number("after is a number")
    .int("after is a whole number")
    .min(0, "after is 0 or more")
    .default(0),
  limit: z.coerce
    .number("limit is a number")
    .int("limit is a whole number")
    .min(1, "limit is 1 to 200")
    .max(200, "limit is 1 to 200")
    .default(50),
});
export const ActivityResponseSchema = z.object({
  events: z.array(ActivitySchema),
  /** Pass as `after` for the next page (the last entry's seq, or `after` when none came). */
  nextSeq: z.number().int(),
});
