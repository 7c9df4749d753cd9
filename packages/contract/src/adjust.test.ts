import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  AdjustmentError,
  applyAdjustments,
  isSettled,
  resplit,
  type AdjustmentCents,
  type FrozenLine,
} from "./adjust.ts";
import type { Role } from "./permissions.ts";
import { FEE_MODES, SPLIT_MODES } from "./presets.ts";
import { splitShares, type SplitInputMember } from "./split.ts";

const RUNS = { numRuns: 500 };
const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0);

/** An order as checkout froze it: members (one creator), lines, a policy. */
const order = fc
  .array(fc.constantFrom<Role>("participant", "participant", "viewer"), { maxLength: 4 })
  .chain((others) => {
    const members: SplitInputMember[] = [
      { userId: "u0", name: "Ann", role: "creator" },
      ...others.map((role, i) => ({ userId: `u${i + 1}`, name: `M${i + 1}`, role })),
    ];
    const adders = members.filter((m) => m.role !== "viewer").map((m) => m.userId);
    const line = fc.record({
      name: fc.constantFrom("Milk", "Bread", "Oats"),
      unitPrice: fc.integer({ min: 1, max: 5_000 }),
      quantity: fc.integer({ min: 1, max: 9 }),
      addedBy: fc.constantFrom(...adders),
      sharedWith: fc.oneof(
        { weight: 3, arbitrary: fc.constant([] as string[]) },
        fc.subarray(adders, { minLength: 1 }),
      ),
    });
    const policy = fc.record({
      mode: fc.constantFrom(...SPLIT_MODES),
      weights: fc.dictionary(fc.constantFrom(...adders), fc.integer({ min: 0, max: 100 })),
      fees: fc.constantFrom(...FEE_MODES),
    });
    return fc.record({
      members: fc.constant(members),
      lines: fc.array(line, { minLength: 1, maxLength: 8 }),
      policy,
    });
  });

/** Any adjustment of an order with `lines` lines (some will not apply: the test skips those). */
const adjustment = (lines: number): fc.Arbitrary<AdjustmentCents> => {
  const lineIndex = fc.integer({ min: 0, max: lines - 1 });
  return fc.oneof(
    fc.record({ kind: fc.constant("missing" as const), lineIndex }),
    fc.record({
      kind: fc.constant("substituted" as const),
      lineIndex,
      name: fc.constant("Other brand"),
      unitPrice: fc.integer({ min: 0, max: 6_000 }),
    }),
    fc.record({
      kind: fc.constant("quantity" as const),
      lineIndex,
      quantity: fc.integer({ min: 0, max: 9 }),
    }),
    fc.record({
      kind: fc.constant("price" as const),
      lineIndex,
      unitPrice: fc.integer({ min: 0, max: 6_000 }),
    }),
    fc.record({
      kind: fc.constant("refund" as const),
      lineIndex,
      amount: fc.integer({ min: 1, max: 3_000 }),
    }),
    fc.record({
      kind: fc.constant("order_fee" as const),
      amount: fc.integer({ min: -2_000, max: 2_000 }).filter((n) => n !== 0),
    }),
  );
};

const withAdjustments = order.chain((o) =>
  fc.record({
    order: fc.constant(o),
    adjustments: fc.array(adjustment(o.lines.length), { maxLength: 6 }),
    next: adjustment(o.lines.length),
  }),
);

/** The re-split, or null when the sequence does not apply (the API's 400). */
function tryResplit(o: { lines: FrozenLine[]; members: SplitInputMember[] }, a: AdjustmentCents[]) {
  try {
    return resplit(o, a, "cart-1");
  } catch (error) {
    if (error instanceof AdjustmentError) return null;
    throw error;
  }
}

/** The adjustments that take `a` back, from the line as it was before it. */
function inverse(o: { lines: FrozenLine[] }, before: AdjustmentCents[], a: AdjustmentCents) {
  if (a.kind === "order_fee" || a.kind === "refund") return [{ ...a, amount: -a.amount! }];
  const line = applyAdjustments(o.lines, before).lines[a.lineIndex!]!;
  const restore: AdjustmentCents = {
    kind: "substituted",
    lineIndex: a.lineIndex!,
    name: line.name,
    unitPrice: line.unitPrice,
    quantity: line.quantity,
  };
  return line.missing
    ? [restore, { kind: "missing" as const, lineIndex: a.lineIndex! }]
    : [restore];
}

const figures = (r: ReturnType<typeof resplit>) => ({
  summary: r.summary,
  shares: r.shares
    .filter((s) => s.total !== 0 || s.subtotal !== 0)
    .map(({ userId, subtotal, fees, tax, total }) => ({ userId, subtotal, fees, tax, total })),
});

describe("resplit (property tests)", () => {
  it("with no adjustments it is the checkout's split", () => {
    fc.assert(
      fc.property(order, (o) => {
        const checkout = splitShares(
          o.lines.map((l) => ({ ...l, lineTotal: l.unitPrice * l.quantity })),
          o.members,
          o.policy,
          "cart-1",
        );
        const r = resplit(o, [], "cart-1");
        expect(r.summary).toEqual(checkout.summary);
        expect(r.shares).toEqual(checkout.shares);
      }),
      RUNS,
    );
  });

  it("every share adds up to the adjusted totals to the cent, none negative", () => {
    fc.assert(
      fc.property(withAdjustments, ({ order: o, adjustments }) => {
        const r = tryResplit(o, adjustments);
        fc.pre(r !== null);
        const { summary, shares, lines } = r!;
        for (const key of ["subtotal", "fees", "tax", "total"] as const) {
          expect(sum(shares.map((s) => s[key]))).toBe(summary[key]);
        }
        expect(summary.subtotal).toBe(sum(lines.map((l) => l.lineTotal)));
        expect(summary.total).toBe(summary.subtotal + summary.fees + summary.tax);
        for (const s of shares) expect(s.total).toBeGreaterThanOrEqual(0);
        for (const l of lines) expect(l.lineTotal).toBeGreaterThanOrEqual(0);
      }),
      RUNS,
    );
  });

  it("applying an adjustment then reversing it returns the same figures", () => {
    fc.assert(
      fc.property(withAdjustments, ({ order: o, adjustments, next }) => {
        const before = tryResplit(o, adjustments);
        fc.pre(before !== null);
        const after = tryResplit(o, [...adjustments, next]);
        fc.pre(after !== null);
        const back = resplit(o, [...adjustments, next, ...inverse(o, adjustments, next)], "cart-1");
        expect(figures(back)).toEqual(figures(before!));
      }),
      RUNS,
    );
  });
});

describe("resplit: what it refuses", () => {
  const members: SplitInputMember[] = [
    { userId: "a", name: "Ann", role: "creator" },
    { userId: "b", name: "Ben", role: "participant" },
  ];
  const lines: FrozenLine[] = [
    { name: "Milk", unitPrice: 250, quantity: 2, addedBy: "a" },
    { name: "Oats", unitPrice: 400, quantity: 1, addedBy: "b" },
  ];
  const field = (a: AdjustmentCents[]) => {
    try {
      resplit({ lines, members }, a, "cart-1");
      return null;
    } catch (error) {
      return (error as AdjustmentError).field;
    }
  };

  it("a refund over the line's price, a line that is not there, a negative share or total", () => {
    expect(field([{ kind: "refund", lineIndex: 0, amount: 501 }])).toBe("amount");
    expect(field([{ kind: "refund", lineIndex: 0, amount: 500 }])).toBeNull();
    expect(field([{ kind: "refund", lineIndex: 0, amount: -1 }])).toBe("amount");
    expect(field([{ kind: "missing", lineIndex: 2 }])).toBe("lineIndex");
    expect(field([{ kind: "price", lineIndex: -1, unitPrice: 1 }])).toBe("lineIndex");
    expect(
      field([
        { kind: "refund", lineIndex: 0, amount: 300 },
        { kind: "price", lineIndex: 0, unitPrice: 100 },
      ]),
    ).toBe("unitPrice");
    expect(field([{ kind: "order_fee", amount: -2_000 }])).toBe("amount");
    // The total stays positive, but a discount on the creator (who carries the fees) beats their share.
    const policy = { mode: "by_adder", weights: {}, fees: "creator" } as const;
    expect(() =>
      resplit({ lines, members, policy }, [{ kind: "order_fee", amount: -700 }], "cart-1"),
    ).toThrow("Ann's share cannot be negative");
  });

  it("out of stock and substituted lines re-split by adder, fees and tax by the checkout's rule", () => {
    const r = resplit(
      { lines, members },
      [
        { kind: "missing", lineIndex: 1 },
        { kind: "substituted", lineIndex: 0, name: "Oat milk B", unitPrice: 300 },
      ],
      "cart-1",
    );
    expect(r.lines.map((l) => [l.name, l.lineTotal])).toEqual([
      ["Oat milk B", 600],
      ["Oats", 0],
    ]);
    // 6.00 + 1 % fees (0.06) + 13 % tax on 6.06 (0.79): all Ann's; Ben carries nothing.
    expect(r.summary).toEqual({ subtotal: 600, fees: 6, tax: 79, total: 685 });
    expect(r.shares.map((s) => [s.name, s.total])).toEqual([
      ["Ann", 685],
      ["Ben", 0],
    ]);
  });

  it("a share adjusted to nothing with nothing paid is settled (isSettled)", () => {
    expect(isSettled({ status: "unpaid", total: 0, paid: 0 })).toBe(true);
    expect(isSettled({ status: "unpaid", total: 1, paid: 0 })).toBe(false);
    expect(isSettled({ status: "confirmed", total: 1, paid: 0 })).toBe(true);
  });
});
