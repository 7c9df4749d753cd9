/**
 * When a series' sessions start: its rule read by rrule-temporal (the RFC 5545 recurrence library
 * pg-boss itself uses, on a Temporal implementation of its own, so IANA zones and their daylight
 * saving changes are right on Node 24 without a global Temporal). A rule is evaluated from its
 * anchor (DTSTART: midnight, in the series' time zone, of the day it was set), which fixes the
 * phase of INTERVAL and where COUNT counts from.
 */
import {
  formatSeriesRule,
  parseSeriesRule,
  type SeriesRule,
  type TimeOfDay,
} from "@cartner/contract";
import { RRuleTemporal } from "rrule-temporal";

/** The wall-clock date and time of `at` in `timeZone`. */
function wallClock(at: Date, timeZone: string) {
  const parts = new Intl.DateTimeFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
  }).formatToParts(at);
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    parts.find((p) => p.type === type)?.value ?? "00";
  return {
    date: `${part("year")}${part("month")}${part("day")}`,
    time: `${part("hour")}${part("minute")}${part("second")}`,
  };
}

/** The hour and minute of `at` on the wall clock of `timeZone`. */
export function timeOfDayIn(at: Date, timeZone: string): TimeOfDay {
  const { time } = wallClock(at, timeZone);
  return { hour: Number(time.slice(0, 2)), minute: Number(time.slice(2, 4)) };
}

/**
 * The rule's canonical text, with BYHOUR and BYMINUTE always stated (a rule without them takes
 * `timeOfDay`'s); throws on a rule the contract refuses (bodies are checked first).
 */
export function canonicalRule(
  text: string,
  timeOfDay?: TimeOfDay,
): { text: string; rule: SeriesRule } {
  const parsed = parseSeriesRule(text, timeOfDay);
  if ("error" in parsed) throw new Error(`series rule refused: ${parsed.error}`);
  return { text: formatSeriesRule(parsed.rule), rule: parsed.rule };
}

/**
 * The anchor of a series set at `now`: the first instant of that day in its time zone (found by
 * the rule itself, which has no occurrence before it, so no offset arithmetic here).
 */
export function anchorOf(now: Date, timeZone: string): Date {
  const { date } = wallClock(now, timeZone);
  const rule = new RRuleTemporal({
    rruleString: `DTSTART;TZID=${timeZone}:${date}T000000\nRRULE:FREQ=DAILY;COUNT=1`,
  });
  const first = rule.all()[0];
  return first ? new Date(first.epochMilliseconds) : now;
}

/** The first occurrence strictly after `after`, or null when the rule has no more (COUNT). */
export function nextOccurrence(
  ruleText: string,
  timeZone: string,
  anchor: Date,
  after: Date,
): Date | null {
  const { text } = canonicalRule(ruleText);
  const start = wallClock(anchor, timeZone);
  const rule = new RRuleTemporal({
    rruleString: `DTSTART;TZID=${timeZone}:${start.date}T${start.time}\nRRULE:${text}`,
  });
  const next = rule.next(after, false);
  return next ? new Date(next.epochMilliseconds) : null;
}

/** The instant of a wall-clock date and time in `timeZone` (a skipped time moves forward). */
function instantOf(date: string, time: string, timeZone: string): Date {
  const rule = new RRuleTemporal({
    rruleString: `DTSTART;TZID=${timeZone}:${date}T${time}\nRRULE:FREQ=DAILY;COUNT=1`,
  });
  const first = rule.all()[0];
  if (!first) throw new Error(`no instant for ${date}T${time} in ${timeZone}`);
  return new Date(first.epochMilliseconds);
}

/** Calendar days from one "YYYYMMDD" to another. */
function daysBetween(from: string, to: string): number {
  const utc = (d: string) => Date.UTC(+d.slice(0, 4), +d.slice(4, 6) - 1, +d.slice(6, 8));
  return Math.round((utc(to) - utc(from)) / (24 * 3600 * 1000));
}

/**
 * Where a deadline lands in the next session of a series: as many days before (or after) that
 * session's next start as it was before the old one's, at the same wall-clock time in the
 * series' zone. Friday 12:00 before a Saturday 09:00 start is Friday 12:00 a week later, also
 * across a daylight saving change (decision 018).
 */
export function carriedDeadline(
  closesAt: Date,
  oldNextAt: Date,
  newNextAt: Date,
  timeZone: string,
): Date {
  const closes = wallClock(closesAt, timeZone);
  const shift = daysBetween(
    wallClock(oldNextAt, timeZone).date,
    wallClock(newNextAt, timeZone).date,
  );
  const day = new Date(
    Date.UTC(
      +closes.date.slice(0, 4),
      +closes.date.slice(4, 6) - 1,
      +closes.date.slice(6, 8) + shift,
    ),
  );
  const date = day.toISOString().slice(0, 10).replaceAll("-", "");
  return instantOf(date, closes.time, timeZone);
}
