/**
 * Time zones: deadlines and quiet hours are read in a person's IANA zone, series occur in the
 * creator's (docs/decisions/018-time-zones.md). Zod-free: the web checks names with it too.
 */

/** Whether this runtime knows an IANA time zone name ("Europe/Paris", "UTC"). */
export function isTimeZone(name: string): boolean {
  if (name.length === 0 || name.length > 64 || !/^[A-Za-z0-9_+\-/]+$/.test(name)) return false;
  try {
    new Intl.DateTimeFormat("en", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/**
 * A known zone's canonical name ("europe/berlin" becomes "Europe/Berlin", as Intl resolves it);
 * null for a name this runtime does not know.
 */
export function canonicalTimeZone(name: string): string | null {
  if (!isTimeZone(name)) return null;
  return new Intl.DateTimeFormat("en", { timeZone: name }).resolvedOptions().timeZone;
}
