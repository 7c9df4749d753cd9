/**
 * The one way to change a session: its fields, its members, its invites and links, its split
 * policy, budgets and ready marks, who shares a cart line, its orders' settlement. The cart's line
 * writes are the exception: `cart_write()` (db/functions) takes the same lock, bumps the version
 * and logs its entry in one SQL call, and the carts service publishes after it.
 *
 * Every write here is the same steps, in this order:
 *   1. a transaction opens;
 *   2. `lock_session()` (db/functions) locks the session's cart row, then its session row (the
 *      order `cart_write()` and checkout take them in, so writes never deadlock), and asks the
 *      gate, `session_gate()`, whether the caller may do the write's action now: the caller's role
 *      against the permissions table, the session active, and the cart open where the action
 *      needs it, all read as they are now. A write waiting behind a checkout, an end or the
 *      caller's removal therefore lands before it or is refused, never after it;
 *   3. the change runs;
 *   4. its activity entries are written and the session's version moves once;
 *   5. the transaction commits;
 *   6. the live events go out, and `activity.created` when an entry was written.
 * A refused or failed change rolls back everything and publishes nothing.
 */
import type { Action, ActivityWrite, GateVerdict, Role } from "@cartner/contract";
import { eq, sql } from "drizzle-orm";
import { executeRows, type Db, type Tx } from "../../../db/client.ts";
import { sessions } from "../../../db/schema.ts";
import type { Clock } from "../../../lib/clock.ts";
import { gateRefusal } from "../../../lib/permissions.ts";
import type { EventBus, Published } from "../../live/index.ts";
import { record } from "./activity.ts";

export type SessionRow = typeof sessions.$inferSelect;

/** One activity entry of a write; the session and the time are the write's. */
export type TypedEntry = ActivityWrite & {
  /** Whose entry it is; the caller by default (an approved requester is the one who joined). */
  actorId?: string;
  /** The cart line it is about: the entry is hidden from whomever the line is. */
  lineId?: string;
  /** Whom it is hidden from when the line is gone by then (else read from the line). */
  hiddenFrom?: string[];
};

/** What a change answers from inside the transaction. */
export interface Changed<R> {
  result: R;
  /** The entry (or entries) the change leaves in the session's log; none only where it says why. */
  activity?: TypedEntry | TypedEntry[] | undefined;
  /**
   * "unchanged" leaves the version alone: the change is one members' views do not show (an
   * invite link, an order's settlement), or there was nothing to do. Otherwise it moves once.
   */
  version?: "unchanged";
  /**
   * Runs after the activity entries are written, in the same transaction, with their seqs: for
   * rows that name the entry explaining them (the ledger's entries).
   */
  afterActivity?: (activitySeqs: number[]) => Promise<void>;
}

export interface WriteContext {
  tx: Tx;
  /** The session as locked (its version not yet moved). */
  session: SessionRow;
  /** The session's cart (every session has one). */
  cartId: string;
  /** The caller's role as it is now; null for a caller who is not a member. */
  role: Role | null;
  /**
   * For a write that is not refused on an ended session (`active: false`): the gate's refusal for
   * the session's state (ended, checked out, closed by the deadline), for the change to throw
   * where its own rules put it; null when the session is open to the action.
   */
  closed: Error | null;
  now: Date;
}

export interface SessionWrite<R> {
  sessionId: string;
  /** Who asks: the actor of the entries unless an entry names another. */
  userId: string;
  /**
   * The permissions table's action the caller's role must allow (404 outside the session, 403 or
   * 409 as the table says). null: the caller need not be a member, and the change checks what it
   * needs: someone joining, an order's payee or sharer (checked by the order service), an
   * account's deletion.
   */
  action: Action | null;
  /** The 404's message for a caller outside the session ("Session not found" by default). */
  notFound?: string;
  /**
   * Whether the gate refuses the write on a session that is not open to its action (ended, or
   * past its deadline where the action needs an open cart): true by default. false for changes
   * that also apply to an ended session, or check it after their own checks (`closed`).
   */
  active?: boolean;
  /** The refusal for an ended session, for a write with no action (409 "This session has ended."). */
  ended?: () => Error;
  change: (ctx: WriteContext) => Promise<Changed<R>>;
  /** The live events after commit, given the change's result, the session after it, its cart. */
  events?: (result: R, session: SessionRow, cartId: string) => Published[];
}

export interface Written<R> {
  result: R;
  /** The session after the write (its new version, unless the change kept it). */
  session: SessionRow;
}

/** What `lock_session()` answers: the gate's verdict and what words a refusal. */
interface Locked {
  verdict: GateVerdict;
  role: Role | null;
  cart_id: string | null;
  order_number: number | null;
  closes_at: Date | string | null;
}

/** Steps 2 to 4 of a write, inside the caller's transaction; answers what to publish after it. */
async function apply<R>(
  tx: Tx,
  write: SessionWrite<R>,
  now: Date,
): Promise<Written<R> & { published: Published[] }> {
  const [locked] = (await executeRows<Locked>(
    tx,
    sql`select * from lock_session(${write.sessionId}::uuid, ${write.userId}::uuid,
      ${write.action}::text, ${now.toISOString()}::timestamptz)`,
  )) as [Locked];
  const refused = gateRefusal(
    {
      verdict: locked.verdict,
      role: locked.role,
      orderNumber: locked.order_number,
      closesAt: locked.closes_at,
    },
    write.action,
    { notFound: write.notFound, ended: write.ended },
  );
  const forRole = locked.verdict === "not_member" || locked.verdict === "role";
  if (refused && (forRole || (write.active ?? true) || !locked.cart_id)) throw refused;
  const [session] = await tx.select().from(sessions).where(eq(sessions.id, write.sessionId));

  const changed = await write.change({
    tx,
    session: session!,
    cartId: locked.cart_id!,
    role: locked.role,
    closed: refused,
    now,
  });

  const entries = [changed.activity ?? []].flat();
  const seqs: number[] = [];
  for (const entry of entries) {
    seqs.push(
      await record(tx, {
        ...entry,
        sessionId: write.sessionId,
        actorId: entry.actorId ?? write.userId,
        at: now,
      }),
    );
  }
  await changed.afterActivity?.(seqs);
  let after = session!;
  if (changed.version !== "unchanged") {
    const [bumped] = await tx
      .update(sessions)
      .set({ version: sql`${sessions.version} + 1`, updatedAt: now })
      .where(eq(sessions.id, write.sessionId))
      .returning();
    after = bumped!;
  } else {
    // The change may have written the session row itself (an end, a new code).
    const [fresh] = await tx.select().from(sessions).where(eq(sessions.id, write.sessionId));
    after = fresh!;
  }
  const published = write.events?.(changed.result, after, locked.cart_id!) ?? [];
  if (entries.length > 0) {
    published.push({
      event: { type: "activity.created", sessionId: write.sessionId },
      members: write.sessionId,
    });
  }
  return { result: changed.result, session: after, published };
}

/**
 * Writes to several sessions in one transaction (an account's deletion): `body` calls `write` for
 * each, in a fixed order (sessions locked one after another by id never deadlock), and may change
 * other tables with `tx`. Everything commits together; then every write's events go out.
 */
export async function writeSessionsTogether<T>(
  db: Db,
  deps: { clock: Clock; events: Pick<EventBus, "publish"> },
  body: (write: <R>(w: SessionWrite<R>) => Promise<Written<R>>, tx: Tx) => Promise<T>,
): Promise<T> {
  const now = deps.clock.now();
  const published: Published[] = [];
  const answer = await db.transaction((tx) =>
    body(async (w) => {
      const done = await apply(tx, w, now);
      published.push(...done.published);
      return { result: done.result, session: done.session };
    }, tx),
  );
  for (const p of published) deps.events.publish(p);
  return answer;
}

/** One write to one session (the steps above); answers its result and the session after it. */
export async function writeSession<R>(
  db: Db,
  deps: { clock: Clock; events: Pick<EventBus, "publish"> },
  write: SessionWrite<R>,
): Promise<Written<R>> {
  return writeSessionsTogether(db, deps, (apply) => apply(write));
}

/** A live event about the session, to its members (and `users`), with its version. */
export function toMembers(
  type: Published["event"]["type"],
  session: SessionRow,
  extra: Omit<Published["event"], "type" | "sessionId"> & { users?: string[] } = {},
): Published {
  const { users, ...details } = extra;
  return {
    event: { type, sessionId: session.id, version: session.version, ...details },
    members: session.id,
    ...(users ? { users } : {}),
  };
}
