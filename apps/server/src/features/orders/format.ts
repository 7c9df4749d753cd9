/** Money and dates on receipts and in mails: the web app's formats (USD, en-US), fixed server-side. */
const money = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
const dateTime = new Intl.DateTimeFormat("en-US", {
  dateStyle: "medium",
  timeStyle: "short",
  timeZone: "UTC",
});

export const formatMoney = (amount: number): string => money.format(amount);
export const formatDateTime = (iso: string): string => `${dateTime.format(new Date(iso))} UTC`;

export const STATUS_LABEL = { unpaid: "Unpaid", paid: "Paid", confirmed: "Confirmed" } as const;
