/**
 * A session's deadline: the instant its cart closes, the
 * reminders before it (minutes before `closesAt`), whether the creator's checkout happens on its
 * own at that instant, and whether it has passed (`locked`: every cart write answers 409
 * CART_LOCKED). An instant, not a wall-clock time: entered in the creator's time zone, shown in
 * each reader's own (docs/decisions/018-time-zones.md).
 */
import { z } from "zod";
import { DEADLINE_REMINDERS_MAX, REMIND_MINUTES_MAX, REMIND_MINUTES_MIN } from "./constants.ts";

export const DeadlineSchema = z.object({
  /** ISO 8601, UTC. */
  closesAt: z.string(),
  /** Minutes before closesAt, largest first. */
  remindAt: z.array(z.number().int()),
  autoCheckout: z.boolean(),
  /** closesAt has passed (by the server's clock): the cart takes no more changes. */
  locked: z.boolean(),
  /** The reminders (minutes before) whose time is still to come, by the server's clock. */
  remindersAhead: z.array(z.number().int()),
  /**
   * When the deadline was set, moved or reopened with a reminder's time already gone: the instant
   * one reminder went at once instead (never several); null when none did.
   */
  remindedOnSetAt: z.string().nullable(),
});
export type Deadline = z.infer<typeof DeadlineSchema>;

/**
 * An instant with its offset ("2026-11-27T18:00:00Z", "2026-11-27T19:00:00+01:00"). Whether it is
 * in the future is the server's to say (its clock), with the same field named.
 */
const closesAt = z.iso.datetime({
  offset: true,
  message: "closesAt is a date and time with its offset (ISO 8601)",
});

const remindAt = z
  .array(
    z
      .number("A reminder is a number of minutes")
      .int("A reminder is a whole number of minutes")
      .min(
        REMIND_MINUTES_MIN,
        `A reminder is ${REMIND_MINUTES_MIN} to ${REMIND_MINUTES_MAX} minutes before`,
      )
      .max(
        REMIND_MINUTES_MAX,
        `A reminder is ${REMIND_MINUTES_MIN} to ${REMIND_MINUTES_MAX} minutes before`,
      ),
  )
  .max(DEADLINE_REMINDERS_MAX, `At most ${DEADLINE_REMINDERS_MAX} reminders`);

/** PUT /sessions/:id/deadline: a deadline, or null to clear it. */
export const SetDeadlineBodySchema = z
  .strictObject({
    closesAt,
    /** Default: 24 h and 1 h before (DEFAULT_REMIND_AT); [] for none. */
    remindAt: remindAt.optional(),
    /** Default false: the creator checks out by hand. */
    autoCheckout: z.boolean("autoCheckout is true or false").optional(),
  })
  .nullable();
export type SetDeadlineBody = z.input<typeof SetDeadlineBodySchema>;

/** POST /sessions/:id/reopen: the new deadline of a cart that closed. */
export const ReopenBodySchema = z.strictObject({ closesAt });
export type ReopenBody = z.input<typeof ReopenBodySchema>;

/** A deadline as stored (closes_at as a Date or as PostgreSQL writes it into JSON). */
export interface StoredDeadline {
  closesAt: Date | string;
  remindAt: readonly number[];
  autoCheckout: boolean;
  remindedOnSetAt?: Date | string | null | undefined;
}

/** When the reminder `minutes` before `closesAt` is due. */
export const reminderTime = (closesAt: Date | string, minutes: number): Date =>
  new Date(new Date(closesAt).getTime() - minutes * 60_000);

/** Has the deadline passed at `now`? From closesAt on, to the millisecond, the cart is closed. */
export function deadlinePassed(closesAt: Date | string, now: Date): boolean {
  return now.getTime() >= new Date(closesAt).getTime();
}

/** The API's Deadline at `now` (the server's clock): closesAt in UTC, reminders largest first. */
export function deadlineAt(stored: StoredDeadline | null, now: Date): Deadline | null {
  if (!stored) return null;
  const remindAt = [...stored.remindAt].sort((a, b) => b - a);
  return {
    closesAt: new Date(stored.closesAt).toISOString(),
    remindAt,
    autoCheckout: stored.autoCheckout,
    locked: deadlinePassed(stored.closesAt, now),
    remindersAhead: remindAt.filter(
      (m) => reminderTime(stored.closesAt, m).getTime() > now.getTime(),
    ),
    remindedOnSetAt: stored.remindedOnSetAt ? new Date(stored.remindedOnSetAt).toISOString() : null,
  };
}
