import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { allocate, owedToPayers, settlePlan, type Transfer } from "./owed.ts";

/** Shares adding up to a total, and payers whose amounts add up to the same total. */
const order = fc
  .tuple(
    fc.array(fc.integer({ min: 0, max: 50_000 }), { minLength: 1, maxLength: 8 }),
    fc.array(fc.integer({ min: 1, max: 1_000 }), { minLength: 1, maxLength: 5 }),
  )
  .map(([shareCents, payerWeights]) => {
    const total = shareCents.reduce((a, b) => a + b, 0);
    const shares = shareCents.map((cents, i) => ({ userId: `m${i}`, cents }));
    // Payers are some members (m0, m1, ...) and perhaps someone without a share (p*).
    const amounts = allocate(total, payerWeights);
    const payers = amounts.map((cents, j) => ({
      userId: j < shares.length && j % 2 === 0 ? `m${j}` : `p${j}`,
      cents,
    }));
    return { shares, payers, total };
  });

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

describe("allocate", () => {
  it("splits exactly, in proportion within a cent", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.array(fc.integer({ min: 1, max: 1000 }), { minLength: 1, maxLength: 10 }),
        (total, weights) => {
          const parts = allocate(total, weights);
          expect(sum(parts)).toBe(total);
          const w = sum(weights);
          parts.forEach((p, i) => expect(Math.abs(p - (total * weights[i]!) / w)).toBeLessThan(1));
        },
      ),
    );
  });

  it("gives the leftover cent to the largest remainder, the earlier one on a tie", () => {
    expect(allocate(100, [1, 1, 1])).toEqual([34, 33, 33]);
    expect(allocate(1000, [1, 2])).toEqual([333, 667]);
  });
});

describe("owedToPayers", () => {
  it("is the whole share owed to the payee when the payee paid everything", () => {
    const owed = owedToPayers(
      [
        { userId: "ann", cents: 1000 },
        { userId: "ben", cents: 1240 },
      ],
      [{ userId: "ann", cents: 2240 }],
    );
    expect(owed).toEqual([
      { debtor: "ann", payer: "ann", cents: 1000 },
      { debtor: "ben", payer: "ann", cents: 1240 },
    ]);
  });

  it("owes two cards in proportion, to the cent", () => {
    // Ann paid 60.00 and Carl 40.00 of a 100.00 order; Ben's 33.33 goes 20.00 / 13.33.
    const owed = owedToPayers(
      [
        { userId: "ann", cents: 3334 },
        { userId: "ben", cents: 3333 },
        { userId: "carl", cents: 3333 },
      ],
      [
        { userId: "ann", cents: 6000 },
        { userId: "carl", cents: 4000 },
      ],
    );
    const ben = owed.filter((o) => o.debtor === "ben");
    expect(sum(ben.map((o) => o.cents))).toBe(3333);
    expect(ben.find((o) => o.payer === "ann")!.cents).toBe(2000);
    expect(ben.find((o) => o.payer === "carl")!.cents).toBe(1333);
  });

  it("adds up exactly per share and per payer, each part within a cent of its proportion", () => {
    fc.assert(
      fc.property(order, ({ shares, payers, total }) => {
        const owed = owedToPayers(shares, payers);
        for (const s of shares) {
          expect(sum(owed.filter((o) => o.debtor === s.userId).map((o) => o.cents))).toBe(s.cents);
        }
        for (const p of payers) {
          expect(sum(owed.filter((o) => o.payer === p.userId).map((o) => o.cents))).toBe(p.cents);
        }
        for (const o of owed) {
          const share = shares.find((s) => s.userId === o.debtor)!.cents;
          const paid = payers.find((p) => p.userId === o.payer)!.cents;
          expect(o.cents).toBeGreaterThan(0);
          expect(Math.abs(o.cents - (share * paid) / total)).toBeLessThan(1 + 1e-9);
        }
      }),
    );
  });

  it("answers the same parts every time (deterministic)", () => {
    fc.assert(
      fc.property(order, ({ shares, payers }) => {
        expect(owedToPayers(shares, payers)).toEqual(owedToPayers(shares, payers));
      }),
    );
  });
});

/** Net balances that add up to zero, over up to 8 people. */
const nets = fc
  .array(fc.integer({ min: -100_000, max: 100_000 }), { minLength: 1, maxLength: 8 })
  .map((xs) => {
    const map = new Map<string, number>();
    xs.forEach((c, i) => map.set(`u${i}`, c));
    // 0 - x, not -x: a sum of 0 must give 0, not -0 (which is not 0 to toBe).
    map.set("last", 0 - sum(xs));
    return map;
  });

function apply(balances: ReadonlyMap<string, number>, transfers: Transfer[]) {
  const after = new Map(balances);
  for (const t of transfers) {
    after.set(t.from, after.get(t.from)! + t.cents);
    after.set(t.to, after.get(t.to)! - t.cents);
  }
  return after;
}

describe("settlePlan", () => {
  it("settles every balance exactly, in at most (people with a balance − 1) positive transfers", () => {
    fc.assert(
      fc.property(nets, (balances) => {
        const plan = settlePlan(balances);
        for (const [, left] of apply(balances, plan)) expect(left).toBe(0);
        const people = [...balances.values()].filter((c) => c !== 0).length;
        expect(plan.length).toBeLessThanOrEqual(Math.max(0, people - 1));
        for (const t of plan) {
          expect(t.cents).toBeGreaterThan(0);
          // Money only flows from those who owe to those owed.
          expect(balances.get(t.from)!).toBeLessThan(0);
          expect(balances.get(t.to)!).toBeGreaterThan(0);
        }
      }),
    );
  });

  it("is one transfer per debt when one person is owed by everyone", () => {
    const plan = settlePlan(
      new Map([
        ["ann", 3000],
        ["ben", -1240],
        ["carl", -1760],
      ]),
    );
    expect(plan).toEqual([
      { from: "carl", to: "ann", cents: 1760 },
      { from: "ben", to: "ann", cents: 1240 },
    ]);
  });

  it("is not always the fewest: greedy takes 4 where 3 would do (the decision record's example)", () => {
    // {a +5, c −3, e −2} and {b +4, d −4} settle apart in 2 + 1 transfers; greedy first pays the
    // largest debt (d) to the largest creditor (a), splitting both groups, and needs 4.
    const balances = new Map([
      ["a", 500],
      ["b", 400],
      ["c", -300],
      ["d", -400],
      ["e", -200],
    ]);
    const plan = settlePlan(balances);
    expect(plan).toHaveLength(4);
    for (const [, left] of apply(balances, plan)) expect(left).toBe(0);
  });

  it("has nothing to do when nobody owes anything", () => {
    expect(settlePlan(new Map([["ann", 0]]))).toEqual([]);
    expect(settlePlan(new Map())).toEqual([]);
  });
});
