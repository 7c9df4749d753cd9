/**
 * Order adjustments re-split by the order's own rules: the lines, the members who carried shares
 * and the split policy are those frozen at checkout; the adjustments change the lines (and add
 * order-level amounts), and the checkout's split runs again on the result, so the shares add up to
 * the adjusted totals to the cent exactly as at checkout, each within a cent of its exact value.
 *
 * Zod-free and pure on purpose: the server applies it in the adjustment's transaction, the
 * property tests run it on random orders, and the web may preview with it.
 */
import type { OrderSummary } from "./pricing.ts";
import {
  DEFAULT_SPLIT_POLICY,
  splitWith,
  type ShareCents,
  type Split,
  type SplitInputMember,
  type SplitPolicy,
} from "./split.ts";

export const ADJUSTMENT_KINDS = [
  "missing",
  "substituted",
  "quantity",
  "price",
  "refund",
  "order_fee",
] as const;
export type AdjustmentKind = (typeof ADJUSTMENT_KINDS)[number];

/** One adjustment as the re-split reads it (money in cents). */
export interface AdjustmentCents {
  kind: AdjustmentKind;
  lineIndex?: number | undefined;
  quantity?: number | undefined;
  unitPrice?: number | undefined;
  amount?: number | undefined;
  name?: string | undefined;
}

/** A line as it was at checkout (cents). */
export interface FrozenLine {
  name: string;
  unitPrice: number;
  quantity: number;
  addedBy: string;
  addedByName?: string;
  sharedWith?: readonly string[];
}

/** A line after the adjustments: what was delivered, at what price, less what was refunded. */
export interface AdjustedLine {
  name: string;
  unitPrice: number;
  quantity: number;
  /** Refunded on this line so far (never more than unitPrice x quantity). */
  refunded: number;
  /** Not delivered: the line carries nothing. */
  missing: boolean;
  lineTotal: number;
}

/** An adjustment the order cannot take: the field at fault and why (the API's 400). */
export class AdjustmentError extends Error {
  readonly field: string;
  constructor(field: string, message: string) {
    super(message);
    this.field = field;
  }
}

const gross = (l: Pick<AdjustedLine, "unitPrice" | "quantity">) => l.unitPrice * l.quantity;
const totalOf = (l: Omit<AdjustedLine, "lineTotal">): number =>
  l.missing ? 0 : gross(l) - l.refunded;

/**
 * The lines after `adjustments` in order, and the order-level amounts they add (a delivery fee
 * difference, positive, or a discount, negative). Each kind's rule:
 * missing: the line carries nothing; substituted: another name and unit price (and quantity,
 * when given), delivered; quantity / price: the new quantity / unit price, delivered; refund:
 * `amount` more refunded on the line (negative takes back a refund recorded by mistake), never
 * below 0 nor beyond the line's price; order_fee: `amount` added to the order's fees.
 * Throws AdjustmentError naming the field when one cannot apply.
 */
export function applyAdjustments(
  lines: readonly FrozenLine[],
  adjustments: readonly AdjustmentCents[],
): { lines: AdjustedLine[]; orderFees: number } {
  const state = lines.map((l) => ({
    name: l.name,
    unitPrice: l.unitPrice,
    quantity: l.quantity,
    refunded: 0,
    missing: false,
  }));
  let orderFees = 0;
  for (const a of adjustments) {
    if (a.kind === "order_fee") {
      orderFees += a.amount ?? 0;
      continue;
    }
    const index = a.lineIndex ?? -1;
    const line = state[index];
    if (!Number.isInteger(index) || !line) {
      throw new AdjustmentError("lineIndex", `The order has no line ${index + 1}`);
    }
    if (a.kind === "missing") line.missing = true;
    else if (a.kind === "substituted") {
      line.name = a.name ?? line.name;
      line.unitPrice = a.unitPrice ?? line.unitPrice;
      line.quantity = a.quantity ?? line.quantity;
      line.missing = false;
    } else if (a.kind === "quantity") {
      line.quantity = a.quantity ?? line.quantity;
      line.missing = false;
    } else if (a.kind === "price") {
      line.unitPrice = a.unitPrice ?? line.unitPrice;
      line.missing = false;
    } else {
      if (line.missing) {
        throw new AdjustmentError("lineIndex", "That line was not delivered: nothing to refund");
      }
      line.refunded += a.amount ?? 0;
      if (line.refunded < 0) {
        throw new AdjustmentError("amount", "That takes back more than was refunded on the line");
      }
      if (line.refunded > gross(line)) {
        throw new AdjustmentError("amount", "A refund cannot be more than the line's price");
      }
      continue;
    }
    if (line.refunded > gross(line)) {
      const field = a.kind === "quantity" ? "quantity" : "unitPrice";
      throw new AdjustmentError(field, "The line would cost less than was already refunded on it");
    }
  }
  return { lines: state.map((l) => ({ ...l, lineTotal: totalOf(l) })), orderFees };
}

/** A member's part of the re-split: like ShareCents (fees include their part of order fees). */
export type AdjustedShare = ShareCents;

/**
 * The order after `adjustments`: the adjusted lines, the totals (subtotal, fees and tax by the
 * checkout's formula on the adjusted subtotal, plus the order-level amounts, untaxed: they are
 * what the shop charged or took off) and every member's share, rounded once from its exact value
 * like the checkout's (splitWith), ties in the order `seed` draws: the order's cart id, so that
 * with no adjustments it is exactly the checkout's split. Order-level amounts follow the policy's
 * fee rule (proportional to the adjusted subtotals, equal among members with a subtotal, or all
 * on the creator); when nobody carries a subtotal any more, on the creator.
 * Throws AdjustmentError when a share or the total would be negative.
 */
export function resplit(
  order: {
    lines: readonly FrozenLine[];
    members: readonly SplitInputMember[];
    policy?: SplitPolicy | null | undefined;
  },
  adjustments: readonly AdjustmentCents[],
  seed: string,
): {
  lines: AdjustedLine[];
  summary: OrderSummary;
  shares: AdjustedShare[];
  exact: Split["exact"];
} {
  const adjusted = applyAdjustments(order.lines, adjustments);
  const { summary, shares, exact } = splitWith(
    adjusted.lines.map((l, i) => ({
      lineTotal: l.lineTotal,
      addedBy: order.lines[i]!.addedBy,
      ...(order.lines[i]!.addedByName !== undefined
        ? { addedByName: order.lines[i]!.addedByName }
        : {}),
      ...(order.lines[i]!.sharedWith ? { sharedWith: order.lines[i]!.sharedWith } : {}),
    })),
    order.members,
    order.policy ?? DEFAULT_SPLIT_POLICY,
    seed,
    adjusted.orderFees,
  );
  const last = adjustments.at(-1);
  const field = last?.kind === "order_fee" || last?.kind === "refund" ? "amount" : "kind";
  if (summary.total < 0) {
    throw new AdjustmentError(field, "The order's total cannot be negative");
  }
  const negative = shares.find((s) => exact.get(s.userId)!.n < 0n);
  if (negative) {
    throw new AdjustmentError(field, `${negative.name || "A member"}'s share cannot be negative`);
  }
  return { lines: adjusted.lines, summary, shares, exact };
}

/**
 * A share with nothing to pay and nothing paid towards it (adjusted to 0) is settled: nobody owes
 * anybody on it. Works in cents or in currency units.
 */
export const nothingToPay = (share: { total: number; paid: number }): boolean =>
  share.total === 0 && share.paid === 0;

/**
 * The one rule for whether a share is settled: the payee confirmed or settled it (or it was paid
 * at the shop), or there is nothing to pay on it. A settled share offers no payment, is no share
 * "to pay", and owes nothing in balances (it may still be owed a credit).
 */
export const isSettled = (share: { status: string; total: number; paid: number }): boolean =>
  share.status === "confirmed" || nothingToPay(share);

/**
 * An adjustment in words, the same on the order page and the receipt: "Oat milk: not delivered",
 * "Oat milk: substituted by Brand B at $2.10". `money` formats currency units.
 */
export function describeAdjustment(
  a: {
    kind: AdjustmentKind;
    lineIndex?: number | undefined;
    quantity?: number | undefined;
    unitPrice?: number | undefined;
    amount?: number | undefined;
    name?: string | undefined;
  },
  lines: readonly { name: string }[],
  money: (amount: number) => string,
): string {
  const line = a.lineIndex === undefined ? "" : (lines[a.lineIndex]?.name ?? "A line");
  switch (a.kind) {
    case "missing":
      return `${line}: not delivered`;
    case "substituted":
      return `${line}: substituted by ${a.name ?? "another item"} at ${money(a.unitPrice ?? 0)}${
        a.quantity === undefined ? "" : ` × ${a.quantity}`
      }`;
    case "quantity":
      return `${line}: quantity ${a.quantity ?? 0}`;
    case "price":
      return `${line}: price ${money(a.unitPrice ?? 0)}`;
    case "refund":
      return (a.amount ?? 0) < 0
        ? `${line}: refund of ${money(-(a.amount ?? 0))} taken back`
        : `${line}: ${money(a.amount ?? 0)} refunded`;
    case "order_fee": {
      const what = a.name ?? ((a.amount ?? 0) < 0 ? "Discount" : "Fee difference");
      return `${what}: ${(a.amount ?? 0) < 0 ? "−" : "+"}${money(Math.abs(a.amount ?? 0))}`;
    }
  }
}
