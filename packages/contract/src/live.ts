import { z } from "zod";
import { LookViewSchema } from "./sessions.ts";

/** GET /api/live: the first message a client sends, with the token (never in the URL). */
export const LiveAuthMessageSchema = z.strictObject({
  type: z.literal("auth"),
  token: z.string().min(1).max(4096),
});
export type LiveAuthMessage = z.infer<typeof LiveAuthMessageSchema>;

export const LIVE_EVENT_TYPES = [
  "cart.updated",
  "session.updated",
  "session.ended",
  "member.joined",
  "member.left",
  "member.removed",
  "invite.received",
  "joinrequest.created",
  "order.placed",
  "order.updated",
  "activity.created",
  "notification.created",
  /** A series' next session started: to its members, naming it and the one it follows. */
  "session.started",
  /**
   * Products of the catalog changed (price, availability, stock): to the members of every active
   * cart holding one of them, naming those it holds.
   */
  "catalog.updated",
  /**
   * A line waits for approval (line.pending), was approved, or was declined (and went): to its
   * adder, the creator and the approvers, naming the line (`lineId`) and the cart.
   */
  "line.pending",
  "line.approved",
  "line.declined",
] as const;
export type LiveEventType = (typeof LIVE_EVENT_TYPES)[number];

/** How a join request ended: the creator approved or rejected it, or its requester withdrew it. */
export const JOIN_REQUEST_OUTCOMES = ["approved", "rejected", "withdrawn"] as const;
export type JoinRequestOutcome = (typeof JOIN_REQUEST_OUTCOMES)[number];

/** What the server pushes after a committed change; clients refetch what it names. */
export const LiveEventSchema = z.object({
  type: z.enum(LIVE_EVENT_TYPES),
  sessionId: z.string().optional(),
  cartId: z.string().optional(),
  /**
   * member.removed: who was removed (that member's pages lose access and say so); member.joined
   * and member.left that end a join request: its requester.
   */
  userId: z.string().optional(),
  /** member.joined, member.left: how a join request ended, so the requester's pages can say. */
  joinRequest: z.enum(JOIN_REQUEST_OUTCOMES).optional(),
  /** notification.created: the reader's new (or regrouped) notification. */
  notificationId: z.string().optional(),
  /** order.placed, order.updated: the order to refetch. */
  orderId: z.string().optional(),
  /** session.started: the session the new one follows. */
  fromSessionId: z.string().optional(),
  /** line.pending, line.approved, line.declined: the line. */
  lineId: z.string().optional(),
  /** line.approved, line.declined: the approver's message, if any. */
  message: z.string().optional(),
  /** catalog.updated: the changed products the cart holds. */
  productIds: z.array(z.string()).optional(),
  /** The session's version after the change (clients skip events older than what they hold). */
  version: z.number().int().optional(),
});
export type LiveEvent = z.infer<typeof LiveEventSchema>;

/**
 * What a look-only socket (GET /api/live?look={token}) hears: the list as the link shows it after
 * each change of the cart, never the members' events.
 */
export const LiveLookMessageSchema = z.object({
  type: z.literal("look.view"),
  view: LookViewSchema,
});
export type LiveLookMessage = z.infer<typeof LiveLookMessageSchema>;

export const LiveServerMessageSchema = z.union([
  z.object({ type: z.literal("ready") }),
  LiveEventSchema,
  LiveLookMessageSchema,
]);
export type LiveServerMessage = z.infer<typeof LiveServerMessageSchema>;

/** Close codes of the live socket. */
export const LiveClose = {
  /** Missing, wrong, expired or revoked token (also: no auth message within 5 s). */
  UNAUTHORIZED: 4401,
  /** Signed in, but no longer a member of a session this socket was told about. */
  MEMBERSHIP_LOST: 4403,
  /**
   * Too many sockets: this account has LIVE_MAX_SOCKETS_PER_USER open, or this address has that
   * many waiting to sign in. Clients do not reconnect; they fall back to the 5 s sync.
   */
  TOO_MANY: 4429,
  /**
   * A look-only socket's link no longer works: revoked, expired, or its session ended. Clients do
   * not reconnect; they say the link no longer works.
   */
  LINK_GONE: 4404,
  /** Too many or malformed messages. */
  POLICY: 1008,
  /** The server may have missed events (restart, lost database connection): reconnect, refetch. */
  RESYNC: 1012,
  /**
   * This instance is shutting down (a rolling restart, a scale-down; SIGTERM): every socket gets
   * it, signed in or not. Clients reconnect at once, spread over LIVE_MOVE_JITTER_MS (the load
   * balancer sends them to another instance), without saying offline, then refetch what they show.
   */
  GOING_AWAY: 1001,
} as const;

/** After GOING_AWAY a client reconnects within this, at a random moment, so they do not all at once. */
export const LIVE_MOVE_JITTER_MS = 1_000;

/** Open live sockets one account may have at once (tabs and devices together). */
export const LIVE_MAX_SOCKETS_PER_USER = 20;
/** Sockets one client address may have open before they have signed in. */
export const LIVE_MAX_PENDING_PER_ADDRESS = 20;

/** The client must authenticate within this time after connecting. */
export const LIVE_AUTH_TIMEOUT_MS = 5_000;
