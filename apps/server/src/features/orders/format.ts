import type { OrderShare } from "@cartner/contract";

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

/** How a confirmed share was settled, as receipts say it (the web app's words). */
export const SETTLED_LABEL = {
  transfer: "Confirmed",
  cash: "Paid in cash",
  written_off: "Written off",
} as const;

/** A share's status on a receipt: "Unpaid", "Paid", or how it was settled. */
export function shareStatusLabel(share: Pick<OrderShare, "status" | "settledAs">): string {
  return share.status === "confirmed"
    ? SETTLED_LABEL[share.settledAs ?? "transfer"]
    : STATUS_LABEL[share.status];
}
