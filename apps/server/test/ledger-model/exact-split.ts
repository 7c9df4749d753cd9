/**
 * The reference split, in exact fractions of a cent, written from the rules (decision 019 and the
 * split policy as the API states it), not from the server's or the contract's split code: each
 * line is carried by its sharers in equal parts, else by the policy (the adder; every member
 * equally; members by weight, 100 when none is named, the adder when every weight is 0). The
 * order's fees (1 %) and tax (13 %) are the shop's, each rounded half up on the order's subtotal;
 * each member carries fees by the policy's fee rule and tax on their subtotal plus fees; an
 * order-level amount (a fee difference or a discount) follows the fee rule, on the creator when
 * nobody carries a subtotal. Nothing here is rounded per member: that is what is checked.
 */
import { FEE_RATE_PERCENT, TAX_RATE_PERCENT } from "@cartner/contract";
import { Q } from "./fraction.ts";

export type SplitMode = "by_adder" | "equal" | "weights";
export type FeeMode = "proportional" | "equal" | "creator";

export interface Policy {
  mode: SplitMode;
  /** userId -> 0..100; a member not named weighs 100. */
  weights: Record<string, number>;
  fees: FeeMode;
}

export interface Member {
  userId: string;
  creator: boolean;
}

export interface SplitLine {
  /** What the line costs now, in cents. */
  total: number;
  adder: string;
  /** Who shares it in equal parts; empty: the policy. */
  sharers: readonly string[];
}

export interface ExactShare {
  subtotal: Q;
  /** The member's part of the order's fees and of any order-level amounts. */
  fees: Q;
  tax: Q;
  total: Q;
}

/** The order's own figures (integers: what the shop charged) and every member's exact share. */
export interface ExactOrder {
  subtotal: number;
  fees: number;
  tax: number;
  total: number;
  shares: Map<string, ExactShare>;
}

/** percent% of an amount in cents, rounded half up, as the shop rounds its fees and tax. */
export const shopPercent = (cents: number, percent: number): number =>
  Q.ratio(cents * percent, 100).roundHalfUp();

/** Who carries a line and with what weight. */
function carriers(line: SplitLine, members: readonly Member[], policy: Policy): Map<string, Q> {
  const ids = members.map((m) => m.userId);
  const sharers = [...new Set(line.sharers)].filter((id) => ids.includes(id));
  if (sharers.length > 0) return new Map(sharers.map((id) => [id, Q.ONE]));
  if (policy.mode === "equal") return new Map(ids.map((id) => [id, Q.ONE]));
  if (policy.mode === "weights") {
    const weights = ids.map((id) => [id, Q.of(policy.weights[id] ?? 100)] as const);
    if (weights.some(([, w]) => w.sign() > 0)) return new Map(weights);
  }
  return new Map([[line.adder, Q.ONE]]);
}

/** `amount` spread over `weights` in exact proportion. */
function spread(amount: Q, weights: Map<string, Q>): Map<string, Q> {
  const sum = Q.sum(weights.values());
  const out = new Map<string, Q>();
  if (sum.sign() === 0) return out;
  for (const [id, w] of weights) out.set(id, amount.mul(w).div(sum));
  return out;
}

export function exactSplit(
  members: readonly Member[],
  policy: Policy,
  lines: readonly SplitLine[],
  orderFees = 0,
): ExactOrder {
  const creator = members.find((m) => m.creator)!.userId;
  const subtotals = new Map<string, Q>(members.map((m) => [m.userId, Q.ZERO]));
  for (const line of lines) {
    for (const [id, part] of spread(Q.of(line.total), carriers(line, members, policy))) {
      subtotals.set(id, (subtotals.get(id) ?? Q.ZERO).add(part));
    }
  }
  const subtotal = lines.reduce((a, l) => a + l.total, 0);
  const fees = shopPercent(subtotal, FEE_RATE_PERCENT);
  const tax = shopPercent(subtotal + fees, TAX_RATE_PERCENT);
  const holders = new Map([...subtotals].filter(([, s]) => s.sign() > 0));
  const ones = (ids: Iterable<string>) => new Map([...ids].map((id) => [id, Q.ONE]));

  const feeWeights =
    policy.fees === "proportional"
      ? holders
      : policy.fees === "equal"
        ? ones(holders.keys())
        : ones([creator]);
  const feeParts = spread(Q.of(fees), feeWeights);
  const taxWeights =
    policy.fees === "proportional"
      ? holders
      : new Map([...subtotals].map(([id, s]) => [id, s.add(feeParts.get(id) ?? Q.ZERO)] as const));
  const taxParts = spread(Q.of(tax), taxWeights);
  const extraWeights =
    policy.fees === "creator" || holders.size === 0
      ? ones([creator])
      : policy.fees === "equal"
        ? ones(holders.keys())
        : holders;
  const extraParts = spread(Q.of(orderFees), extraWeights);

  const shares = new Map<string, ExactShare>();
  for (const m of members) {
    const s = subtotals.get(m.userId)!;
    const f = (feeParts.get(m.userId) ?? Q.ZERO).add(extraParts.get(m.userId) ?? Q.ZERO);
    const t = taxParts.get(m.userId) ?? Q.ZERO;
    shares.set(m.userId, { subtotal: s, fees: f, tax: t, total: s.add(f).add(t) });
  }
  return {
    subtotal,
    fees: fees + orderFees,
    tax,
    total: subtotal + fees + tax + orderFees,
    shares,
  };
}

/**
 * What each payer paid the shop, as a fraction of all paid. Nothing paid (an order of free lines
 * without an estimate, checked out at 0 by the payee alone): the payers in equal parts.
 */
export function payerProportions(
  payers: readonly { userId: string; cents: number }[],
): Map<string, Q> {
  const paid = payers.reduce((a, p) => a + p.cents, 0);
  return new Map(
    payers.map((p) => [p.userId, paid === 0 ? Q.ratio(1, payers.length) : Q.ratio(p.cents, paid)]),
  );
}

/** Each member's exact part owed to each payer: their share in that payer's proportion. */
export function exactParts(
  order: ExactOrder,
  payers: readonly { userId: string; cents: number }[],
): Map<string, Map<string, Q>> {
  const proportions = payerProportions(payers);
  const out = new Map<string, Map<string, Q>>();
  for (const [member, share] of order.shares) {
    out.set(member, new Map([...proportions].map(([id, x]) => [id, share.total.mul(x)])));
  }
  return out;
}
