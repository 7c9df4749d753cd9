/**
 * Each member's exact share of a cart, before any rounding: subtotal, fees and tax as fractions of
 * a cent. Number arithmetic on integer numerators over one common denominator wherever every
 * product stays below 2^53 (any cart a group shops); BigInt rationals past that. The two paths
 * give the same figures (fair-rounding.test.ts checks it). Zod-free: the web previews with it.
 */
import { add, lowest, ratio, times, type Rational } from "./rational.ts";
import { partsOf, partsOfNumbers, type Parts } from "./rounding.ts";

/** What each member carries, as the lines left it (cents, exact integers). */
export interface Carried {
  /** Cents each member carries alone (lines by adder, or whose weights fell back to the adder). */
  own: readonly number[];
  /** Cents of the lines under the policy's weights, shared by `weights` (null: no such lines). */
  pool: number;
  weights: readonly number[] | null;
  /** Lines shared by n members: n → cents each member shares that way (sparse). */
  shared: ReadonlyMap<number, readonly (number | undefined)[]>;
}

/** The cart's figures (cents): the checkout's subtotal, fees and tax, and order-level amounts. */
export interface Totals {
  subtotal: number;
  fees: number;
  tax: number;
  orderFees: number;
}

/**
 * Who carries the fees: in proportion to the exact subtotals (null), or in the proportions
 * `p[i] / sum(p)` (equal among those with a subtotal, all on the creator).
 */
export type FeeRule = readonly number[] | null;

export interface ExactFigures {
  /** 3 rows (subtotal, fees with order-level amounts, tax) × members, row-major. */
  cells: Parts;
  totals: Parts;
  /** Each member's exact total. */
  exact: Rational[];
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

/**
 * The exact figures. Subtotal i is own[i] + pool × w[i] / W + Σ shared[n][i] / n; fees are
 * (fees + orderFees) × its proportion; tax is tax × (subtotal + fees without orderFees) / (the
 * cart's subtotal + fees): tax is charged on subtotal plus fees, order-level amounts are not taxed.
 */
export function exactFigures(
  carried: Carried,
  totals: Totals,
  rule: FeeRule,
  forceBig = false,
): ExactFigures {
  const { own, pool, weights, shared } = carried;
  const { subtotal: S, fees: F, tax: T, orderFees: A } = totals;
  const n = own.length;
  const poolWeight = weights ? sum(weights) : 1;
  let d = poolWeight;
  for (const by of shared.keys()) d = (d / gcd(d, by)) * by;
  const base = S + F || 1;
  const pd = rule ? sum(rule) || 1 : 0;
  // Every numerator below is at most q × (S + F + |A| + T), q the common denominator.
  const q = rule ? d * pd * base : d * S;
  if (!forceBig && q * (S + F + Math.abs(A) + T + 1) <= Number.MAX_SAFE_INTEGER && q > 0) {
    const sub = own.map((cents, i) => {
      let num = cents * d;
      if (weights && pool !== 0) num += pool * weights[i]! * (d / poolWeight);
      for (const [by, parts] of shared) num += (parts[i] ?? 0) * (d / by);
      return num;
    });
    // Subtotal sub/d, fees (F + A)·p/pd, tax T·(sub/d + F·p/pd)/base, all over q.
    const nums = rule
      ? [
          ...sub.map((s) => s * pd * base),
          ...rule.map((p) => (F + A) * p * d * base),
          ...sub.map((s, i) => T * (s * pd + F * rule[i]! * d)),
        ]
      : [...sub.map((s) => s * S), ...sub.map((s) => (F + A) * s), ...sub.map((s) => T * s)];
    const total = sub.map((_, i) => nums[i]! + nums[n + i]! + nums[2 * n + i]!);
    return {
      cells: partsOfNumbers(nums, q),
      totals: partsOfNumbers(total, q),
      exact: total.map((t) => ratio(t, q)),
    };
  }
  const subs = own.map((cents, i) => {
    let s = ratio(cents);
    if (weights && pool !== 0) s = add(s, ratio(pool * weights[i]!, poolWeight));
    for (const [by, parts] of shared) s = add(s, ratio(parts[i] ?? 0, by));
    return s;
  });
  const share = (i: number) =>
    rule ? ratio(rule[i]!, pd) : S > 0 ? times(subs[i]!, 1n, BigInt(S)) : ratio(0n);
  const fees = subs.map((_, i) => times(share(i), BigInt(F + A)));
  const tax = subs.map((s, i) =>
    times(add(s, times(share(i), BigInt(F))), BigInt(T), BigInt(base)),
  );
  const exact = subs.map((s, i) => add(add(s, fees[i]!), tax[i]!));
  return {
    cells: partsOf([...subs, ...fees, ...tax]),
    totals: partsOf(exact),
    exact: exact.map(lowest),
  };
}
