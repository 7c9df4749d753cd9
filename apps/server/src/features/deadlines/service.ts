/**
 * A session's deadline, set, moved, cleared and reopened by its
 * creator. Each is a session write (sessions/lifecycle/write.ts): the cart row and the session row are
 * locked first, as every cart write takes them, so a cart write lands before the change or sees
 * it. The deadline is an instant (docs/decisions/018-time-zones.md); the cart's SQL function
 * compares it with each write's own time, so the lock needs nothing to happen at that instant.
 *
 * What does happen at the deadline's times is woken by jobs sent in the same transaction as the
 * change (due.ts): one at each reminder's time and one at closesAt. A move leaves the old ones
 * queued; they find nothing due and do nothing.
 */
import {
  DEADLINE_MAX_DAYS_AHEAD,
  DEFAULT_REMIND_AT,
  deadlinePassed,
  reminderTime,
  type ReopenBody,
  type Session,
  type SetDeadlineBody,
} from "@cartner/contract";
import { eq } from "drizzle-orm";
import type { Tx } from "../../db/client.ts";
import { deadlineReminders, sessionDeadlines } from "../../db/schema.ts";
import { conflict, invalidFields } from "../../lib/errors.ts";
import type { Jobs } from "../jobs/index.ts";
import { remindDue } from "./reminders.ts";
import { sessionView, toMembers, writeSession, type WriteContext } from "../sessions/index.ts";
import type { DeadlineDeps } from "./deps.ts";

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

export type DeadlineRow = typeof sessionDeadlines.$inferSelect;

/** What the creator's calls need: a session write, its jobs, and the Session answer. */
type DeadlineWriteDeps = Pick<DeadlineDeps, "db" | "clock" | "events" | "media"> & {
  jobs: Pick<Jobs, "send">;
};

/** What a wake-up job carries: the session, and the time it was sent for. */
export interface DueJob {
  sessionId: string;
  at: string;
}

/** A new closing time: after `now`, and at most a year ahead (400 naming closesAt otherwise). */
function futureClosingTime(iso: string, now: Date): Date {
  const at = new Date(iso);
  if (at.getTime() <= now.getTime()) {
    throw invalidFields({ closesAt: "The deadline must be in the future" });
  }
  if (at.getTime() > now.getTime() + DEADLINE_MAX_DAYS_AHEAD * DAY) {
    throw invalidFields({ closesAt: "The deadline is at most a year ahead" });
  }
  return at;
}

/** Each reminder once, largest first. */
const remindersOf = (minutes: readonly number[]) => [...new Set(minutes)].sort((a, b) => b - a);

/** The session's deadline row, read inside a session write (its locks held). */
export async function deadlineIn(tx: Tx, sessionId: string): Promise<DeadlineRow | undefined> {
  const [row] = await tx
    .select()
    .from(sessionDeadlines)
    .where(eq(sessionDeadlines.sessionId, sessionId));
  return row;
}

/** The live events of a change to the deadline: the session and its cart show it. */
export const deadlineEvents = (
  _: unknown,
  session: Parameters<typeof toMembers>[1],
  cartId: string,
) => [toMembers("session.updated", session), toMembers("cart.updated", session, { cartId })];

/**
 * A deadline set from `now` on: a new closing time starts its reminders over (a change of the
 * other settings keeps those already sent, so none goes twice), and the wake-ups are queued in the
 * caller's transaction. Reminders whose time has already gone (a deadline six minutes ahead with
 * the 15-minute reminder) are not dropped: one reminder goes at once for all of them, saying how
 * long is really left, and the deadline records when (`reminded_on_set_at`).
 */
async function scheduleDeadline(
  tx: Tx,
  jobs: Pick<Jobs, "send">,
  sessionId: string,
  deadline: { closesAt: Date; remindAt: readonly number[] },
  now: Date,
  previousClosesAt?: Date,
): Promise<void> {
  const { closesAt, remindAt } = deadline;
  const moved = previousClosesAt?.getTime() !== closesAt.getTime();
  if (moved) {
    await tx.delete(deadlineReminders).where(eq(deadlineReminders.sessionId, sessionId));
  }
  const reminded = await remindDue(tx, jobs, { sessionId, closesAt, remindAt }, now);
  const sentNow = reminded !== null && reminded.recipients > 0;
  if (moved || sentNow) {
    await tx
      .update(sessionDeadlines)
      .set({ remindedOnSetAt: sentNow ? now : null })
      .where(eq(sessionDeadlines.sessionId, sessionId));
  }
  const times = [
    ...remindAt.map((m) => reminderTime(closesAt, m)).filter((at) => at.getTime() > now.getTime()),
    closesAt,
  ];
  for (const at of times) {
    const job: DueJob = { sessionId, at: at.toISOString() };
    await jobs.send("deadline.due", job, { at, tx });
  }
}

/**
 * Gives a session that has none (a series' new one) a deadline, inside its creating transaction:
 * the row and its wake-ups. A closing time not after `now` is not given.
 */
export async function startDeadline(
  tx: Tx,
  jobs: Pick<Jobs, "send">,
  sessionId: string,
  deadline: Pick<DeadlineRow, "closesAt" | "remindAt" | "autoCheckout">,
  now: Date,
): Promise<boolean> {
  const { closesAt, remindAt, autoCheckout } = deadline;
  if (closesAt.getTime() <= now.getTime()) return false;
  await tx
    .insert(sessionDeadlines)
    .values({ sessionId, closesAt, remindAt, autoCheckout, createdAt: now, updatedAt: now });
  await scheduleDeadline(tx, jobs, sessionId, deadline, now);
  return true;
}

/** A deadline change's reminders and wake-ups, in its session write. */
const schedule = (
  jobs: Pick<Jobs, "send">,
  ctx: WriteContext,
  closesAt: Date,
  remindAt: readonly number[],
  previousClosesAt: Date | undefined,
) =>
  scheduleDeadline(ctx.tx, jobs, ctx.session.id, { closesAt, remindAt }, ctx.now, previousClosesAt);

/** PUT /sessions/:id/deadline: set or move it (null: clear it). */
export async function setDeadline(
  deps: DeadlineWriteDeps,
  sessionId: string,
  userId: string,
  body: SetDeadlineBody,
): Promise<Session> {
  if (body === null) return clearDeadline(deps, sessionId, userId);
  const { session } = await writeSession(deps.db, deps, {
    sessionId,
    userId,
    action: "session.deadline",
    change: async (ctx) => {
      const { tx, now } = ctx;
      const closesAt = futureClosingTime(body.closesAt, now);
      const previous = await deadlineIn(tx, sessionId);
      // A move keeps what it does not name; a new deadline gets the defaults.
      const remindAt = remindersOf(body.remindAt ?? previous?.remindAt ?? [...DEFAULT_REMIND_AT]);
      const autoCheckout = body.autoCheckout ?? previous?.autoCheckout ?? false;
      const values = {
        closesAt,
        remindAt,
        autoCheckout,
        lockedAt: null,
        checkoutDue: false,
        updatedAt: now,
      };
      await tx
        .insert(sessionDeadlines)
        .values({ sessionId, ...values, createdAt: now })
        .onConflictDoUpdate({ target: sessionDeadlines.sessionId, set: values });
      await schedule(deps.jobs, ctx, closesAt, remindAt, previous?.closesAt);
      return {
        result: null,
        activity: {
          type: "deadline.set",
          details: {
            closesAt: closesAt.toISOString(),
            remindAt,
            autoCheckout,
            previousClosesAt: previous?.closesAt.toISOString() ?? null,
          },
        },
      };
    },
    events: deadlineEvents,
  });
  return sessionView(deps, session, userId);
}

/** PUT /sessions/:id/deadline with null: the cart stays open (a closed one opens again). */
export async function clearDeadline(
  deps: DeadlineWriteDeps,
  sessionId: string,
  userId: string,
): Promise<Session> {
  const { session } = await writeSession(deps.db, deps, {
    sessionId,
    userId,
    action: "session.deadline",
    change: async ({ tx }) => {
      const [removed] = await tx
        .delete(sessionDeadlines)
        .where(eq(sessionDeadlines.sessionId, sessionId))
        .returning();
      await tx.delete(deadlineReminders).where(eq(deadlineReminders.sessionId, sessionId));
      // Nothing to clear: nothing changed, nothing to log (the same request twice is fine).
      if (!removed) return { result: null, version: "unchanged" as const };
      return {
        result: null,
        activity: {
          type: "deadline.cleared",
          details: { closesAt: removed.closesAt.toISOString() },
        },
      };
    },
    events: deadlineEvents,
  });
  return sessionView(deps, session, userId);
}

/** POST /sessions/:id/reopen: a cart that closed at its deadline opens until a new one. */
export async function reopenDeadline(
  deps: DeadlineWriteDeps,
  sessionId: string,
  userId: string,
  body: ReopenBody,
): Promise<Session> {
  const { session } = await writeSession(deps.db, deps, {
    sessionId,
    userId,
    action: "session.deadline",
    change: async (ctx) => {
      const { tx, now } = ctx;
      const previous = await deadlineIn(tx, sessionId);
      if (!previous) throw conflict("This session has no deadline: its cart is open.");
      if (!deadlinePassed(previous.closesAt, now) && !previous.lockedAt) {
        throw conflict("The cart has not closed yet: move its deadline instead.");
      }
      const closesAt = futureClosingTime(body.closesAt, now);
      await tx
        .update(sessionDeadlines)
        .set({ closesAt, lockedAt: null, checkoutDue: false, updatedAt: now })
        .where(eq(sessionDeadlines.sessionId, sessionId));
      await schedule(deps.jobs, ctx, closesAt, previous.remindAt, previous.closesAt);
      return {
        result: null,
        activity: {
          type: "deadline.reopened",
          details: {
            closesAt: closesAt.toISOString(),
            previousClosesAt: previous.closesAt.toISOString(),
          },
        },
      };
    },
    events: deadlineEvents,
  });
  return sessionView(deps, session, userId);
}
