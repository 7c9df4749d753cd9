import type { QuietHours } from "@cartner/contract";

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
