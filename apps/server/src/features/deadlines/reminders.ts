/**
 * A deadline's reminders: who gets one (the members who carry a share and have not marked
 * themselves done; never viewers, pending requesters, or anyone who left or was removed), which
 * are due (`remindDue()`: one at most, however many came due together), and the one function
 * that reminds a member, `sendReminder()`, through the notification service.
 */
import { can, fromCents, reminderTime } from "@cartner/contract";
import { and, eq, sql } from "drizzle-orm";
import { executeRows, type Tx } from "../../db/client.ts";
import {
  carts,
  deadlineReminders,
  sessionDeadlines,
  sessionMembers,
  sessions,
  users,
} from "../../db/schema.ts";
import { formatMoney } from "../../lib/money.ts";
import { readyMark } from "../../lib/ready-mark.ts";
import { zonedInstant } from "../../lib/time.ts";
import { splitOf, type CartView } from "../carts/index.ts";
import type { Jobs } from "../jobs/index.ts";
import type { DeadlineDeps } from "./deps.ts";
import { notify } from "../notifications/index.ts";

const MINUTE = 60_000;

/** One member's reminder: a job of its own (queue "deadline.remind"), retried on its own. */
export interface ReminderJob {
  sessionId: string;
  userId: string;
  /** The reminder it is (minutes before the deadline). */
  minutesBefore: number;
  /** The deadline it was for: a move since makes it stale. */
  closesAt: string;
}

/** Members who would mark themselves done (creator, participants) and are not done now. */
export function membersNotDone(view: CartView): string[] {
  const { shares } = splitOf(view);
  return view.members
    .filter((m) => can(m.role, "member.ready"))
    .filter((m) => !readyMark(m, shares).ready)
    .map((m) => m.userId);
}

/**
 * Inside a session write (its locks held): the deadline's reminders due at `now` and not yet
 * recorded. When several are (the deadline was set or moved past their times, or no server ran
 * then), only the nearest to the deadline goes and the others are recorded as passed over, so a
 * member never gets two at once. Its mails are jobs of their own, one per member not done, sent
 * with the record. Answers the reminder sent (minutes before) and to how many, or null.
 */
export async function remindDue(
  tx: Tx,
  jobs: Pick<Jobs, "send">,
  row: { sessionId: string; closesAt: Date; remindAt: readonly number[] },
  now: Date,
): Promise<{ minutesBefore: number; recipients: number } | null> {
  const recorded = await tx
    .select({ minutesBefore: deadlineReminders.minutesBefore })
    .from(deadlineReminders)
    .where(eq(deadlineReminders.sessionId, row.sessionId));
  const done = new Set(recorded.map((r) => r.minutesBefore));
  const due = row.remindAt
    .filter((m) => !done.has(m))
    .filter((m) => reminderTime(row.closesAt, m).getTime() <= now.getTime());
  if (due.length === 0) return null;
  const nearest = Math.min(...due);
  const [{ view }] = (await executeRows<{ view: CartView }>(
    tx,
    sql`select cart_view(id) as view from ${carts} where session_id = ${row.sessionId}`,
  )) as [{ view: CartView }];
  const recipients = membersNotDone(view);
  // The record first: a second run inserts nothing (and a racing one waits on the session lock).
  await tx
    .insert(deadlineReminders)
    .values(
      due.map((minutesBefore) => ({
        sessionId: row.sessionId,
        minutesBefore,
        closesAt: row.closesAt,
        sent: minutesBefore === nearest,
        recipients: minutesBefore === nearest ? recipients.length : 0,
        createdAt: now,
      })),
    )
    .onConflictDoNothing();
  for (const userId of recipients) {
    const job: ReminderJob = {
      sessionId: row.sessionId,
      userId,
      minutesBefore: nearest,
      closesAt: row.closesAt.toISOString(),
    };
    await jobs.send("deadline.remind", job, { tx });
  }
  return { minutesBefore: nearest, recipients: recipients.length };
}

/** "3 days", "24 hours", "1 hour and 30 minutes", "15 minutes". */
export function leadTime(minutes: number): string {
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? "" : "s"}`;
  if (minutes >= 48 * 60 && minutes % (24 * 60) === 0) return plural(minutes / (24 * 60), "day");
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (hours === 0) return plural(rest, "minute");
  return rest === 0
    ? plural(hours, "hour")
    : `${plural(hours, "hour")} and ${plural(rest, "minute")}`;
}

/**
 * A reminder's words: how long is left and when the cart closes, in the member's own time zone
 * with its name (decision 040), and their own share.
 */
export function reminderText(input: {
  sessionName: string;
  closesAt: Date;
  /**
   * Minutes left when it is sent, rounded (a reminder sent late, or at once, says the truth; under
   * half a minute is "less than a minute").
   */
  minutesLeft: number;
  share: number;
  /** The deployment's currency (CURRENCY). */
  currency: string;
  /** The member's IANA time zone. */
  timeZone: string;
}): { title: string; body: string } {
  const left = input.minutesLeft < 1 ? "less than a minute" : leadTime(input.minutesLeft);
  return {
    title: `${input.sessionName}: the cart closes in ${left}`,
    body:
      `The cart closes in ${left}, at ${zonedInstant(input.closesAt, input.timeZone)}; after that nothing can be ` +
      `added or changed. Your share so far: ${formatMoney(input.share, input.currency)}. ` +
      "Finish your part and mark yourself done.",
  };
}

/**
 * Reminds one member of a deadline, if it still concerns them: the session is active, the
 * deadline is still the one the reminder was for and not passed, and they are still a member who
 * has not marked themselves done. The notification service tells them as they chose (in the app,
 * by push, by mail; a mail is a job of its own, retried). Answers whether it reminded them.
 */
export async function sendReminder(
  deps: Pick<DeadlineDeps, "db" | "clock" | "notices" | "currency">,
  job: ReminderJob,
): Promise<boolean> {
  const { db, clock, notices } = deps;
  const [found] = await db
    .select({
      sessionName: sessions.name,
      closesAt: sessionDeadlines.closesAt,
      role: sessionMembers.role,
      cartId: carts.id,
      timeZone: users.timeZone,
    })
    .from(sessions)
    .innerJoin(sessionDeadlines, eq(sessionDeadlines.sessionId, sessions.id))
    .innerJoin(carts, eq(carts.sessionId, sessions.id))
    .innerJoin(
      sessionMembers,
      and(eq(sessionMembers.sessionId, sessions.id), eq(sessionMembers.userId, job.userId)),
    )
    .innerJoin(users, eq(users.id, sessionMembers.userId))
    .where(and(eq(sessions.id, job.sessionId), eq(sessions.status, "active")));
  const now = clock.now();
  if (
    !found ||
    found.closesAt.getTime() !== new Date(job.closesAt).getTime() ||
    found.closesAt.getTime() <= now.getTime() ||
    !can(found.role, "member.ready")
  ) {
    return false;
  }
  const [{ view }] = (await executeRows<{ view: CartView }>(
    db,
    sql`select cart_view(${found.cartId}) as view`,
  )) as [{ view: CartView }];
  // Marked done since the reminder was due: nothing to remind them of.
  if (!membersNotDone(view).includes(job.userId)) return false;
  const share = splitOf(view).shares.find((s) => s.userId === job.userId)?.total ?? 0;
  await notify(notices, {
    kind: "reminder",
    userIds: [job.userId],
    sessionId: job.sessionId,
    ...reminderText({
      currency: deps.currency,
      sessionName: found.sessionName,
      closesAt: found.closesAt,
      minutesLeft: Math.round((found.closesAt.getTime() - now.getTime()) / MINUTE),
      share: fromCents(share),
      timeZone: found.timeZone,
    }),
    url: `/cart/${job.sessionId}`,
    // Held by quiet hours past the deadline, its push and mail would say what is no longer so.
    expiresAt: found.closesAt,
  });
  return true;
}
