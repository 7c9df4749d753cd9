/**
 * The session's activity log, which no call edits or deletes and ending a session keeps: one
 * append-only entry per committed change, written in the change's own transaction. Cart changes
 * write theirs inside `cart_write_core()` (db/functions); every other change uses `entry()` below in
 * its transaction, and its service publishes `activity.created` after commit.
 */
import type { Activity, ActivityWrite } from "@cartner/contract";
import { and, asc, eq, gt, sql, type SQL } from "drizzle-orm";
import { executeRows, type Db, type Tx } from "../../../db/client.ts";
import { activity, users } from "../../../db/schema.ts";
import type { EventBus, Published } from "../../live/index.ts";

/**
 * One entry to write: its type and details (the contract's shapes), whose, where and when, and
 * the cart line it is about (a private line's entries are hidden from the same members).
 */
export type NewEntry = ActivityWrite & {
  sessionId: string;
  actorId: string;
  at: Date;
  lineId?: string | undefined;
  /** Whom it is hidden from, where the line is gone by then (else the line's, as it is now). */
  hiddenFrom?: string[] | undefined;
};

/**
 * The insert of one entry, with the actor's name as it is now (kept when it changes later) and,
 * for an entry about a line, the line's hiddenFrom as it is now (kept in step when it changes).
 */
export function entry(e: NewEntry): SQL {
  const lineId = e.lineId ?? null;
  const given = e.hiddenFrom ? `{${e.hiddenFrom.join(",")}}` : null;
  return sql`insert into ${activity} (session_id, at, actor_id, actor_name, type, details, line_id, hidden_from)
    select ${e.sessionId}, ${e.at}, ${users.id}, ${users.name}, ${e.type}, ${JSON.stringify(e.details ?? {})}::jsonb,
      ${lineId}::uuid, coalesce(${given}::uuid[],
        (select l.hidden_from from cart_lines l where l.id = ${lineId}::uuid), '{}')
    from ${users} where ${users.id} = ${e.actorId}`;
}

/** Writes one entry inside the caller's transaction; answers its seq. */
export async function record(tx: Db | Tx, e: NewEntry): Promise<number> {
  const [row] = await executeRows<{ seq: string | number }>(tx, sql`${entry(e)} returning seq`);
  return Number(row!.seq);
}

/**
 * After commit: members refetch the feed. `to`: whom it names (a cart line write names the
 * members its statement read), else the session's members when it is delivered.
 */
export function announceActivity(
  events: Pick<EventBus, "publish">,
  sessionId: string,
  to: Pick<Published, "users" | "members"> = { members: sessionId },
): void {
  events.publish({ event: { type: "activity.created", sessionId }, ...to });
}

/**
 * An entry's details as `readerId` may see them. A cleared cart's counts keep its private lines
 * apart (`hidden`: whom each was hidden from, its units): those hidden from the reader are taken
 * out of the reader's counts, and the list itself is shown to no one.
 */
export function detailsAsSeenBy(type: string, details: unknown, readerId: string): object {
  const d = (details ?? {}) as Record<string, unknown>;
  if (type !== "cart.cleared" || !Array.isArray(d.hidden)) return d;
  const { hidden, lines, items, ...rest } = d as {
    hidden: { from: string[]; units: number }[];
    lines: number;
    items: number;
  };
  const unseen = hidden.filter((h) => h.from.includes(readerId));
  return {
    ...rest,
    lines: lines - unseen.length,
    items: items - unseen.reduce((sum, h) => sum + h.units, 0),
  };
}

/**
 * Entries after `after`, oldest first, as `readerId` sees them: none about a line hidden from
 * them (the caller checked the reader is a member).
 */
export async function listActivity(
  db: Db,
  sessionId: string,
  readerId: string,
  after: number,
  limit: number,
): Promise<{ events: Activity[]; nextSeq: number }> {
  const rows = await db
    .select()
    .from(activity)
    .where(
      and(
        eq(activity.sessionId, sessionId),
        gt(activity.seq, after),
        sql`not (${readerId}::uuid = any(${activity.hiddenFrom}))`,
      ),
    )
    .orderBy(asc(activity.seq))
    .limit(limit);
  // Each row's details are its type's, as the contract shapes them: every entry is written
  // through those types (record() here, cart_write_core() in SQL), and the activity tests parse
  // what the server writes with the contract's ActivityEntrySchema.
  const events = rows.map(
    (r) =>
      ({
        ...detailsAsSeenBy(r.type, r.details, readerId),
        seq: Number(r.seq),
        at: r.at.toISOString(),
        actor: { _id: r.actorId ?? "", name: r.actorName },
        type: r.type,
      }) as Activity,
  );
  return { events, nextSeq: events.at(-1)?.seq ?? after };
}
