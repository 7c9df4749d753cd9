/**
 * Quiet hours: the one rule that holds what reaches a person away from the app. Every push and
 * every mail the server sends on its own (checkout and order mails, notices, digests, reminders,
 * invites to an account) is a job whose recipient is known; the job queue asks `quietHold()` before
 * running it, and a job that falls in the recipient's quiet hours is put back until they end
 * (features/jobs `holdUntil`). Mails a person asked for that moment (sign-in and reset codes, the
 * notice of their own email change) are sent by the auth feature directly and never held.
 */
import { DEFAULT_NOTIFICATION_PREFERENCES, type QuietHours } from "@cartner/contract";
import { eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { notificationPreferences } from "../../db/schema.ts";
import type { Clock } from "../../lib/clock.ts";
import { wallClock } from "../../lib/time.ts";

/** Minutes since midnight of "HH:MM". */
const minutesOf = (time: string): number => {
  const [h, m] = time.split(":").map(Number);
  return h! * 60 + m!;
};

/** The wall-clock time at `at` in a time zone, as minutes since midnight. */
export function minutesIn(at: Date, timeZone: string): number {
  const parts = new Intl.DateTimeFormat("en-GB", {
    timeZone,
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).formatToParts(at);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return part("hour") * 60 + part("minute");
}

/**
 * Whether `at` falls in the quiet hours, read on the clock of their time zone: from `from`
 * (included) to `to` (excluded); a span whose `to` is before its `from` wraps midnight
 * (22:00 to 07:00 is quiet at 23:30 and at 06:59, not at 07:00). No quiet hours: never quiet.
 */
export function inQuietHours(quiet: QuietHours | null, at: Date): boolean {
  if (!quiet) return false;
  const now = minutesIn(at, quiet.timeZone);
  const from = minutesOf(quiet.from);
  const to = minutesOf(quiet.to);
  return from < to ? now >= from && now < to : now >= from || now < to;
}

const MINUTE = 60_000;

/**
 * When the quiet hours `at` falls in end: the first instant after it whose wall clock in their
 * zone reads `to` (or, when a spring change skips `to`, where the clock jumps past it), across
 * midnight and daylight saving changes. null when `at` is not quiet.
 */
export function quietHoursEnd(quiet: QuietHours | null, at: Date): Date | null {
  if (!quiet || !inQuietHours(quiet, at)) return null;
  const { timeZone } = quiet;
  // The wall-clock minutes to go, then corrected by any change of offset on the way.
  const wallLeft = (minutesOf(quiet.to) - minutesIn(at, timeZone) + 1440) % 1440;
  let end = Math.floor(at.getTime() / MINUTE) * MINUTE + wallLeft * MINUTE;
  end -= (wallClock(new Date(end), timeZone).offset - wallClock(at, timeZone).offset) * MINUTE;
  // `to` did not exist that night: quiet lasts until the minute the clock jumps over it.
  for (let i = 0; i < 1440 && (end <= at.getTime() || inQuietHours(quiet, new Date(end))); i++) {
    end += MINUTE;
  }
  return new Date(end);
}

/**
 * The rule, for a job about to reach `userId`: the end of their quiet hours when it is quiet for
 * them now, else null (send now). Read when the job runs, so quiet hours chosen after it was
 * queued, and a digest or retry that comes due inside them, hold too.
 */
export async function quietHold(
  deps: { db: Db; clock: Clock },
  userId: string,
): Promise<Date | null> {
  const [row] = await deps.db
    .select({ prefs: notificationPreferences.prefs })
    .from(notificationPreferences)
    .where(eq(notificationPreferences.userId, userId));
  const quiet = (row?.prefs ?? DEFAULT_NOTIFICATION_PREFERENCES).quietHours;
  return quietHoursEnd(quiet, deps.clock.now());
}
