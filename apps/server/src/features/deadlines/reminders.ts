/**
 * A deadline's reminders: who gets one (the members who carry a share and have not marked
 * themselves done; never viewers, pending requesters, or anyone who left or was removed), and the
 * one function that reminds a member, `sendReminder()`. For now it sends a mail through the app's
 * mailer; the notification service is to take its place behind the same function.
 */
import { can, fromCents, type User } from "@cartner/contract";
import { and, eq, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { executeRows, type Db } from "../../db/client.ts";
import { carts, sessionDeadlines, sessionMembers, sessions, users } from "../../db/schema.ts";
import type { Clock } from "../../lib/clock.ts";
import { escapeHtml } from "../../lib/html.ts";
import type { Media } from "../../lib/media.ts";
import { utcInstant } from "../../lib/time.ts";
import { splitOf, type CartView } from "../carts/index.ts";
import type { Mail, Mailer } from "../mail/index.ts";
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

/** The reminder mail: when the cart closes, the member's own share now, and the cart's link. */
export function reminderMail(input: {
  to: Pick<User, "name" | "email">;
  sessionName: string;
  closesAt: Date;
  minutesBefore: number;
  share: number;
  cartUrl: string;
}): Mail {
  const { to, sessionName, closesAt, minutesBefore, share, cartUrl } = input;
  const when = utcInstant(closesAt);
  const left = leadTime(minutesBefore);
  const shareLine = `Your share so far: ${formatMoney(share)}`;
  const text = [
    `Hi ${to.name},`,
    "",
    `The cart of "${sessionName}" closes in ${left}, at ${when}.`,
    "After that nothing can be added or changed.",
    "",
    shareLine,
    "",
    `Finish your part and mark yourself done: ${cartUrl}`,
    "",
    "— Cartner",
  ].join("\n");
  const html = `<!doctype html><html><body style="font-family:sans-serif;color:#0f172a">
<p>Hi ${escapeHtml(to.name)},</p>
<p>The cart of “${escapeHtml(sessionName)}” closes in <strong>${escapeHtml(left)}</strong>, at ${escapeHtml(when)}. After that nothing can be added or changed.</p>
<p style="font-size:20px;font-weight:700;color:#4f46e5">${escapeHtml(shareLine)}</p>
<p><a href="${escapeHtml(cartUrl)}">Open the cart and mark yourself done</a></p>
<p>— Cartner</p>
</body></html>`;
  return {
    to: to.email,
    subject: `${sessionName}: the cart closes in ${left}`,
    text,
    html,
  };
}

/**
 * Reminds one member of a deadline, if it still concerns them: the session is active, the
 * deadline is still the one the reminder was for and not passed, and they are still a member who
 * has not marked themselves done. Answers whether it reminded them; a mail that cannot be sent
 * throws, so its job is retried.
 */
export function createReminders(deps: {
  db: Db;
  clock: Clock;
  mailer: Mailer;
  media: Media;
  log: FastifyBaseLogger;
}) {
  const { db, clock, mailer, media } = deps;

  async function sendReminder(job: ReminderJob): Promise<boolean> {
    const [found] = await db
      .select({
        sessionName: sessions.name,
        closesAt: sessionDeadlines.closesAt,
        role: sessionMembers.role,
        name: users.name,
        email: users.email,
        cartId: carts.id,
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
    await mailer.send(
      reminderMail({
        to: { name: found.name, email: found.email },
        sessionName: found.sessionName,
        closesAt: found.closesAt,
        minutesBefore: job.minutesBefore,
        share: fromCents(share),
        cartUrl: media.page(`/cart/${job.sessionId}`),
      }),
    );
    return true;
  }

  return { sendReminder };
}
