import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { apportion, orderSummary, percentOf, splitCart, type SplitLine } from "./pricing.ts";

describe("orderSummary", () => {
  it("charges 1 % fees and 13 % tax on subtotal plus fees, rounded half up", () => {
    expect(orderSummary(10000)).toEqual({ subtotal: 10000, fees: 100, tax: 1313, total: 11413 });
    // 1 % of 50 cents is 0.5: half up gives 1. Tax of 51 cents is 6.63 → 7.
    expect(orderSummary(50)).toEqual({ subtotal: 50, fees: 1, tax: 7, total: 58 });
    expect(orderSummary(49)).toEqual({ subtotal: 49, fees: 0, tax: 6, total: 55 });
    expect(orderSummary(0)).toEqual({ subtotal: 0, fees: 0, tax: 0, total: 0 });
  });

  it("rounds exactly, without floating-point drift", () => {
    expect(percentOf(150, 1)).toBe(2); // 1.5 → 2
    expect(percentOf(250, 1)).toBe(3); // 2.5 → 3
    expect(percentOf(1150, 13)).toBe(150); // 149.5 → 150
  });
});

const member = fc.record({
  userId: fc.uuid(),
  name: fc.string({ minLength: 1, maxLength: 8 }),
});
const cart = fc.array(member, { minLength: 1, maxLength: 6 }).chain((members) =>
  fc
    .array(
      fc.record({
        who: fc.integer({ min: 0, max: members.length - 1 }),
        price: fc.integer({ min: 1, max: 100_000 }),
        quantity: fc.integer({ min: 1, max: 99 }),
      }),
      { minLength: 1, maxLength: 30 },
    )
    .map((lines) =>
      lines.map<SplitLine>((l) => ({
        userId: members[l.who]!.userId,
        name: members[l.who]!.name,
        lineTotal: l.price * l.quantity,
      })),
    ),
);

describe("splitCart (property tests)", () => {
  it("members' totals add up to the cart total exactly", () => {
    fc.assert(
      fc.property(cart, (lines) => {
        const { summary, shares } = splitCart(lines);
        expect(shares.reduce((s, m) => s + m.total, 0)).toBe(summary.total);
        expect(shares.reduce((s, m) => s + m.fees, 0)).toBe(summary.fees);
        expect(shares.reduce((s, m) => s + m.tax, 0)).toBe(summary.tax);
        expect(summary.subtotal).toBe(lines.reduce((s, l) => s + l.lineTotal, 0));
      }),
    );
  });

  it("gives each member their own subtotal and a fee and tax share within a cent of the exact proportion", () => {
    fc.assert(
      fc.property(cart, (lines) => {
        const { summary, shares } = splitCart(lines);
        for (const m of shares) {
          const own = lines
            .filter((l) => l.userId === m.userId)
            .reduce((s, l) => s + l.lineTotal, 0);
          expect(m.subtotal).toBe(own);
          if (summary.subtotal > 0) {
            expect(Math.abs(m.fees - (summary.fees * own) / summary.subtotal)).toBeLessThan(1);
            expect(Math.abs(m.tax - (summary.tax * own) / summary.subtotal)).toBeLessThan(1);
          }
        }
      }),
    );
  });

  it("does not depend on the order of the lines", () => {
    fc.assert(
      fc.property(cart, fc.integer(), (lines, seed) => {
        const shuffled = [...lines].sort(
          (a, b) => ((a.lineTotal * 31 + seed) % 7) - ((b.lineTotal * 31 + seed) % 7),
        );
        expect(splitCart(shuffled)).toEqual(splitCart(lines));
      }),
    );
  });
});

describe("apportion", () => {
  it("gives the leftover cents to the largest remainders", () => {
    const shares = apportion(100, [
      { key: "a", weight: 1 },
      { key: "b", weight: 1 },
      { key: "c", weight: 1 },
    ]);
    expect([...shares.values()].reduce((s, v) => s + v, 0)).toBe(100);
    expect(shares.get("a")).toBe(34);
    expect(shares.get("b")).toBe(33);
  });

  it("gives nothing when nobody has a subtotal", () => {
    expect([...apportion(0, [{ key: "a", weight: 0 }]).values()]).toEqual([0]);
  });
});
