/**
 * What a deadline's times bring, done by whichever instance's worker takes the wake-up job (or by
 * the sweep at start, for a deadline that passed while no server ran): the reminders that are
 * due, the lock's entry and live event at closesAt, and the automatic checkout. Each reads what is
 * due from the tables by the app's clock and records it done in the transaction that does it, so
 * a second run, a stale wake-up (the deadline moved since) or two instances at once change nothing
 * more (docs/decisions/016-durable-jobs.md).
 */
import { ErrorCode, deadlinePassed, type User } from "@cartner/contract";
import { and, eq, isNull, lte, or } from "drizzle-orm";
import { sessionDeadlines, sessions, users } from "../../db/schema.ts";
import { AppError } from "../../lib/errors.ts";
import type { Jobs } from "../jobs/index.ts";
import { writeSession, type TypedEntry } from "../sessions/index.ts";
import type { AutoCheckout, DeadlineDeps } from "./deps.ts";
import { remindDue } from "./reminders.ts";
import { deadlineEvents, deadlineIn, type DueJob } from "./service.ts";

/** A wake-up that comes this much early (clocks of database and app apart) waits instead. */
const EARLY_WAIT_MS = 10_000;

/** The automatic checkout is no longer owed (moved, reopened, cleared, done): nothing to do. */
class NotDue extends Error {}

interface Processed {
  /** The lock's entry was written now. */
  locked: boolean;
  /** The automatic checkout is owed (now or from an earlier run that did not finish it). */
  checkout: boolean;
  /** The reminder sent now (minutes before), if any, and to how many. */
  reminded: { minutesBefore: number; recipients: number } | null;
}

/** What finding and doing what is due needs. */
type DueDeps = Pick<DeadlineDeps, "db" | "clock" | "events" | "checkout" | "log"> & {
  jobs: Pick<Jobs, "send">;
};

/** One pass over a session's deadline at the app's time: reminders, the lock's entry. */
async function step(deps: DueDeps, sessionId: string, creatorId: string): Promise<Processed> {
  const { jobs } = deps;
  const { result } = await writeSession(deps.db, deps, {
    sessionId,
    userId: creatorId,
    // The server acts: no caller's role to check. An ended session has nothing due.
    action: null,
    active: false,
    change: async ({ tx, session, now }) => {
      const nothing: Processed = { locked: false, checkout: false, reminded: null };
      const row = await deadlineIn(tx, sessionId);
      if (!row || session.status !== "active") {
        return { result: nothing, version: "unchanged" as const };
      }
      if (!deadlinePassed(row.closesAt, now)) {
        const reminded = await remindDue(tx, jobs, row, now);
        return { result: { ...nothing, reminded }, version: "unchanged" as const };
      }
      if (row.lockedAt) {
        return {
          result: { ...nothing, checkout: row.checkoutDue },
          version: "unchanged" as const,
        };
      }
      await tx
        .update(sessionDeadlines)
        .set({ lockedAt: now, checkoutDue: row.autoCheckout, updatedAt: now })
        .where(eq(sessionDeadlines.sessionId, sessionId));
      // The entry is the creator's: theirs is the deadline (and the checkout it may bring).
      const entry: TypedEntry = {
        type: "deadline.locked",
        details: { closesAt: row.closesAt.toISOString(), autoCheckout: row.autoCheckout },
        actorId: session.creatorId,
      };
      return {
        result: { locked: true, checkout: row.autoCheckout, reminded: null },
        activity: entry,
      };
    },
    events: (processed, session, cartId) =>
      processed.locked ? deadlineEvents(null, session, cartId) : [],
  });
  return result;
}

/**
 * The automatic checkout, through the orders service's own (the creator's order, its mails),
 * once: its transaction first checks, under the checkout's locks, that it is still owed, and
 * records it done. An empty cart cannot be checked out: that is logged once, and the cart
 * stays closed for the creator to reopen.
 */
async function autoCheckout(deps: DueDeps, sessionId: string): Promise<void> {
  const [creator] = await deps.db
    .select({ _id: users.id, name: users.name, email: users.email, roles: users.roles })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.creatorId))
    .where(eq(sessions.id, sessionId));
  if (!creator) return;
  const options: Parameters<AutoCheckout>[2] = {
    automatic: true,
    // Nobody is there to choose: lines over the stock get what is left.
    overStock: "take_what_is_left",
    // Lines still waiting for approval at the deadline were not approved in time: they go.
    pending: "drop",
    before: async ({ tx, session, now }) => {
      const row = await deadlineIn(tx, sessionId);
      if (session.status !== "active" || !row?.checkoutDue || !deadlinePassed(row.closesAt, now)) {
        throw new NotDue();
      }
      await tx
        .update(sessionDeadlines)
        .set({ checkoutDue: false, updatedAt: now })
        .where(eq(sessionDeadlines.sessionId, sessionId));
    },
  };
  try {
    await deps.checkout(sessionId, creator satisfies User, options);
  } catch (error) {
    if (error instanceof NotDue) return;
    if (error instanceof AppError && error.code === ErrorCode.EMPTY_CART) {
      await skipCheckout(deps, sessionId, creator._id, "empty_cart");
      return;
    }
    // Checked out by hand meanwhile, or ended: the owed checkout is moot.
    if (error instanceof AppError && error.status === 409) return;
    throw error;
  }
}

/** The automatic checkout could not place the order (why): say so in the log, once. */
async function skipCheckout(
  deps: DueDeps,
  sessionId: string,
  creatorId: string,
  reason: "empty_cart",
): Promise<void> {
  await writeSession(deps.db, deps, {
    sessionId,
    userId: creatorId,
    action: null,
    active: false,
    change: async ({ tx, session, now }) => {
      const row = await deadlineIn(tx, sessionId);
      if (!row?.checkoutDue || session.status !== "active") {
        return { result: null, version: "unchanged" as const };
      }
      await tx
        .update(sessionDeadlines)
        .set({ checkoutDue: false, updatedAt: now })
        .where(eq(sessionDeadlines.sessionId, sessionId));
      const entry: TypedEntry = {
        type: "deadline.checkout_skipped",
        details: { closesAt: row.closesAt.toISOString(), reason },
        actorId: session.creatorId,
      };
      return { result: null, activity: entry, version: "unchanged" as const };
    },
  });
}

/** Everything due for the session now; idempotent. */
async function processSession(deps: DueDeps, sessionId: string): Promise<Processed | null> {
  const [found] = await deps.db
    .select({ creatorId: sessions.creatorId })
    .from(sessions)
    .where(eq(sessions.id, sessionId));
  if (!found) return null;
  const processed = await step(deps, sessionId, found.creatorId);
  if (processed.checkout) await autoCheckout(deps, sessionId);
  if (processed.reminded) {
    deps.log.info({ sessionId, ...processed.reminded }, "deadline reminder sent");
  }
  return processed;
}

/**
 * A wake-up job. The queue runs it by the database's clock; should the app's be behind, a
 * wake-up a little early waits for its time, one much earlier comes again then.
 */
export async function onDue(deps: DueDeps, job: DueJob): Promise<void> {
  const early = new Date(job.at).getTime() - deps.clock.now().getTime();
  if (early > EARLY_WAIT_MS) {
    await deps.jobs.send("deadline.due", job, { at: new Date(job.at) });
    return;
  }
  if (early > 0) await new Promise((resolve) => setTimeout(resolve, early));
  await processSession(deps, job.sessionId);
}

/**
 * At start: every active session whose deadline passed without its lock recorded, or whose
 * automatic checkout is still owed (no server ran at that time, or one died in between).
 */
export async function sweep(deps: DueDeps): Promise<number> {
  const now = deps.clock.now();
  const overdue = await deps.db
    .select({ sessionId: sessionDeadlines.sessionId })
    .from(sessionDeadlines)
    .innerJoin(sessions, eq(sessions.id, sessionDeadlines.sessionId))
    .where(
      and(
        eq(sessions.status, "active"),
        lte(sessionDeadlines.closesAt, now),
        or(isNull(sessionDeadlines.lockedAt), eq(sessionDeadlines.checkoutDue, true)),
      ),
    );
  for (const { sessionId } of overdue) await processSession(deps, sessionId);
  return overdue.length;
}
