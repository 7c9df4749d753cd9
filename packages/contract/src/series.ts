/**
 * Recurring sessions: a session can repeat on a rule (an RFC 5545 RRULE, daily or weekly, at a
 * time of day in an IANA time zone). The next session starts when the current one is checked out,
 * or at the next occurrence if none was. The rule is parsed here, once, for the server (which
 * validates bodies with SeriesBodySchema) and the web (which words it).
 */
import { z } from "zod";
import { isTimeZone } from "./time-zones.ts";

export const SERIES_FREQUENCIES = ["DAILY", "WEEKLY"] as const;
export type SeriesFrequency = (typeof SERIES_FREQUENCIES)[number];
export const WEEKDAYS = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"] as const;
export type Weekday = (typeof WEEKDAYS)[number];
/** Every 1 to 52 days or weeks. */
export const SERIES_INTERVAL_MAX = 52;
/** A rule with COUNT repeats at most this many times (five years of weeks). */
export const SERIES_COUNT_MAX = 260;

/** A series' rule, as the parts this app allows. */
export interface SeriesRule {
  freq: SeriesFrequency;
  interval: number;
  /** WEEKLY: the weekdays it falls on (empty for DAILY). */
  byDay: Weekday[];
  hour: number;
  minute: number;
  /** How many sessions in all, or null for no end. */
  count: number | null;
}

const PARTS = new Set(["FREQ", "INTERVAL", "BYDAY", "BYHOUR", "BYMINUTE", "COUNT", "WKST"]);

function wholeNumber(text: string | undefined): number | null {
  return text !== undefined && /^\d{1,4}$/.test(text) ? Number(text) : null;
}

/** A time of day, 0..23 and 0..59. */
export interface TimeOfDay {
  hour: number;
  minute: number;
}

/**
 * Reads an RRULE value ("FREQ=WEEKLY;INTERVAL=1;BYDAY=FR;BYHOUR=18;BYMINUTE=0", optionally
 * prefixed "RRULE:"); answers the rule, or why it is refused. A rule without BYHOUR or BYMINUTE
 * takes that part from `timeOfDay` (as RFC 5545 takes it from DTSTART: the server passes the
 * session's time of day); without `timeOfDay` both are required.
 */
export function parseSeriesRule(
  text: string,
  timeOfDay?: TimeOfDay,
): { rule: SeriesRule } | { error: string } {
  const body = text.trim().replace(/^RRULE:/i, "");
  if (body.length === 0 || body.length > 200) return { error: "A rule is 1 to 200 characters" };
  const parts = new Map<string, string>();
  for (const part of body.split(";")) {
    const [key, value, extra] = part.split("=");
    const name = key?.trim().toUpperCase() ?? "";
    if (!PARTS.has(name) || value === undefined || extra !== undefined) {
      return { error: `Unsupported rule part: ${part.slice(0, 40)}` };
    }
    if (parts.has(name)) return { error: `${name} is given twice` };
    parts.set(name, value.trim().toUpperCase());
  }
  const freq = parts.get("FREQ");
  if (freq !== "DAILY" && freq !== "WEEKLY") return { error: "FREQ is DAILY or WEEKLY" };
  const interval = parts.has("INTERVAL") ? wholeNumber(parts.get("INTERVAL")) : 1;
  if (interval === null || interval < 1 || interval > SERIES_INTERVAL_MAX) {
    return { error: `INTERVAL is 1 to ${SERIES_INTERVAL_MAX}` };
  }
  const hour = parts.has("BYHOUR") ? wholeNumber(parts.get("BYHOUR")) : (timeOfDay?.hour ?? null);
  if (hour === null || hour > 23) return { error: "BYHOUR is one hour, 0 to 23" };
  const minute = parts.has("BYMINUTE")
    ? wholeNumber(parts.get("BYMINUTE"))
    : (timeOfDay?.minute ?? null);
  if (minute === null || minute > 59) return { error: "BYMINUTE is one minute, 0 to 59" };
  let byDay: Weekday[] = [];
  if (parts.has("BYDAY")) {
    if (freq !== "WEEKLY") return { error: "BYDAY goes with FREQ=WEEKLY" };
    const days = parts.get("BYDAY")!.split(",");
    if (days.some((d) => !(WEEKDAYS as readonly string[]).includes(d))) {
      return { error: "BYDAY lists weekdays: MO, TU, WE, TH, FR, SA, SU" };
    }
    if (new Set(days).size !== days.length) return { error: "BYDAY names each weekday once" };
    byDay = WEEKDAYS.filter((d) => days.includes(d));
  } else if (freq === "WEEKLY") {
    return { error: "A weekly rule names its weekday (BYDAY)" };
  }
  let count: number | null = null;
  if (parts.has("COUNT")) {
    count = wholeNumber(parts.get("COUNT"));
    if (count === null || count < 1 || count > SERIES_COUNT_MAX) {
      return { error: `COUNT is 1 to ${SERIES_COUNT_MAX}` };
    }
  }
  const wkst = parts.get("WKST");
  if (wkst !== undefined && wkst !== "MO") return { error: "WKST is MO when given" };
  return { rule: { freq, interval, byDay, hour, minute, count } };
}

/** The rule's canonical RRULE value (what is stored and answered). */
export function formatSeriesRule(rule: SeriesRule): string {
  return [
    `FREQ=${rule.freq}`,
    `INTERVAL=${rule.interval}`,
    ...(rule.byDay.length > 0 ? [`BYDAY=${rule.byDay.join(",")}`] : []),
    `BYHOUR=${rule.hour}`,
    `BYMINUTE=${rule.minute}`,
    ...(rule.count !== null ? [`COUNT=${rule.count}`] : []),
  ].join(";");
}

/**
 * PUT /sessions/:id/series: the rule and its time zone, or null to end the series. A rule without
 * BYHOUR/BYMINUTE keeps the session's time of day in that zone (the server fills it in, so any
 * time checks the rest here).
 */
export const SeriesBodySchema = z
  .strictObject({
    rule: z
      .string()
      .max(200, "A rule is 1 to 200 characters")
      .superRefine((text, ctx) => {
        const parsed = parseSeriesRule(text, { hour: 0, minute: 0 });
        if ("error" in parsed) ctx.addIssue({ code: "custom", message: parsed.error });
      }),
    timeZone: z
      .string()
      .max(64, "Not a known time zone")
      .refine(isTimeZone, "Not a known time zone (an IANA name such as Europe/Paris)"),
  })
  .nullable();
export type SeriesBody = z.infer<typeof SeriesBodySchema>;

/** A session's series: its rule, time zone, and when the next session starts (ISO). */
export const SeriesSchema = z.object({
  rule: z.string(),
  timeZone: z.string(),
  nextAt: z.string(),
});
export type Series = z.infer<typeof SeriesSchema>;

/** PUT /carts/:cartId/lines/:lineId/staple. */
export const StapleBodySchema = z.strictObject({ staple: z.boolean() });

/** Why a staple line was not carried into the next session. */
export const DROPPED_REASONS = ["missing", "out_of_stock", "adder_gone"] as const;
export type DroppedReason = (typeof DROPPED_REASONS)[number];
