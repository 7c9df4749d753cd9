import { CURRENCY } from "../../lib/format.ts";

const wholeMoneyFormatter = new Intl.NumberFormat(undefined, {
  style: "currency",
  currency: CURRENCY,
  maximumFractionDigits: 0,
});

const countFormatter = new Intl.NumberFormat(undefined);

const ratingFormatter = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });

/** Money without cents, for the price slider's whole-unit values: 1000 → "$1,000". */
export function formatWholeMoney(amount: number): string {
  return wholeMoneyFormatter.format(Number.isFinite(amount) ? amount : 0);
}

/** 1234 → "1,234". */
export function formatCount(count: number): string {
  return countFormatter.format(count);
}

/** 4.5 → "4.5", 4 → "4". */
export function formatRating(rating: number): string {
  return ratingFormatter.format(rating);
}

/** "1 review", "12 reviews". */
export function reviewsLabel(count: number): string {
  return `${formatCount(count)} ${count === 1 ? "review" : "reviews"}`;
}
