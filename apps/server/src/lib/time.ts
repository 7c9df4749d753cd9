/**
 * Instants in words for what the server sends a person (mails, notifications, pushes, receipts,
 * CSV): on the wall clock of the reader's IANA time zone, always with the zone's name, so "21:25
 * (Europe/Berlin)" can be read by someone elsewhere too (decision 040). The name is the IANA one:
 * abbreviations exist for few zones in any one locale ("CET" in en-GB, "EST" in en-US, "GMT+9"
 * for Tokyo in both) and some are ambiguous ("CST"). The same instant is the same words in every
 * process, whatever the server's own zone. A zone this runtime does not know (its rules dropped by
 * an ICU update) is read as UTC, named so.
 */

interface Formats {
  zone: string;
  time: Intl.DateTimeFormat;
  day: Intl.DateTimeFormat;
  short: Intl.DateTimeFormat;
  parts: Intl.DateTimeFormat;
}

const cache = new Map<string, Formats>();

function formatsOf(timeZone: string): Formats {
  let formats = cache.get(timeZone);
  if (formats) return formats;
  let zone = timeZone;
  try {
    new Intl.DateTimeFormat("en-GB", { timeZone });
  } catch {
    zone = "UTC";
  }
  formats = {
    zone,
    time: new Intl.DateTimeFormat("en-GB", {
      timeZone: zone,
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    }),
    day: new Intl.DateTimeFormat("en-GB", {
      timeZone: zone,
      weekday: "long",
      day: "numeric",
      month: "long",
      year: "numeric",
    }),
    short: new Intl.DateTimeFormat("en-GB", {
      timeZone: zone,
      day: "numeric",
      month: "short",
      year: "numeric",
    }),
    parts: new Intl.DateTimeFormat("en-CA", {
      timeZone: zone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
    }),
  };
  cache.set(timeZone, formats);
  return formats;
}

/** "21:25 (Europe/Berlin) on Thursday 26 November 2026": for sentences in mails and notices. */
export function zonedInstant(at: Date | string, timeZone: string): string {
  const date = new Date(at);
  const f = formatsOf(timeZone);
  return `${f.time.format(date)} (${f.zone}) on ${f.day.format(date)}`;
}

/** "26 Nov 2026, 21:25 (Europe/Berlin)": for the receipt's lines and tables. */
export function zonedDateTime(at: Date | string, timeZone: string): string {
  const date = new Date(at);
  const f = formatsOf(timeZone);
  return `${f.short.format(date)}, ${f.time.format(date)} (${f.zone})`;
}

/**
 * "2026-11-26T21:25:00+01:00": ISO 8601 to the second on the zone's wall clock with its offset
 * (the same instant as the UTC form; "Z" in UTC), for CSV a spreadsheet shows as the reader's time.
 */
export function zonedIso(at: Date | string, timeZone: string): string {
  const { wall, offset } = wallClock(at, timeZone);
  if (offset === 0) return `${wall}Z`;
  const sign = offset < 0 ? "-" : "+";
  const abs = Math.abs(offset);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${wall}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/**
 * The zone's wall clock at `at`, to the second ("2026-11-26T21:25:07"), and how far it is ahead
 * of UTC then, in minutes (60 in Berlin in winter, -300 in New York).
 */
export function wallClock(at: Date | string, timeZone: string): { wall: string; offset: number } {
  const date = new Date(Math.floor(new Date(at).getTime() / 1000) * 1000);
  // UTC's wall clock is the ISO form itself: no formatter (a CSV of every order asks for hundreds).
  if (timeZone === "UTC") return { wall: date.toISOString().slice(0, 19), offset: 0 };
  const parts = formatsOf(timeZone).parts.formatToParts(date);
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    parts.find((p) => p.type === type)?.value ?? "00";
  const wall = `${part("year")}-${part("month")}-${part("day")}T${part("hour")}:${part("minute")}:${part("second")}`;
  return { wall, offset: Math.round((Date.parse(`${wall}Z`) - date.getTime()) / 60_000) };
}

/**
 * An instant in UTC, named: for answers to a caller whose zone the code at hand does not read (a
 * cart write refused after the deadline; the web words it in the reader's zone itself).
 */
export const utcInstant = (at: Date | string): string => zonedInstant(at, "UTC");
