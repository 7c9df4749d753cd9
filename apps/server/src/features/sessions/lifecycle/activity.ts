/**
 * The session's activity log, which no call edits or deletes and ending a session keeps: one
 * append-only entry per committed change, written in the change's own transaction. Cart changes
 * write theirs inside `cart_write_core()` (db/functions); every other change uses `entry()` below in
 * its transaction, and its service publishes `activity.created` after commit.
 */
import {
  ActivityResponseSchema,
  type Activity,
  type ActivityWrite,
  type Role,
} from "@cartner/contract";
import { and, asc, inArray, sql, type SQL } from "drizzle-orm";
import { executeRows, lightRows, type Db, type Tx } from "../../../db/client.ts";
import type { SessionDeps } from "../deps.ts";
import { activity, sessionMembers, users } from "../../../db/schema.ts";
import type { EncodableBody } from "../../../lib/encoded-body.ts";
import { keptAnswer } from "../../../lib/kept-answers.ts";
import { requireAllowed } from "../../../lib/permissions.ts";
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
 * Entries after `after`, oldest first, as `readerId` sees them, as the JSON answer: none about a
 * line hidden from them, and 404 unless they are a member (the permissions table's
 * `session.read`). One light query reads the reader's role and the entries' seqs; the answer is
 * kept per reader and query (lib/kept-answers.ts) with the seqs it was made of. An entry never
 * changes but for whom it is hidden from, which the query's filter reads: the same seqs, the same
 * answer.
 */
export async function activityAnswer(
  deps: Pick<SessionDeps, "db" | "light">,
  sessionId: string,
  readerId: string,
  after: number,
  limit: number,
): Promise<EncodableBody> {
  const { db } = deps;
  const [found] = await lightRows<{ role: Role; seqs: string }>(
    deps,
    sql`select m.role, (select coalesce(string_agg(a.seq::text, ',' order by a.seq), '')
        from (select seq from ${activity}
          where session_id = m.session_id and seq > ${after}
            and not (${readerId}::uuid = any(hidden_from))
          order by seq limit ${limit}) a) as seqs
      from ${sessionMembers} m where m.session_id = ${sessionId} and m.user_id = ${readerId}`,
  );
  requireAllowed(found?.role, "session.read", "Session not found");
  const seqs = found!.seqs;
  const key = `${readerId} ${sessionId} ${after} ${limit}`;
  return keptAnswer(db, "activity_pages", key, seqs, async () => {
    const rows = seqs
      ? await db
          .select()
          .from(activity)
          .where(
            and(
              inArray(activity.seq, seqs.split(",").map(Number)),
              sql`not (${readerId}::uuid = any(${activity.hiddenFrom}))`,
            ),
          )
          .orderBy(asc(activity.seq))
      : [];
    // Each row's details are its type's, as the contract shapes them: every entry is written
    // through those types (record() here, cart_write_core() in SQL), and the answer is checked
    // against the contract's schema once, here.
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
    const nextSeq = events.at(-1)?.seq ?? after;
    return JSON.stringify(ActivityResponseSchema.encode({ events, nextSeq }));
  });
}
