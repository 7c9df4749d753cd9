/**
 * A deadline in words, in the reader's own time zone (docs/decisions/018-time-zones.md): the
 * server stores an instant; each browser shows it with Intl in its zone, and the creator's
 * date-and-time input is read in theirs. Pure functions, no zod: the lobby and the cart page
 * use them.
 */
import type { Deadline } from "@cartner/contract";
import { browserTimeZone } from "../lib/time-zones.ts";

/** The browser's IANA time zone ("Europe/Vienna"); "UTC" when it does not say. */
export const localTimeZone = browserTimeZone;

/** "Fri, Nov 27, 6:00 PM GMT+1": the instant in the reader's zone (or `timeZone`), named. */
export function formatDeadline(iso: string, timeZone?: string): string {
  return new Intl.DateTimeFormat(undefined, {
    weekday: "short",
    month: "short",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
    timeZoneName: "short",
    ...(timeZone ? { timeZone } : {}),
  }).format(new Date(iso));
}

/** "in 3 days", "in 5 h", "in 25 min", "in less than a minute" (rounded down). */
export function timeLeft(iso: string, now: number = Date.now()): string {
  const minutes = Math.floor((new Date(iso).getTime() - now) / 60_000);
  if (minutes < 1) return "in less than a minute";
  if (minutes < 60) return `in ${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `in ${hours} h`;
  return `in ${Math.floor(hours / 24)} days`;
}

/** "closes in 3 h" until the deadline; null once it has passed. */
export function closesInText(iso: string, now: number = Date.now()): string | null {
  return isPast(iso, now) ? null : `closes ${timeLeft(iso, now)}`;
}

export function isPast(iso: string, now: number = Date.now()): boolean {
  return now >= new Date(iso).getTime();
}

/** Closed: the server says so, or its time has come on this device's clock already. */
export function isClosed(deadline: Deadline | null | undefined, now: number = Date.now()) {
  return Boolean(deadline && (deadline.locked || isPast(deadline.closesAt, now)));
}

/** What a closed cart says, everywhere: "The cart closed at Fri, Nov 27, 6:00 PM GMT+1." */
export function closedText(iso: string, timeZone?: string): string {
  return `The cart closed at ${formatDeadline(iso, timeZone)}.`;
}

/** "The cart closes Fri, Nov 27, 6:00 PM GMT+1" for an open cart. */
export function closesText(iso: string, timeZone?: string): string {
  return `The cart closes ${formatDeadline(iso, timeZone)}`;
}

/**
 * What a member reads of a closed cart the server checks out at its deadline ("6:00 PM" in the
 * reader's zone). An empty cart is not checked out: it waits for the creator.
 */
export function autoCheckoutText(iso: string): string {
  const time = new Intl.DateTimeFormat(undefined, { hour: "numeric", minute: "2-digit" }).format(
    new Date(iso),
  );
  return `Nothing can be added or changed. It is checked out automatically at ${time}, unless it is empty.`;
}

/** "1 week", "2 days", "24 h", "3 h", "1 h", "15 min" (minutes before the deadline). */
export function reminderLabel(minutes: number): string {
  if (minutes % (7 * 24 * 60) === 0) {
    const weeks = minutes / (7 * 24 * 60);
    return weeks === 1 ? "1 week" : `${weeks} weeks`;
  }
  if (minutes > 24 * 60 && minutes % (24 * 60) === 0) return `${minutes / (24 * 60)} days`;
  if (minutes % 60 === 0) return `${minutes / 60} h`;
  if (minutes > 60) return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
  return `${minutes} min`;
}

/** "2 days and 15 min" (largest first). */
function reminderList(minutes: readonly number[]): string {
  const labels = [...minutes].sort((a, b) => b - a).map(reminderLabel);
  return labels.length === 1
    ? labels[0]!
    : `${labels.slice(0, -1).join(", ")} and ${labels.at(-1)}`;
}

/**
 * The reminders as the Deadline card states them: which there are, which are still to come (by
 * the server's `remindersAhead`; all, in an answer cached before it had them), and, when the
 * deadline was set with some reminders' times already gone, that one reminder went at once.
 */
export function reminderStatus(
  deadline: Pick<Deadline, "closesAt" | "remindAt"> &
    Partial<Pick<Deadline, "remindersAhead" | "remindedOnSetAt">>,
  timeZone?: string,
): { plan: string; sentAtOnce: string | null } {
  const { remindAt } = deadline;
  if (remindAt.length === 0) return { plan: "No reminders.", sentAtOnce: null };
  const ahead = deadline.remindersAhead ?? remindAt;
  const plan = `Reminders ${reminderList(remindAt)} before to members who have not marked themselves done.`;
  const still =
    ahead.length === remindAt.length
      ? ""
      : ahead.length === 0
        ? " None still to come."
        : ` Still to come: ${reminderList(ahead)} before.`;
  const sentAt = deadline.remindedOnSetAt;
  if (!sentAt) return { plan: plan + still, sentAtOnce: null };
  const closesAt = new Date(deadline.closesAt).getTime();
  const gone = remindAt.filter((m) => closesAt - m * 60_000 <= new Date(sentAt).getTime());
  const which =
    gone.length === 1
      ? `the ${reminderLabel(gone[0]!)} reminder's time had`
      : `the ${reminderList(gone)} reminders' times had`;
  return {
    plan: plan + still,
    sentAtOnce: `When the deadline was set, ${which} already passed: one reminder went out at once, ${formatDeadline(sentAt, timeZone)}.`,
  };
}

const pad = (n: number) => String(n).padStart(2, "0");

/** An instant as a `datetime-local` input's value in this browser's zone ("2026-11-27T18:00"). */
export function toLocalInput(iso: string | number | Date): string {
  const d = new Date(iso);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/**
 * A `datetime-local` value read in this browser's zone, as the instant the API takes (ISO, UTC);
 * null when empty or not a time. A local time skipped by a daylight saving change moves forward.
 */
export function fromLocalInput(value: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value)) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}
