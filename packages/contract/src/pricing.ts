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

/** Fees 1 % of the subtotal; tax 13 % of subtotal plus fees; each rounded half up. */
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
