import type { Balance, Order, OrderShare, SettlementKind } from "@cartner/contract";
import { formatMoney } from "../../lib/format.ts";

export const NO_ORDERS_MESSAGE = "No orders yet.";
export const SETTLED_UP_MESSAGE = "You're all settled up.";
export const ORDER_NOT_FOUND = "Order not found";
export const PAID_BUTTON = "I've paid my share";
export const CONFIRM_BUTTON = "Confirm received";
export const CASH_BUTTON = "Paid in cash";
export const WRITE_OFF_BUTTON = "Write off";
/** Marks a share whose member has deleted their account. */
export const DELETED_USER = "Deleted user";

export const STATUS_LABEL: Record<OrderShare["status"], string> = {
  unpaid: "Unpaid",
  paid: "Paid, awaiting confirmation",
  confirmed: "Confirmed",
};

export const STATUS_TONE = {
  unpaid: "neutral",
  paid: "accent",
  confirmed: "success",
} as const;

/** How a confirmed share was settled, as the order page and the receipt say it. */
export const SETTLED_LABEL: Record<SettlementKind, string> = {
  transfer: "Confirmed",
  cash: "Paid in cash",
  written_off: "Written off",
};

/** A share's badge: unpaid, paid, or how it was settled. */
export function shareStatusLabel(share: Pick<OrderShare, "status" | "settledAs">): string {
  return share.status === "confirmed"
    ? SETTLED_LABEL[share.settledAs ?? "transfer"]
    : STATUS_LABEL[share.status];
}

/** My share of an order, if I have one. */
export function myShare(order: Order, userId: string | undefined): OrderShare | undefined {
  return order.split.find((share) => share.userId === userId);
}

/** One line on who owes whom: "Ben owes you $12.50", "You owe Ann $12.50", or settled. */
export function balanceSentence(balance: Balance): string {
  const name = balance.user.name;
  if (balance.amount > 0) return `${name} owes you ${formatMoney(balance.amount)}`;
  if (balance.amount < 0) return `You owe ${name} ${formatMoney(-balance.amount)}`;
  return `You and ${name} are even`;
}

/** A receipt's file name, as the server names it. */
/**
 * My shares still to pay: orders where I owe the payee and have not said I paid. The payee's own
 * share is not one (they paid the shop).
 */
export function unpaidShareCount(orders: readonly Order[], userId: string | undefined): number {
  return orders.filter((order) => {
    const mine = myShare(order, userId);
    return mine !== undefined && mine.userId !== order.payee._id && mine.status === "unpaid";
  }).length;
}

/** "1 share to pay", "3 shares to pay". */
export const sharesToPayLabel = (count: number) =>
  `${count} ${count === 1 ? "share" : "shares"} to pay`;
