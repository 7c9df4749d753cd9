/**
 * Money on receipts, in mails and reminders: the web app's format (en-US), fixed server-side, in
 * the deployment's currency (CURRENCY). Times are the reader's, by lib/time.ts.
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
