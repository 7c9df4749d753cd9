/**
 * What notify() reads and writes, for one notice or several at once: their readers (who may hear
 * each, with their names and choices) in one query, and all their in-app rows in one statement. A
 * cart change by one member tells every other member, and on the embedded database every
 * statement waits for the one before it (the cart writes among them), so a statement per reader
 * was what a change cost most (docs/decisions/052-live-fanout.md).
 */
import type { NotificationKind, NotificationPreferences, Role } from "@cartner/contract";
import { sql } from "drizzle-orm";
import { executeRows } from "../../db/client.ts";
import { notifications } from "../../db/schema.ts";
import type { NotificationDeps } from "./deps.ts";
import type { NotifyInput, PerReader } from "./types.ts";

export type Row = typeof notifications.$inferSelect;

/** A reader who may hear a notice, and their choices (null: the defaults). */
export interface Reader {
  id: string;
  name: string;
  email: string;
  prefs: NotificationPreferences | null;
}

export const text = (value: PerReader, userId: string) =>
  typeof value === "function" ? value(userId) : value;

/** Kinds about money: viewers carry no share, so they hear nothing of it. */
const MONEY_KINDS: readonly NotificationKind[] = ["checkout", "payment"];

/**
 * Who of each notice's `userIds` may hear of it: never its actor, nor a deleted account; with a
 * session, only its members now (a pending requester only of their own request, a viewer of
 * nothing about money). With their names and choices; one query for all the notices.
 */
export async function readersOfEach(
  deps: Pick<NotificationDeps, "db">,
  inputs: NotifyInput[],
): Promise<Reader[][]> {
  const asked: Array<{ i: number; sessionId: string | null; userId: string }> = [];
  inputs.forEach((input, i) => {
    for (const userId of new Set(input.userIds)) {
      if (userId !== input.actorId) asked.push({ i, sessionId: input.sessionId ?? null, userId });
    }
  });
  const each: Reader[][] = inputs.map(() => []);
  if (asked.length === 0) return each;
  const rows = await executeRows<Reader & { i: number; role: Role | null }>(
    deps.db,
    sql`select a.i, u.id, u.name, u.email, np.prefs, m.role
      from json_to_recordset(${JSON.stringify(asked)}::json)
        as a(i int, "sessionId" uuid, "userId" uuid)
      join users u on u.id = a."userId" and u.deleted_at is null
      left join session_members m on m.session_id = a."sessionId" and m.user_id = u.id
      left join notification_preferences np on np.user_id = u.id
      order by a.i, u.id`,
  );
  for (const { i, role, ...reader } of rows) {
    const input = inputs[i]!;
    if (input.sessionId) {
      if (!role) continue;
      if (role === "pending" && input.kind !== "membership") continue;
      if (role === "viewer" && MONEY_KINDS.includes(input.kind)) continue;
    }
    each[i]!.push(reader);
  }
  return each;
}

/** One row to store: a notice's texts as its reader reads them. */
function rowOf(input: NotifyInput, userId: string, now: Date) {
  const body = text(input.body, userId);
  const changes = input.changes ?? 1;
  const grouped = input.kind === "changes" && Boolean(input.sessionId);
  return {
    userId,
    kind: input.kind,
    sessionId: input.sessionId ?? null,
    orderId: input.orderId ?? null,
    title: text(input.title, userId),
    // A grouped row that stands for several changes says how many more.
    body: grouped && changes > 1 ? `${body} (+${changes - 1} more)` : body,
    url: text(input.url, userId),
    cartId: input.approval?.cartId ?? null,
    lineId: input.approval?.lineId ?? null,
    count: grouped ? changes : 1,
    createdAt: now,
  };
}

/**
 * Stores the in-app rows of each notice for its `userIds`, answering each notice's rows by reader.
 * Changes by others are one unread row per reader and session: the latest change names itself and
 * counts the rest. All the rows go in one statement, but for a reader told twice of one session's
 * changes here: the second telling goes in the next statement, and counts on from the first.
 */
export async function storeEach(
  deps: Pick<NotificationDeps, "db">,
  wanted: Array<{ input: NotifyInput; userIds: string[] }>,
  now: Date,
): Promise<Array<Map<string, Row>>> {
  const stored = wanted.map(() => new Map<string, Row>());
  const plain: Array<{ i: number; row: ReturnType<typeof rowOf> }> = [];
  const waves: Array<Array<{ i: number; row: ReturnType<typeof rowOf> }>> = [];
  const told = new Map<string, number>();
  wanted.forEach(({ input, userIds }, i) => {
    for (const userId of userIds) {
      const row = rowOf(input, userId, now);
      if (input.kind !== "changes" || !input.sessionId) {
        plain.push({ i, row });
        continue;
      }
      const key = `${userId} ${input.sessionId}`;
      const wave = told.get(key) ?? 0;
      told.set(key, wave + 1);
      (waves[wave] ??= []).push({ i, row });
    }
  });
  for (const wave of waves) {
    const rows = await deps.db
      .insert(notifications)
      .values(wave.map((w) => w.row))
      .onConflictDoUpdate({
        target: [notifications.userId, notifications.sessionId],
        targetWhere: sql`kind = 'changes' and read_at is null`,
        set: {
          title: sql`excluded.title`,
          // The new text without its own "(+n more)", then the count of all the row stands for.
          body: sql`(case when excluded.count > 1
              then left(excluded.body, -length(' (+' || (excluded.count - 1) || ' more)'))
              else excluded.body end)
            || ' (+' || ("notifications"."count" + excluded.count - 1) || ' more)'`,
          url: sql`excluded.url`,
          count: sql`"notifications"."count" + excluded.count`,
          createdAt: sql`excluded.created_at`,
          seq: sql`nextval('notifications_seq_seq')`,
        },
      })
      .returning();
    // A reader is in a wave once per session: their row is the one of their reader and session.
    const byPair = new Map(rows.map((r) => [`${r.userId} ${r.sessionId}`, r]));
    for (const { i, row } of wave) {
      const found = byPair.get(`${row.userId} ${row.sessionId}`);
      if (found) stored[i]!.set(row.userId, found);
    }
  }
  if (plain.length > 0) {
    const rows = await deps.db
      .insert(notifications)
      .values(plain.map((p) => p.row))
      .returning();
    // Rows come back in no set order; rows alike in all but their id are interchangeable.
    const left = [...rows];
    for (const { i, row } of plain) {
      const at = left.findIndex(
        (r) =>
          r.userId === row.userId &&
          r.kind === row.kind &&
          r.sessionId === row.sessionId &&
          r.body === row.body,
      );
      if (at >= 0) stored[i]!.set(row.userId, left.splice(at, 1)[0]!);
    }
  }
  return stored;
}
