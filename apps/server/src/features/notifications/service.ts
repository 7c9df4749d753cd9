/**
 * notify(): the one way the app tells people something. It drops whoever must not hear it (the
 * actor, anyone no longer in the session, viewers for money, pending requesters but for their own
 * request), stores the in-app notification by each reader's choices (changes by others grouped
 * per reader and session until read), tells the reader's live sockets, and hands push and email
 * to their channels when chosen (their jobs wait out the reader's quiet hours: quiet-hours.ts).
 * The reader's own list, their choices.
 */
import {
  DEFAULT_NOTIFICATION_PREFERENCES,
  NotificationsResponseSchema,
  type MarkReadBody,
  type Notification,
  type NotificationPreferences,
} from "@cartner/contract";
import { and, count, desc, eq, inArray, isNull, sql, type SQL } from "drizzle-orm";
import crypto from "node:crypto";
import { lightRows } from "../../db/client.ts";
import { cartLines, notificationPreferences, notifications } from "../../db/schema.ts";
import type { EncodableBody } from "../../lib/encoded-body.ts";
import { keptAnswer } from "../../lib/kept-answers.ts";
import type { NotificationDeps } from "./deps.ts";
import { readersOfEach, storeEach, text, type Reader, type Row } from "./store.ts";
import type { Channel, NotifyInput, OutgoingNotice } from "./types.ts";

/**
 * The contract's notification of a stored row; `waiting`: whether the line a request for
 * approval is about still waits (read with the row: the list's join).
 */
const toNotification = (row: Row, waiting: boolean): Notification => ({
  _id: row.id,
  kind: row.kind,
  ...(row.sessionId ? { sessionId: row.sessionId } : {}),
  ...(row.orderId ? { orderId: row.orderId } : {}),
  title: row.title,
  body: row.body,
  url: row.url,
  createdAt: row.createdAt.toISOString(),
  readAt: row.readAt?.toISOString() ?? null,
  approval: row.cartId && row.lineId ? { cartId: row.cartId, lineId: row.lineId, waiting } : null,
});

async function preferencesOf(
  deps: Pick<NotificationDeps, "db">,
  userIds: string[],
): Promise<Map<string, NotificationPreferences>> {
  const rows =
    userIds.length === 0
      ? []
      : await deps.db
          .select()
          .from(notificationPreferences)
          .where(inArray(notificationPreferences.userId, userIds));
  return new Map(rows.map((r) => [r.userId, r.prefs]));
}

async function deliver(
  deps: NotificationDeps,
  channel: Channel | undefined,
  notice: OutgoingNotice,
  name: string,
) {
  if (!channel) return;
  try {
    await channel.deliver(notice);
  } catch (error) {
    deps.log.warn({ err: error, channel: name }, "notifications: a channel failed to deliver");
  }
}

/**
 * Tells each reader of `input` what happened, on the channels they chose; answers how many. The
 * readers and their choices are one read, and the in-app rows one statement (store.ts).
 */
export async function notify(deps: NotificationDeps, input: NotifyInput): Promise<number> {
  return (await notifyEach(deps, [input]))[0]!;
}

/**
 * notify() of several notices at once (the cart changes told together, feeds.ts): one read of
 * all their readers, one statement for all their rows; answers how many heard of each.
 */
export async function notifyEach(deps: NotificationDeps, inputs: NotifyInput[]): Promise<number[]> {
  const readers = await readersOfEach(deps, inputs);
  if (readers.every((people) => people.length === 0)) return inputs.map(() => 0);
  const now = deps.clock.now();
  const choiceOf = (input: NotifyInput, person: Reader) =>
    (person.prefs ?? DEFAULT_NOTIFICATION_PREFERENCES).kinds[input.kind];
  const stored = await storeEach(
    deps,
    inputs.map((input, i) => ({
      input,
      userIds: readers[i]!.filter((p) => choiceOf(input, p).inApp).map((p) => p.id),
    })),
    now,
  );
  for (const [i, input] of inputs.entries()) {
    for (const person of readers[i]!) {
      const choice = choiceOf(input, person);
      const row = stored[i]!.get(person.id);
      let notification: Notification;
      if (row) {
        // A request for approval is told as it is asked: its line waits.
        notification = toNotification(row, true);
        deps.events.publish({
          event: { type: "notification.created", notificationId: row.id },
          users: [person.id],
        });
      } else {
        notification = {
          _id: crypto.randomUUID(),
          kind: input.kind,
          ...(input.sessionId ? { sessionId: input.sessionId } : {}),
          ...(input.orderId ? { orderId: input.orderId } : {}),
          title: text(input.title, person.id),
          body: text(input.body, person.id),
          url: text(input.url, person.id),
          createdAt: now.toISOString(),
          readAt: null,
          approval: input.approval ? { ...input.approval, waiting: true } : null,
        };
      }
      if (choice.push || choice.email) {
        const notice = {
          user: { id: person.id, name: person.name, email: person.email },
          notification,
          expiresAt: input.expiresAt?.toISOString(),
        };
        if (choice.push) await deliver(deps, deps.channels.push, notice, "push");
        if (choice.email) await deliver(deps, deps.channels.email, notice, "email");
      }
    }
  }
  return readers.map((people) => people.length);
}

/**
 * Work after the caller's answer: tracked (shutdown and tests wait for it), and a failure (the
 * database gone meanwhile) is only logged: the change it follows is committed either way.
 */
export function afterAnswer(
  deps: Pick<NotificationDeps, "log" | "track">,
  job: Promise<unknown>,
): void {
  const settled = job.catch((error: unknown) =>
    deps.log.warn({ err: error }, "notifications: a notice could not be sent"),
  );
  deps.track?.(settled);
}

/** notify() after the caller's answer. */
export function later(deps: NotificationDeps, input: NotifyInput): void {
  afterAnswer(deps, notify(deps, input));
}

/** How many of the reader's notifications are unread. */
export async function unreadOf(
  deps: Pick<NotificationDeps, "db">,
  userId: string,
): Promise<number> {
  const [row] = await deps.db
    .select({ n: count() })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
  return Number(row?.n ?? 0);
}

/**
 * The reader's notifications, newest first (`after`: those older than that one of theirs), and
 * their unread count, as the JSON answer. One light query reads what an answer changes with: the
 * count, and per row its id, its seq (a regrouped row takes a new one with its new text), whether
 * it is read (read once, for good), its line and whether that line still waits. The answer is
 * kept per reader and query (lib/kept-answers.ts) while that reads the same; else the rows are
 * read whole, a request for approval joined to its line by the line's key.
 */
export async function notificationsAnswer(
  deps: Pick<NotificationDeps, "db" | "light">,
  userId: string,
  query: { after?: string | undefined; limit: number },
): Promise<EncodableBody> {
  // Those older than `after` (a ranking of the reader's own rows), on both queries.
  const older = (createdAt: SQL, seq: SQL) =>
    query.after
      ? sql`(${createdAt}, ${seq}) < (select created_at, seq from ${notifications}
          where id = ${query.after} and user_id = ${userId})`
      : sql`true`;
  const [found] = await lightRows<{ unread: number | string; made: string }>(
    deps,
    sql`select (select count(*) from ${notifications}
          where user_id = ${userId} and read_at is null) as unread,
        (select coalesce(string_agg(concat_ws(':', p.id, p.seq, p.read, p.line_id, p.waiting),
            ',' order by p.created_at desc, p.seq desc), '')
          from (select n.id, n.seq, n.created_at, n.read_at is not null as read, n.line_id,
              l.pending_at is not null as waiting
            from ${notifications} n
            left join ${cartLines} l on l.id = n.line_id and l.cart_id = n.cart_id
            where n.user_id = ${userId} and ${older(sql`n.created_at`, sql`n.seq`)}
            order by n.created_at desc, n.seq desc limit ${query.limit}) p) as made`,
  );
  const unread = Number(found?.unread ?? 0);
  const key = `${userId} ${query.after ?? ""} ${query.limit}`;
  const made = `${unread} ${found?.made ?? ""}`;
  return keptAnswer(deps.db, "notification_pages", key, made, async () => {
    const rows = await deps.db
      .select({
        row: notifications,
        waiting: sql<boolean>`${cartLines.pendingAt} is not null`,
      })
      .from(notifications)
      .leftJoin(
        cartLines,
        and(eq(cartLines.id, notifications.lineId), eq(cartLines.cartId, notifications.cartId)),
      )
      .where(
        and(
          eq(notifications.userId, userId),
          older(sql`${notifications.createdAt}`, sql`${notifications.seq}`),
        ),
      )
      .orderBy(desc(notifications.createdAt), desc(notifications.seq))
      .limit(query.limit);
    const answer = { notifications: rows.map((r) => toNotification(r.row, r.waiting)), unread };
    return JSON.stringify(NotificationsResponseSchema.encode(answer));
  });
}

/** Marks the reader's own notifications read (ids of others' change nothing). */
export async function markRead(
  deps: Pick<NotificationDeps, "db" | "clock">,
  userId: string,
  body: MarkReadBody,
): Promise<{ unread: number }> {
  const mine = and(eq(notifications.userId, userId), isNull(notifications.readAt));
  if ("all" in body) {
    await deps.db.update(notifications).set({ readAt: deps.clock.now() }).where(mine);
  } else if (body.ids.length > 0) {
    await deps.db
      .update(notifications)
      .set({ readAt: deps.clock.now() })
      .where(and(mine, inArray(notifications.id, body.ids)));
  }
  return { unread: await unreadOf(deps, userId) };
}

/**
 * The reader's requests for approval of a line, read: they decided it (the list says it no
 * longer waits either way).
 */
export async function markLineRead(
  deps: Pick<NotificationDeps, "db" | "clock">,
  userId: string,
  lineId: string,
): Promise<void> {
  await deps.db
    .update(notifications)
    .set({ readAt: deps.clock.now() })
    .where(
      and(
        eq(notifications.userId, userId),
        eq(notifications.lineId, lineId),
        isNull(notifications.readAt),
      ),
    );
}

/** The reader's choices: the defaults until they chose. */
export async function getPreferences(
  deps: Pick<NotificationDeps, "db">,
  userId: string,
): Promise<NotificationPreferences> {
  return (await preferencesOf(deps, [userId])).get(userId) ?? DEFAULT_NOTIFICATION_PREFERENCES;
}

/** Replaces the reader's choices. */
export async function setPreferences(
  deps: Pick<NotificationDeps, "db" | "clock">,
  userId: string,
  prefs: NotificationPreferences,
): Promise<NotificationPreferences> {
  const now = deps.clock.now();
  await deps.db
    .insert(notificationPreferences)
    .values({ userId, prefs, updatedAt: now })
    .onConflictDoUpdate({
      target: notificationPreferences.userId,
      set: { prefs, updatedAt: now },
    });
  return prefs;
}
