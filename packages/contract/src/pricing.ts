import { FEE_RATE_PERCENT, TAX_RATE_PERCENT } from "./constants.ts";

/** All amounts here are integer cents. */
export interface OrderSummary {
  subtotal: number;
  fees: number;
  tax: number;
  total: number;
}

/** percent% of a non-negative cent amount, rounded to the cent, half up (exact integer maths). */
export function percentOf(cents: number, percent: number): number {
  return Math.floor((cents * percent + 50) / 100);
}

/** SPEC 9: fees 1 % of the subtotal; tax 13 % of subtotal plus fees; each rounded half up. */
export function orderSummary(subtotal: number): OrderSummary {
  const fees = percentOf(subtotal, FEE_RATE_PERCENT);
  const tax = percentOf(subtotal + fees, TAX_RATE_PERCENT);
  return { subtotal, fees, tax, total: subtotal + fees + tax };
}

/**
 * Shares `amount` in proportion to `weights` with the largest-remainder method: each share is the
 * floor of its exact proportion, and the cents left over go to the largest remainders (ties by
 * key), so the shares always add up to `amount` exactly and do not depend on input order.
 */
export function apportion(
  amount: number,
  weights: Array<{ key: string; weight: number }>,
): Map<string, number> {
  const totalWeight = weights.reduce((sum, w) => sum + w.weight, 0);
  const shares = new Map<string, number>();
  if (totalWeight === 0) {
    for (const w of weights) shares.set(w.key, 0);
    return shares;
  }
  const parts = weights.map((w) => {
    const exact = amount * w.weight;
    return { key: w.key, floor: Math.floor(exact / totalWeight), remainder: exact % totalWeight };
  });
  let left = amount - parts.reduce((sum, p) => sum + p.floor, 0);
  parts.sort((a, b) => b.remainder - a.remainder || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  for (const p of parts) {
    shares.set(p.key, p.floor + (left > 0 ? 1 : 0));
    if (left > 0) left -= 1;
  }
  return shares;
}

export interface SplitLine {
  userId: string;
  name: string;
  /** price x quantity, cents */
  lineTotal: number;
}

export interface MemberShare extends OrderSummary {
  userId: string;
  name: string;
}

/**
 * The fair split (DESIGN section 4): each member's subtotal is what they added; the cart's fees
 * and tax are apportioned by subtotal, so members' totals add up to the cart total to the cent.
 * Members are listed by name, then id, whatever the order of the lines.
 */
export function splitCart(lines: SplitLine[]): { summary: OrderSummary; shares: MemberShare[] } {
  const byMember = new Map<string, { name: string; subtotal: number }>();
  for (const line of lines) {
    const entry = byMember.get(line.userId) ?? { name: line.name, subtotal: 0 };
    entry.subtotal += line.lineTotal;
    byMember.set(line.userId, entry);
  }
  const subtotal = [...byMember.values()].reduce((sum, m) => sum + m.subtotal, 0);
  const summary = orderSummary(subtotal);
  const weights = [...byMember.entries()].map(([key, m]) => ({ key, weight: m.subtotal }));
  const fees = apportion(summary.fees, weights);
  const tax = apportion(summary.tax, weights);
  const shares = [...byMember.entries()]
    .map(([userId, m]) => {
      const f = fees.get(userId)!;
      const t = tax.get(userId)!;
      return {
        userId,
        name: m.name,
        subtotal: m.subtotal,
        fees: f,
        tax: t,
        total: m.subtotal + f + t,
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name) || (a.userId < b.userId ? -1 : 1));
  return { summary, shares };
}
