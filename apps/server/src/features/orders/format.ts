import { nothingToPay, type OrderShare } from "@cartner/contract";

/**
 * Money on receipts and in mails: the web app's format (en-US), fixed server-side, in the
 * deployment's currency (CURRENCY). Times are the reader's, by lib/time.ts.
 */
const moneyFormats = new Map<string, Intl.NumberFormat>();

/** "$12.40" (USD), "€12.40" (EUR): an amount in currency units, in that ISO 4217 currency. */
export function formatMoney(amount: number, currency: string): string {
  let format = moneyFormats.get(currency);
  if (!format) {
    format = new Intl.NumberFormat("en-US", { style: "currency", currency });
    moneyFormats.set(currency, format);
  }
  return format.format(amount);
}

export const STATUS_LABEL = { unpaid: "Unpaid", paid: "Paid", confirmed: "Confirmed" } as const;

/** How a confirmed share was settled, as receipts say it (the web app's words). */
export const SETTLED_LABEL = {
  transfer: "Confirmed",
  cash: "Paid in cash",
  written_off: "Written off",
} as const;

/** A share's status on a receipt: "Unpaid", "Paid", "Nothing to pay", or how it was settled. */
export function shareStatusLabel(
  share: Pick<OrderShare, "status" | "settledAs" | "total" | "paid">,
): string {
  if (share.settledAs === null && nothingToPay(share)) return "Nothing to pay";
  return share.status === "confirmed"
    ? SETTLED_LABEL[share.settledAs ?? "transfer"]
    : STATUS_LABEL[share.status];
}
