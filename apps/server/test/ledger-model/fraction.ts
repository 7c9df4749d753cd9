/**
 * Exact rational numbers on BigInt, for the reference model: every proportion of a cent is kept
 * exactly, so "within one cent of exact" is decided without any floating point.
 */
const gcd = (a: bigint, b: bigint): bigint => {
  a = a < 0n ? -a : a;
  b = b < 0n ? -b : b;
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
};

export class Q {
  readonly n: bigint;
  readonly d: bigint;

  private constructor(n: bigint, d: bigint) {
    if (d === 0n) throw new Error("division by zero");
    if (d < 0n) [n, d] = [-n, -d];
    const g = gcd(n, d) || 1n;
    this.n = n / g;
    this.d = d / g;
  }

  static readonly ZERO = new Q(0n, 1n);
  static readonly ONE = new Q(1n, 1n);

  /** An integer (cents, a weight, a count). */
  static of(value: number | bigint): Q {
    if (typeof value === "number" && !Number.isInteger(value)) {
      throw new Error(`not an integer: ${value}`);
    }
    return new Q(BigInt(value), 1n);
  }

  static ratio(n: number | bigint, d: number | bigint): Q {
    return new Q(BigInt(n), BigInt(d));
  }

  static sum(values: Iterable<Q>): Q {
    let total = Q.ZERO;
    for (const v of values) total = total.add(v);
    return total;
  }

  add(o: Q): Q {
    return new Q(this.n * o.d + o.n * this.d, this.d * o.d);
  }
  sub(o: Q): Q {
    return new Q(this.n * o.d - o.n * this.d, this.d * o.d);
  }
  mul(o: Q): Q {
    return new Q(this.n * o.n, this.d * o.d);
  }
  div(o: Q): Q {
    return new Q(this.n * o.d, this.d * o.n);
  }
  neg(): Q {
    return new Q(-this.n, this.d);
  }
  abs(): Q {
    return this.n < 0n ? this.neg() : this;
  }
  cmp(o: Q): number {
    const diff = this.n * o.d - o.n * this.d;
    return diff < 0n ? -1 : diff > 0n ? 1 : 0;
  }
  sign(): number {
    return this.n < 0n ? -1 : this.n > 0n ? 1 : 0;
  }
  lt(o: Q): boolean {
    return this.cmp(o) < 0;
  }
  gt(o: Q): boolean {
    return this.cmp(o) > 0;
  }

  /** The largest integer not above this. */
  floor(): bigint {
    const q = this.n / this.d;
    return this.n < 0n && q * this.d !== this.n ? q - 1n : q;
  }

  /** Rounded to the nearest integer, a half up (the shop's rounding of fees and tax). */
  roundHalfUp(): number {
    return Number(this.add(Q.ratio(1, 2)).floor());
  }

  /** Whether the integer `cents` is strictly less than one cent away from this. */
  withinOneCent(cents: number): boolean {
    return Q.of(cents).sub(this).abs().lt(Q.ONE);
  }

  /** For messages only: "1234.333" cents. */
  toString(): string {
    const whole = this.floor();
    const rest = this.sub(Q.of(whole));
    const thousandths = Number(rest.mul(Q.of(1000)).floor());
    return `${whole}${thousandths ? `.${String(thousandths).padStart(3, "0")}` : ""}`;
  }
}
