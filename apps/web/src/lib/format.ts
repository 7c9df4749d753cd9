/** Money and dates are always formatted with Intl. */
export const CURRENCY = "USD";

/*
 * Formatters are made on first use: building an Intl formatter loads locale data, which costs tens
 * of milliseconds on a phone, and most pages need only one of them (or none) when they start.
 */
function lazily<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}

const moneyFormatter = lazily(
  () =>
    new Intl.NumberFormat(undefined, {
      style: "currency",
      currency: CURRENCY,
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    }),
);
const dateFormatter = lazily(() => new Intl.DateTimeFormat(undefined, { dateStyle: "medium" }));
const dateTimeFormatter = lazily(
  () => new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" }),
);

export function formatMoney(amount: number): string {
  return moneyFormatter().format(Number.isFinite(amount) ? amount : 0);
}

function toDate(value: string | number | Date): Date | null {
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

export function formatDate(value: string | number | Date): string {
  const date = toDate(value);
  return date ? dateFormatter().format(date) : "";
}

export function formatDateTime(value: string | number | Date): string {
  const date = toDate(value);
  return date ? dateTimeFormatter().format(date) : "";
}

/** "m:ss" for countdowns, e.g. 59 → "0:59". */
export function formatCountdown(totalSeconds: number): string {
  const seconds = Math.max(0, Math.ceil(totalSeconds));
  const minutes = Math.floor(seconds / 60);
  return `${minutes}:${String(seconds % 60).padStart(2, "0")}`;
}
