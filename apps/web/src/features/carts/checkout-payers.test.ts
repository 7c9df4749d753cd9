import { describe, expect, it } from "vitest";
import {
  amountError,
  firstSplit,
  nextRow,
  payerCandidates,
  readPayers,
} from "./checkout-payers.ts";

const ann = { userId: "u-ann", name: "Ann" };
const shares = [
  { userId: "u-ben", name: "Ben", total: 14.84 },
  { userId: "u-ann", name: "Ann", total: 29.65 },
  { userId: "u-cat", name: "Cat", total: 0 },
  { userId: "u-dan", name: "Dan", total: 5 },
];

describe("who pays the shop at checkout", () => {
  it("offers the payee first, then the members with a share above zero", () => {
    expect(payerCandidates(ann, shares).map((c) => c.name)).toEqual(["Ann", "Ben", "Dan"]);
  });

  it("opens with the payee and the next member, halves adding up to the total, the odd cent to the payee", () => {
    const rows = firstSplit(payerCandidates(ann, shares), 4449);
    expect(rows).toEqual([
      { userId: "u-ann", amount: "22.25" },
      { userId: "u-ben", amount: "22.24" },
    ]);
    expect(readPayers(rows, 4449)).toEqual({
      payers: [
        { userId: "u-ann", amount: 22.25 },
        { userId: "u-ben", amount: 22.24 },
      ],
      leftCents: 0,
      ready: true,
    });
    expect(firstSplit([ann], 4449)).toEqual([{ userId: "u-ann", amount: "44.49" }]);
  });

  it("is ready only when every amount is valid and they add up to the total to the cent", () => {
    const rows = (a: string, b: string) => [
      { userId: "u-ann", amount: a },
      { userId: "u-ben", amount: b },
    ];
    expect(readPayers(rows("20", "24.48"), 4449)).toMatchObject({ leftCents: 1, ready: false });
    expect(readPayers(rows("20", "24.50"), 4449)).toMatchObject({ leftCents: -1, ready: false });
    expect(readPayers(rows("20", ""), 4449)).toMatchObject({ leftCents: 2449, ready: false });
    expect(readPayers(rows("44.49", "0"), 4449)).toMatchObject({ leftCents: 0, ready: false });
    expect(readPayers(rows("20", "24.4x"), 4449)).toMatchObject({ ready: false });
    // 0.1 + 0.2 in cents is exact: no float drift.
    expect(readPayers(rows("0.1", "0.2"), 30)).toMatchObject({ leftCents: 0, ready: true });
    expect(readPayers([], 4449).ready).toBe(false);
  });

  it("says what is wrong with an amount as typed, and nothing for an empty one", () => {
    expect(amountError("")).toBeUndefined();
    expect(amountError(" 12.4 ")).toBeUndefined();
    expect(amountError("12.345")).toBe("An amount like 12.40");
    expect(amountError("-3")).toBe("An amount like 12.40");
    expect(amountError("0.00")).toBe("More than 0");
  });

  it("adds the next member not listed, with what is left to assign", () => {
    const candidates = payerCandidates(ann, shares);
    expect(nextRow([{ userId: "u-ann", amount: "40" }], candidates, 4449)).toEqual({
      userId: "u-ben",
      amount: "4.49",
    });
    expect(
      nextRow(
        [
          { userId: "u-ann", amount: "44.49" },
          { userId: "u-ben", amount: "" },
        ],
        candidates,
        4449,
      ),
    ).toEqual({ userId: "u-dan", amount: "" });
    expect(
      nextRow(
        candidates.map((c) => ({ userId: c.userId, amount: "1" })),
        candidates,
        4449,
      ),
    ).toBeNull();
  });
});
