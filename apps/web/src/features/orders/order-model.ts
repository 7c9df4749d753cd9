import {
  can,
  isSettled,
  nothingToPay,
  toCents,
  type AdjustmentKind,
  type Balance,
  type Order,
  type OrderShare,
  type SettlementKind,
} from "@cartner/contract";
import { formatMoney } from "../../lib/format.ts";

export const NO_ORDERS_MESSAGE = "No orders yet.";
export const SETTLED_UP_MESSAGE = "You're all settled up.";
export const ORDER_NOT_FOUND = "Order not found";
export const PAID_BUTTON = "I've paid my share";
export const CONFIRM_BUTTON = "Confirm received";
export const CASH_BUTTON = "Paid in cash";
export const WRITE_OFF_BUTTON = "Write off";
/** A share adjusted to nothing with nothing paid: settled (isSettled). */
export const NOTHING_TO_PAY = "Nothing to pay";
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

/** A share's badge tone: a settled share (isSettled) looks settled. */
export const shareTone = (share: Pick<OrderShare, "status" | "settledAs" | "total" | "paid">) =>
  share.settledAs === "written_off"
    ? "neutral"
    : STATUS_TONE[isSettled(share) ? "confirmed" : share.status];

/** The member may say they paid: the share is unpaid and not settled (isSettled). */
export const canSayPaid = (share: Pick<OrderShare, "status" | "total" | "paid">) =>
  share.status === "unpaid" && !isSettled(share);

/** A share's badge: unpaid, paid, nothing to pay, or how it was settled. */
export function shareStatusLabel(
  share: Pick<OrderShare, "status" | "settledAs" | "total" | "paid">,
): string {
  if (share.settledAs === null && nothingToPay(share)) return NOTHING_TO_PAY;
  return share.status === "confirmed"
    ? SETTLED_LABEL[share.settledAs ?? "transfer"]
    : STATUS_LABEL[share.status];
}

/**
 * A payer whose share is open only because they owe someone a credit back (two payers of the
 * order who owe each other: the other paid them beyond their part). Their share is paid; what is
 * open is the other's credit.
 */
export function owesOnlyCredits(order: Order, userId: string): boolean {
  const owesBack = order.parts.some((p) => p.payer === userId && p.credit > 0);
  const owesPart = order.parts.some((p) => p.debtor === userId && p.open > 0);
  return owesBack && !owesPart;
}

/** The money fields of an order's part. */
export type PartCents = "open" | "credit" | "claimed" | "claimedBack";

/** A payer without a share who owes the reader on the order, and what (cents). */
export interface OwedWithoutShare {
  userId: string;
  name: string;
  /** What they owe the reader: parts they owe still open, and credits they owe back. */
  owed: number;
  /** What of it they say they paid: on parts they owe, or credits they say they paid back. */
  claimed: number;
  /** What they owe everyone on the order, the reader's part and the other payers'. */
  inAll: number;
  /** All of it is owed back: the reader paid them beyond the reader's part. */
  back: boolean;
}

/**
 * The payers without a share (the payee at weight 0 who paid the shop with others) who owe the
 * reader on the order, from its parts: what they owe the reader, open or owed back. Nobody who
 * owes the reader nothing; nothing for a reader who is not signed in.
 */
export function owedByPayersWithoutShare(
  order: Order,
  viewerId: string | undefined,
): OwedWithoutShare[] {
  if (!viewerId) return [];
  const sum = (debtor: string, payer: string, field: PartCents) =>
    order.parts
      .filter((p) => p.debtor === debtor && p.payer === payer)
      .reduce((a, p) => a + toCents(p[field]), 0);
  return order.payers
    .filter((p) => p.user._id !== viewerId && !myShare(order, p.user._id))
    .map(({ user }) => {
      const open = sum(user._id, viewerId, "open");
      const back = sum(viewerId, user._id, "credit");
      const inAll = order.parts.reduce(
        (a, p) =>
          a +
          (p.debtor === user._id ? toCents(p.open) : 0) +
          (p.payer === user._id ? toCents(p.credit) : 0),
        0,
      );
      return {
        userId: user._id,
        name: user.name,
        owed: open + back,
        claimed: sum(user._id, viewerId, "claimed") + sum(viewerId, user._id, "claimedBack"),
        inAll,
        back: open === 0,
      };
    })
    .filter((o) => o.owed > 0);
}

/**
 * The reader may settle what others owe them on the order (confirm, cash, write-off): the
 * permissions table's `order.confirm` for their part in it, as the server reads it. Those who
 * paid the shop; a payee who named other payers and not themself paid nothing, so to settling
 * they are a member with a share.
 */
export function canSettle(order: Order, userId: string | undefined): boolean {
  if (!userId) return false;
  const paid = order.payers.some((p) => p.user._id === userId);
  const member = order.payee._id === userId || order.split.some((s) => s.userId === userId);
  return can(
    paid ? (order.payee._id === userId ? "payee" : "payer") : member ? "sharer" : "stranger",
    "order.confirm",
  );
}

/** My share of an order, if I have one. */
export function myShare(order: Order, userId: string | undefined): OrderShare | undefined {
  return order.split.find((share) => share.userId === userId);
}

/** One line on who owes whom: "Ben owes you $12.50", "You owe Ann $12.50", or settled. */
/**
 * Where the order stands, for its header: settled when no part between two people is still open
 * or owes a credit back (with several payers the payee's own share can owe another payer); else
 * what the reader has to do, or whom they wait on.
 */
export function orderStandingSentence(order: Order, userId: string | undefined): string {
  const openParts = order.parts.filter((p) => p.open > 0 || p.credit > 0);
  if (openParts.length === 0) return "Everyone is settled up.";
  const mine = myShare(order, userId);
  const isPayee = order.payee._id === userId;
  const iOwe = openParts.some(
    (p) => (p.debtor === userId && p.open > 0) || (p.payer === userId && p.credit > 0),
  );
  if (!isPayee && mine && !isSettled(mine)) {
    return `Pay ${order.payee.name} your share, then say so here.`;
  }
  if (iOwe) return "You still owe a part of this order: see who paid the shop below.";
  if (isPayee) {
    const owedToPayee = order.split.filter((s) => s.userId !== order.payee._id);
    const open = owedToPayee.filter((s) => !isSettled(s)).length;
    if (open > 0) {
      return `Waiting on ${open} of ${owedToPayee.length} ${owedToPayee.length === 1 ? "share" : "shares"}.`;
    }
  }
  return "Waiting on the others to settle up.";
}

export function balanceSentence(balance: Balance): string {
  const name = balance.user.name;
  if (balance.amount > 0) return `${name} owes you ${formatMoney(balance.amount)}`;
  if (balance.amount < 0) return `You owe ${name} ${formatMoney(-balance.amount)}`;
  return `You and ${name} are even`;
}

/**
 * My shares still to pay: orders where I owe the payee and have not said I paid, nor is the share
 * settled (isSettled: nothing to pay). The payee's own share is not one (they paid the shop).
 */
export function unpaidShareCount(orders: readonly Order[], userId: string | undefined): number {
  return orders.filter((order) => {
    const mine = myShare(order, userId);
    return mine !== undefined && mine.userId !== order.payee._id && canSayPaid(mine);
  }).length;
}

/** "1 share to pay", "3 shares to pay". */
export const sharesToPayLabel = (count: number) =>
  `${count} ${count === 1 ? "share" : "shares"} to pay`;

/** The changes the payee may record, in the order the form offers them. */
export const ADJUSTMENT_CHOICES: { kind: AdjustmentKind; label: string }[] = [
  { kind: "missing", label: "Not delivered" },
  { kind: "substituted", label: "Substituted" },
  { kind: "quantity", label: "Different quantity" },
  { kind: "price", label: "Different price" },
  { kind: "refund", label: "Refunded" },
  { kind: "order_fee", label: "Order discount or fee" },
];

/**
 * "2.49", "2,49", "$2.49", "€2.49", "2,49 €" as currency units with at most two decimals; null
 * when not one. Any currency sign before or after is dropped: the deployment has one currency.
 */
export function parseAmount(text: string): number | null {
  const cleaned = text
    .trim()
    .replace(/^\p{Sc}\s*|\s*\p{Sc}$/gu, "")
    .replace(",", ".");
  if (!/^\d+(\.\d{1,2})?$/.test(cleaned)) return null;
  return Number(cleaned);
}

/**
 * How an adjustment left a share, in one sentence for its member ("you" when it is the
 * reader's): unchanged (null), a credit (`payee`: who owes it back, creditOwedBy), the rest to
 * pay, or simply the new amount.
 */
export function shareChange(share: OrderShare, payee: string, you: boolean): string | null {
  if (share.originalTotal === share.total && share.credit === 0) return null;
  const who = you ? "Your share" : `${share.name}'s share`;
  const moved = `${who} changed from ${formatMoney(share.originalTotal)} to ${formatMoney(share.total)}`;
  if (share.credit > 0) {
    return `${moved}: ${payee} owes ${you ? "you" : share.name} ${formatMoney(share.credit)} back.`;
  }
  if (share.status === "unpaid" && share.paid > 0) {
    const rest = Math.round((share.total - share.paid) * 100) / 100;
    return `${moved}: ${formatMoney(share.paid)} already paid, ${formatMoney(rest)} left to pay.`;
  }
  return `${moved}.`;
}
