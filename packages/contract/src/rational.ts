/**
 * Exact fractions of a cent, for the split's rounding: a BigInt numerator over a positive BigInt
 * denominator. Not kept in lowest terms (reducing costs a gcd per value and nothing needs it):
 * compare values with `compare`, never with ===. A few hundred bytes, so the web's first load can
 * carry it (a rational library such as fraction.js is ten times the size and parses strings we
 * never have).
 */
export interface Rational {
  readonly n: bigint;
  /** Always above zero. */
  readonly d: bigint;
}

/** n/d (d not 0); whole cents by default. */
export const ratio = (n: bigint | number, d: bigint | number = 1n): Rational => {
  const [num, den] = [BigInt(n), BigInt(d)];
  return den < 0n ? { n: -num, d: -den } : { n: num, d: den };
};

/** The largest integer at most n/d (d > 0): BigInt division truncates towards zero. */
export const floorDiv = (n: bigint, d: bigint): bigint => {
  const q = n / d;
  return q * d > n ? q - 1n : q;
};

/** The largest whole number of cents at most `r`. */
export const floorOf = (r: Rational): number => Number(floorDiv(r.n, r.d));

/** The smallest whole number of cents at least `r`. */
export const ceilOf = (r: Rational): number => -Number(floorDiv(-r.n, r.d));

/** a + b. */
export const add = (a: Rational, b: Rational): Rational =>
  a.d === b.d ? { n: a.n + b.n, d: a.d } : { n: a.n * b.d + b.n * a.d, d: a.d * b.d };

/** r × num / den (den > 0). */
export const times = (r: Rational, num: bigint, den = 1n): Rational => ({
  n: r.n * num,
  d: r.d * den,
});

/** −1, 0 or 1 as a is below, equal to or above b. */
export const compare = (a: Rational, b: Rational): number => {
  const [x, y] = [a.n * b.d, b.n * a.d];
  return x < y ? -1 : x > y ? 1 : 0;
};

/** The value as a float, for display and tests only (money is never rounded from it). */
export const toNumber = (r: Rational): number => Number(r.n) / Number(r.d);

/** The same value in lowest terms: one representation per value. */
export const lowest = (r: Rational): Rational => {
  let [x, y] = [r.n < 0n ? -r.n : r.n, r.d];
  while (y !== 0n) [x, y] = [y, x % y];
  return x > 1n ? { n: r.n / x, d: r.d / x } : r;
};

/** The least common multiple of two positive integers. */
export const lcm = (a: bigint, b: bigint): bigint => {
  let [x, y] = [a, b];
  while (y !== 0n) [x, y] = [y, x % y];
  return (a / x) * b;
};

/** The numerators of `values` over one common denominator (their least common multiple). */
export function overCommon(values: readonly Rational[]): { nums: bigint[]; den: bigint } {
  let den = 1n;
  for (const v of values) if (den % v.d !== 0n) den = lcm(den, v.d);
  return { nums: values.map((v) => (v.d === den ? v.n : v.n * (den / v.d))), den };
}
