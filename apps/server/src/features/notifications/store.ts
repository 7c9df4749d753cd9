/**
 * What notify() reads and writes for one notice: its readers (who may hear it, with their names
 * and choices) in one query, and the in-app rows of all of them in one statement per distinct
 * text. A cart change by one member tells every other member, and on the embedded database every
 * statement waits for the one before it (the live deliveries' reads among them), so a statement
 * per reader was what a change cost most (docs/decisions/052-live-fanout.md).
 */
import type { NotificationKind, NotificationPreferences } from "@cartner/contract";
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { notificationPreferences, notifications, sessionMembers, users } from "../../db/schema.ts";
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
 * Who of `input.userIds` may hear of it: never the actor, nor a deleted account; with a session,
 * only its members now (a pending requester only of their own request, a viewer of nothing about
 * money). With their names and choices, read in one query.
 */
export async function readersOf(
  deps: Pick<NotificationDeps, "db">,
  input: NotifyInput,
): Promise<Reader[]> {
  const ids = [...new Set(input.userIds)].filter((id) => id !== input.actorId);
  if (ids.length === 0) return [];
  const sessionId = input.sessionId;
  const rows = await deps.db
    .select({
      id: users.id,
      name: users.name,
      email: users.email,
      prefs: notificationPreferences.prefs,
      role: sessionId
        ? sql<
            string | null
          >`(select ${sessionMembers.role} from ${sessionMembers} where ${sessionMembers.sessionId} = ${sessionId} and ${sessionMembers.userId} = ${users.id})`
        : sql<null>`null`,
    })
    .from(users)
    .leftJoin(notificationPreferences, eq(notificationPreferences.userId, users.id))
    .where(and(inArray(users.id, ids), isNull(users.deletedAt)));
  return rows
    .filter(({ role }) => {
      if (!sessionId) return true;
      if (!role) return false;
      if (role === "pending") return input.kind === "membership";
      if (role === "viewer") return !MONEY_KINDS.includes(input.kind);
      return true;
    })
    .map(({ id, name, email, prefs }) => ({ id, name, email, prefs }));
}

/**
 * Stores the in-app notification of each of `userIds`, answering each one's row. The readers whose
 * texts are the same go in one statement. Changes by others are one unread row per reader and
 * session: the latest change names itself and counts the rest.
 */
export async function storeAll(
  deps: Pick<NotificationDeps, "db">,
  input: NotifyInput,
  userIds: string[],
  now: Date,
): Promise<Map<string, Row>> {
  const groups = new Map<string, { title: string; body: string; url: string; ids: string[] }>();
  for (const userId of userIds) {
    const texts = {
      title: text(input.title, userId),
      body: text(input.body, userId),
      url: text(input.url, userId),
    };
    const key = JSON.stringify([texts.title, texts.body, texts.url]);
    const group = groups.get(key) ?? { ...texts, ids: [] };
    group.ids.push(userId);
    groups.set(key, group);
  }
  const stored = new Map<string, Row>();
  for (const { title, body, url, ids } of groups.values()) {
    const valuesOf = (userId: string) => ({
      userId,
      kind: input.kind,
      sessionId: input.sessionId ?? null,
      orderId: input.orderId ?? null,
      title,
      body,
      url,
      cartId: input.approval?.cartId ?? null,
      lineId: input.approval?.lineId ?? null,
      createdAt: now,
    });
    let rows: Row[];
    if (input.kind === "changes" && input.sessionId) {
      const changes = input.changes ?? 1;
      rows = await deps.db
        .insert(notifications)
        .values(
          ids.map((userId) => ({
            ...valuesOf(userId),
            count: changes,
            body: changes > 1 ? `${body} (+${changes - 1} more)` : body,
          })),
        )
        .onConflictDoUpdate({
          target: [notifications.userId, notifications.sessionId],
          targetWhere: sql`kind = 'changes' and read_at is null`,
          set: {
            title: sql`excluded.title`,
            body: sql`${body}::text || ' (+' || ("notifications"."count" + ${changes - 1}::int) || ' more)'`,
            url: sql`excluded.url`,
            count: sql`"notifications"."count" + ${changes}`,
            createdAt: sql`excluded.created_at`,
            seq: sql`nextval('notifications_seq_seq')`,
          },
        })
        .returning();
    } else {
      rows = await deps.db.insert(notifications).values(ids.map(valuesOf)).returning();
    }
    for (const row of rows) stored.set(row.userId, row);
  }
  return stored;
}
