/**
 * The browser's time zone and the zones a person can choose from (quiet hours, their account's
 * zone), by the browser's own Intl; zod-free.
 */

/** The browser's IANA time zone ("Europe/Vienna"); "UTC" when it does not say. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}

/**
 * Every IANA zone this browser knows, with "UTC" (which some engines leave out of the list) and
 * `current` (a zone chosen elsewhere), sorted by name.
 */
export function timeZoneChoices(current: string): string[] {
  const known =
    typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  return [...new Set([...known, "UTC", current])].sort((a, b) => a.localeCompare(b));
}
