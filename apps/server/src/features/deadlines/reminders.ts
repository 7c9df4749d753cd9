/**
 * A deadline's reminders: who gets one (the members who carry a share and have not marked
 * themselves done; never viewers, pending requesters, or anyone who left or was removed), and the
 * one function that reminds a member, `sendReminder()`, through the notification service.
 */
import { can, fromCents } from "@cartner/contract";
import { and, eq, sql } from "drizzle-orm";
import { executeRows, type Db } from "../../db/client.ts";
import { carts, sessionDeadlines, sessionMembers, sessions } from "../../db/schema.ts";
import type { Clock } from "../../lib/clock.ts";
import { utcInstant } from "../../lib/time.ts";
import { splitOf, type CartView } from "../carts/index.ts";
import type { NotificationService } from "../notifications/index.ts";
import { formatMoney } from "../orders/index.ts";
import { readyMark } from "../sessions/index.ts";

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

/** A reminder's words: when the cart closes (in UTC, decision 018) and the member's own share. */
export function reminderText(input: {
  sessionName: string;
  closesAt: Date;
  minutesBefore: number;
  share: number;
  /** The deployment's currency (CURRENCY). */
  currency: string;
}): { title: string; body: string } {
  const left = leadTime(input.minutesBefore);
  return {
    title: `${input.sessionName}: the cart closes in ${left}`,
    body:
      `The cart closes in ${left}, at ${utcInstant(input.closesAt)}; after that nothing can be ` +
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
export function createReminders(deps: {
  db: Db;
  clock: Clock;
  notices: Pick<NotificationService, "notify">;
  currency: string;
}) {
  const { db, clock, notices } = deps;

  async function sendReminder(job: ReminderJob): Promise<boolean> {
    const [found] = await db
      .select({
        sessionName: sessions.name,
        closesAt: sessionDeadlines.closesAt,
        role: sessionMembers.role,
        cartId: carts.id,
      })
      .from(sessions)
      .innerJoin(sessionDeadlines, eq(sessionDeadlines.sessionId, sessions.id))
      .innerJoin(carts, eq(carts.sessionId, sessions.id))
      .innerJoin(
        sessionMembers,
        and(eq(sessionMembers.sessionId, sessions.id), eq(sessionMembers.userId, job.userId)),
      )
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
    await notices.notify({
      kind: "reminder",
      userIds: [job.userId],
      sessionId: job.sessionId,
      ...reminderText({
        currency: deps.currency,
        sessionName: found.sessionName,
        closesAt: found.closesAt,
        minutesBefore: job.minutesBefore,
        share: fromCents(share),
      }),
      url: `/cart/${job.sessionId}`,
    });
    return true;
  }

  return { sendReminder };
}
