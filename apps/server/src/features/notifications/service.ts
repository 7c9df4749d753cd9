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
  type CartView,
  type MarkReadBody,
  type Notification,
  type NotificationKind,
  type NotificationPreferences,
} from "@cartner/contract";
import type { FastifyBaseLogger } from "fastify";
import { and, count, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import crypto from "node:crypto";
import type { Db } from "../../db/client.ts";
import { notificationPreferences, notifications, sessionMembers, users } from "../../db/schema.ts";
import type { Clock } from "../../lib/clock.ts";
import type { TrackJob } from "../../plugins/mail-jobs.ts";
import type { EventBus } from "../live/index.ts";
import { noticeCartChange } from "./feeds.ts";
import type { Channel, NotifyInput, OutgoingNotice, PerReader } from "./types.ts";

export interface NotificationServiceDeps {
  db: Db;
  clock: Clock;
  events: Pick<EventBus, "publish">;
  log: FastifyBaseLogger;
  /** Runs a notify() after its answer, so shutdown and tests can wait for it. */
  track?: TrackJob;
  channels?: { push?: Channel; email?: Channel };
}

type Row = typeof notifications.$inferSelect;

/** What a cart change's answer tells of its session: enough to know whom to tell. */
export interface CartChangeView {
  session: Pick<CartView["session"], "id" | "name">;
  members: Array<Pick<CartView["members"][number], "userId" | "role">>;
}

const toNotification = (row: Row): Notification => ({
  _id: row.id,
  kind: row.kind,
  ...(row.sessionId ? { sessionId: row.sessionId } : {}),
  ...(row.orderId ? { orderId: row.orderId } : {}),
  title: row.title,
  body: row.body,
  url: row.url,
  createdAt: row.createdAt.toISOString(),
  readAt: row.readAt?.toISOString() ?? null,
});

const text = (value: PerReader, userId: string) =>
  typeof value === "function" ? value(userId) : value;

/** Kinds about money: viewers carry no share, so they hear nothing of it. */
const MONEY_KINDS: readonly NotificationKind[] = ["checkout", "payment"];

export function createNotificationService(deps: NotificationServiceDeps) {
  const { db, clock, events, log } = deps;
  const channels = deps.channels ?? {};

  async function preferencesOf(userIds: string[]): Promise<Map<string, NotificationPreferences>> {
    const rows =
      userIds.length === 0
        ? []
        : await db
            .select()
            .from(notificationPreferences)
            .where(inArray(notificationPreferences.userId, userIds));
    return new Map(rows.map((r) => [r.userId, r.prefs]));
  }

  /** Who of `input.userIds` may hear of it, by the rules above. */
  async function audience(input: NotifyInput): Promise<string[]> {
    let ids = [...new Set(input.userIds)].filter((id) => id !== input.actorId);
    if (ids.length === 0) return ids;
    if (input.sessionId) {
      const roles = await db
        .select({ userId: sessionMembers.userId, role: sessionMembers.role })
        .from(sessionMembers)
        .where(
          and(eq(sessionMembers.sessionId, input.sessionId), inArray(sessionMembers.userId, ids)),
        );
      const roleOf = new Map(roles.map((r) => [r.userId, r.role]));
      ids = ids.filter((id) => {
        const role = roleOf.get(id);
        if (!role) return false;
        if (role === "pending") return input.kind === "membership";
        if (role === "viewer") return !MONEY_KINDS.includes(input.kind);
        return true;
      });
    }
    return ids;
  }

  async function store(input: NotifyInput, userId: string, now: Date): Promise<Row> {
    const values = {
      userId,
      kind: input.kind,
      sessionId: input.sessionId ?? null,
      orderId: input.orderId ?? null,
      title: text(input.title, userId),
      body: text(input.body, userId),
      url: text(input.url, userId),
      createdAt: now,
    };
    if (input.kind === "changes" && input.sessionId) {
      // One unread row per reader and session: the latest change names itself and counts the rest.
      const changes = input.changes ?? 1;
      const [row] = await db
        .insert(notifications)
        .values({
          ...values,
          count: changes,
          body: changes > 1 ? `${values.body} (+${changes - 1} more)` : values.body,
        })
        .onConflictDoUpdate({
          target: [notifications.userId, notifications.sessionId],
          targetWhere: sql`kind = 'changes' and read_at is null`,
          set: {
            title: sql`excluded.title`,
            body: sql`${values.body}::text || ' (+' || ("notifications"."count" + ${changes - 1}::int) || ' more)'`,
            url: sql`excluded.url`,
            count: sql`"notifications"."count" + ${changes}`,
            createdAt: sql`excluded.created_at`,
            seq: sql`nextval('notifications_seq_seq')`,
          },
        })
        .returning();
      return row!;
    }
    const [row] = await db.insert(notifications).values(values).returning();
    return row!;
  }

  async function deliver(channel: Channel | undefined, notice: OutgoingNotice, name: string) {
    if (!channel) return;
    try {
      await channel.deliver(notice);
    } catch (error) {
      log.warn({ err: error, channel: name }, "notifications: a channel failed to deliver");
    }
  }

  /** Tells each reader of `input` what happened, on the channels they chose; answers how many. */
  async function notify(input: NotifyInput): Promise<number> {
    const ids = await audience(input);
    if (ids.length === 0) return 0;
    const people = await db
      .select({ id: users.id, name: users.name, email: users.email })
      .from(users)
      .where(and(inArray(users.id, ids), isNull(users.deletedAt)));
    const prefs = await preferencesOf(people.map((p) => p.id));
    const now = clock.now();
    for (const person of people) {
      const choices = prefs.get(person.id) ?? DEFAULT_NOTIFICATION_PREFERENCES;
      const choice = choices.kinds[input.kind];
      let notification: Notification;
      if (choice.inApp) {
        const row = await store(input, person.id, now);
        notification = toNotification(row);
        events.publish({
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
        };
      }
      if (choice.push || choice.email) {
        const notice = {
          user: person,
          notification,
          expiresAt: input.expiresAt?.toISOString(),
        };
        if (choice.push) await deliver(channels.push, notice, "push");
        if (choice.email) await deliver(channels.email, notice, "email");
      }
    }
    return people.length;
  }

  /**
   * Work after the caller's answer: tracked (shutdown and tests wait for it), and a failure (the
   * database gone meanwhile) is only logged: the change it follows is committed either way.
   */
  function afterAnswer(job: Promise<unknown>): void {
    const settled = job.catch((error: unknown) =>
      log.warn({ err: error }, "notifications: a notice could not be sent"),
    );
    deps.track?.(settled);
  }

  /** notify() after the caller's answer. */
  function later(input: NotifyInput): void {
    afterAnswer(notify(input));
  }

  /**
   * Cart notices in flight, one per (session, actor), with how many changes came while it ran:
   * those are told by one more notice naming the latest, so a burst of writes costs a few
   * notices, not one each, and a quiet cart's change is told at once.
   */
  const telling = new Map<string, { changes: number }>();

  /**
   * After a committed cart change by `actorId`: the session's other members (as the change's
   * view lists them) hear what it was. Nothing is read when there is no one to tell.
   */
  function cartChanged(view: CartChangeView, actorId: string): void {
    const memberIds = view.members
      .filter((m) => m.userId !== actorId && m.role !== "pending")
      .map((m) => m.userId);
    if (memberIds.length === 0) return;
    const key = `${view.session.id} ${actorId}`;
    const inFlight = telling.get(key);
    if (inFlight) {
      inFlight.changes += 1;
      return;
    }
    const state = { changes: 1 };
    telling.set(key, state);
    const change = { session: view.session, memberIds, actorId };
    afterAnswer(
      (async () => {
        try {
          while (state.changes > 0) {
            const changes = state.changes;
            state.changes = 0;
            await noticeCartChange(db, { notify }, change, changes);
          }
        } finally {
          telling.delete(key);
        }
      })(),
    );
  }

  async function unreadOf(userId: string): Promise<number> {
    const [row] = await db
      .select({ n: count() })
      .from(notifications)
      .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
    return Number(row?.n ?? 0);
  }

  /** The reader's notifications, newest first; `after`: those older than that one of theirs. */
  async function list(
    userId: string,
    query: { after?: string | undefined; limit: number },
  ): Promise<{ notifications: Notification[]; unread: number }> {
    const older = query.after
      ? sql`(${notifications.createdAt}, ${notifications.seq}) < (select created_at, seq from ${notifications} where id = ${query.after} and user_id = ${userId})`
      : undefined;
    const rows = await db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, userId), older))
      .orderBy(desc(notifications.createdAt), desc(notifications.seq))
      .limit(query.limit);
    return { notifications: rows.map(toNotification), unread: await unreadOf(userId) };
  }

  /** Marks the reader's own notifications read (ids of others' change nothing). */
  async function markRead(userId: string, body: MarkReadBody): Promise<{ unread: number }> {
    const mine = and(eq(notifications.userId, userId), isNull(notifications.readAt));
    if ("all" in body) {
      await db.update(notifications).set({ readAt: clock.now() }).where(mine);
    } else if (body.ids.length > 0) {
      await db
        .update(notifications)
        .set({ readAt: clock.now() })
        .where(and(mine, inArray(notifications.id, body.ids)));
    }
    return { unread: await unreadOf(userId) };
  }

  async function getPreferences(userId: string): Promise<NotificationPreferences> {
    return (await preferencesOf([userId])).get(userId) ?? DEFAULT_NOTIFICATION_PREFERENCES;
  }

  async function setPreferences(
    userId: string,
    prefs: NotificationPreferences,
  ): Promise<NotificationPreferences> {
    const now = clock.now();
    await db
      .insert(notificationPreferences)
      .values({ userId, prefs, updatedAt: now })
      .onConflictDoUpdate({
        target: notificationPreferences.userId,
        set: { prefs, updatedAt: now },
      });
    return prefs;
  }

  return { notify, later, cartChanged, list, markRead, getPreferences, setPreferences };
}

export type NotificationService = ReturnType<typeof createNotificationService>;
