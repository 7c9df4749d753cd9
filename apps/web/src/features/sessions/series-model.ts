import {
  formatSeriesRule,
  parseSeriesRule,
  type Series,
  type SeriesRule,
  type Weekday,
} from "@cartner/contract";

export const WEEKDAY_NAMES: Record<Weekday, string> = {
  MO: "Monday",
  TU: "Tuesday",
  WE: "Wednesday",
  TH: "Thursday",
  FR: "Friday",
  SA: "Saturday",
  SU: "Sunday",
};

/** What the Repeat form edits: off, weekly on a weekday, or every N days, at a time of day. */
export interface SeriesDraft {
  mode: "off" | "weekly" | "daily";
  weekday: Weekday;
  /** "HH:MM". */
  time: string;
  /** Every N days (daily). */
  days: number;
}

const pad = (n: number) => String(n).padStart(2, "0");

/** The reader's own time zone (where a new series is set). */
export function localTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}

/** The form's starting point: the session's series, else weekly on Friday at 18:00. */
export function draftOf(series: Series | null): SeriesDraft {
  const parsed = series ? parseSeriesRule(series.rule) : null;
  const rule = parsed && "rule" in parsed ? parsed.rule : null;
  if (!rule) return { mode: "off", weekday: "FR", time: "18:00", days: 1 };
  return {
    mode: rule.freq === "WEEKLY" ? "weekly" : "daily",
    weekday: rule.byDay[0] ?? "FR",
    time: `${pad(rule.hour)}:${pad(rule.minute)}`,
    days: rule.freq === "DAILY" ? rule.interval : 1,
  };
}

/** The RRULE the draft sends, or null for "off". */
export function ruleOf(draft: SeriesDraft): string | null {
  if (draft.mode === "off") return null;
  const [hour = 0, minute = 0] = draft.time.split(":").map(Number);
  const rule: SeriesRule = {
    freq: draft.mode === "weekly" ? "WEEKLY" : "DAILY",
    interval: draft.mode === "weekly" ? 1 : draft.days,
    byDay: draft.mode === "weekly" ? [draft.weekday] : [],
    hour,
    minute,
    count: null,
  };
  return formatSeriesRule(rule);
}

function listText(items: string[]): string {
  return items.length <= 1
    ? (items[0] ?? "")
    : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

/** "every Friday at 18:00", "every 3 days at 07:30" (the rule's own time, in its zone). */
export function ruleText(text: string): string {
  const parsed = parseSeriesRule(text);
  if ("error" in parsed) return "on a schedule";
  const { freq, interval, byDay, hour, minute } = parsed.rule;
  const at = `at ${pad(hour)}:${pad(minute)}`;
  if (freq === "DAILY") return interval === 1 ? `every day ${at}` : `every ${interval} days ${at}`;
  const days = listText(byDay.map((d) => WEEKDAY_NAMES[d]));
  return interval === 1 ? `every ${days} ${at}` : `every ${interval} weeks on ${days} ${at}`;
}

/** "Repeats every Friday at 18:00 · next 5 Dec" (the next start in the reader's own zone). */
export function seriesSentence(series: Series): string {
  const next = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short" }).format(
    new Date(series.nextAt),
  );
  return `Repeats ${ruleText(series.rule)} · next ${next}`;
}
