import { formatMoney, getCurrency } from "../../lib/format.ts";

/*
 * Made on first use, as in lib/format.ts: the first Intl formatter of a page loads the locale's
 * data (about 70 ms on Lighthouse's throttled phone), which made evaluating this chunk a long task
 * of its own.
 */
let wholeMoneyFormatter: { currency: string; format: Intl.NumberFormat } | undefined;
let countFormatter: Intl.NumberFormat | undefined;
let ratingFormatter: Intl.NumberFormat | undefined;

/** Money without cents, for the price slider's whole-unit values: 1000 → "$1,000". */
export function formatWholeMoney(amount: number): string {
  const currency = getCurrency();
  if (wholeMoneyFormatter?.currency !== currency) {
    const format = new Intl.NumberFormat(undefined, {
      style: "currency",
      currency,
      maximumFractionDigits: 0,
    });
    wholeMoneyFormatter = { currency, format };
  }
  return wholeMoneyFormatter.format.format(Number.isFinite(amount) ? amount : 0);
}

/** 1234 → "1,234". */
export function formatCount(count: number): string {
  countFormatter ??= new Intl.NumberFormat(undefined);
  return countFormatter.format(count);
}

/** 4.5 → "4.5", 4 → "4". */
export function formatRating(rating: number): string {
  ratingFormatter ??= new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });
  return ratingFormatter.format(rating);
}

/**
 * Makes the grid's formatters now. The products page calls it in a task of its own while its list
 * is on the way, so that loading the locale data does not lengthen the task that draws the cards.
 */
export function prepareGridFormatters(): void {
  formatCount(0);
  formatRating(0);
  formatMoney(0);
}

/** "1 review", "12 reviews". */
export function reviewsLabel(count: number): string {
  return `${formatCount(count)} ${count === 1 ? "review" : "reviews"}`;
}
