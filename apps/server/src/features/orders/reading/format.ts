import { nothingToPay, type OrderShare } from "@cartner/contract";

/** A share's status in words, on receipts and in mails (amounts: lib/money.ts). */
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
