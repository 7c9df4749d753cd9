import { getStoredCurrency, setStoredCurrency } from "./storage.ts";

/**
 * Money and dates are always formatted with Intl. Every amount is in the deployment's currency
 * (the server's CURRENCY, from GET /api/config): remembered from the last visit so the first
 * paint is right, USD until the server has said.
 */
export const DEFAULT_CURRENCY = "USD";
let currency = validCurrency(getStoredCurrency()) ?? DEFAULT_CURRENCY;
const currencyListeners = new Set<() => void>();

/**
 * The code when Intl can format it, else null (a stored value may be anything). Intl takes any
 * three-letter code (ECMA-402's well-formed currency code), so the shape is the whole check: making
 * a formatter to find out loaded the locale's data (tens of milliseconds on a phone) while the
 * app's first script ran.
 */
function validCurrency(code: string | null): string | null {
  return code !== null && /^[A-Z]{3}$/.test(code) ? code : null;
}

export const getCurrency = (): string => currency;

/** What the server said; a change drops the formatters and tells subscribers (the layout redraws). */
export function setCurrency(code: string): void {
  const valid = validCurrency(code);
  if (valid === null || valid === currency) return;
  currency = valid;
  moneyFormatter.reset();
  setStoredCurrency(valid);
  for (const listener of currencyListeners) listener();
}

export function subscribeCurrency(listener: () => void): () => void {
  currencyListeners.add(listener);
  return () => currencyListeners.delete(listener);
}

/*
 * Formatters are made on first use: building an Intl formatter loads locale data, which costs tens
 * of milliseconds on a phone, and most pages need only one of them (or none) when they start.
 */
function lazily<T>(make: () => T): (() => T) & { reset(): void } {
  let value: T | undefined;
  return Object.assign(() => (value ??= make()), {
    reset: () => {
      value = undefined;
    },
  });
}

const moneyFormatter = lazily(
  () =>
    new Intl.NumberFormat(undefined, {
      style: "currency",
      currency,
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    }),
);
const dateFormatter = lazily(() => new Intl.DateTimeFormat(undefined, { dateStyle: "medium" }));
const dateTimeFormatter = lazily(
  () => new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" }),
);

/**
 * Makes the money formatter, and the date formatter where the page shows dates, now. The first
 * Intl formatter of a page loads the locale's data: 20 to 90 ms at full speed on this VM, one task
 * that no code can split, and several times that on a slow phone. A signed-in page (no HTML of its
 * own: nothing is on screen until React's first commit) calls it while the entry runs and its
 * first requests are on the way, so that load happens before anything is drawn rather than as a
 * long task in the way of the reader's first tap.
 */
export function prepareFormatters(withDates: boolean): void {
  moneyFormatter();
  if (withDates) dateFormatter();
}

/** The currency's name in the plural, for hints: "US dollars", "euros". */
export function currencyName(): string {
  const parts = new Intl.NumberFormat("en-US", {
    style: "currency",
    currency,
    currencyDisplay: "name",
  }).formatToParts(2);
  return parts.find((part) => part.type === "currency")?.value ?? currency;
}

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
