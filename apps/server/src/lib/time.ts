/**
 * An instant in words for mails and error messages, which go to people whose time zone the server
 * does not know: in UTC, said so ("18:00 UTC on Friday 27 November 2026"). Pages show instants in
 * the reader's own zone (docs/decisions/018-time-zones.md).
 */
const UTC_TIME = new Intl.DateTimeFormat("en-GB", {
  timeZone: "UTC",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
});
const UTC_DAY = new Intl.DateTimeFormat("en-GB", {
  timeZone: "UTC",
  weekday: "long",
  day: "numeric",
  month: "long",
  year: "numeric",
});

export function utcInstant(at: Date | string): string {
  const date = new Date(at);
  return `${UTC_TIME.format(date)} UTC on ${UTC_DAY.format(date)}`;
}
