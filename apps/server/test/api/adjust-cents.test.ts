/**
 * A re-split after an adjustment may move one odd cent of a member's share from tax to fees (or
 * back) while their subtotal and total stay the same: the share must still be written, or the
 * shares' fees and tax stop adding up to the order's. Found by the ledger's reference model.
 *
 * By adder, fees 1 % in proportion, tax 13 % of subtotal and fees. Lines priced 3.54 (Ann),
 * 10.83 (Ben) and 11.54 (Cat): Ann's share is 3.54 + 0.03 fees + 0.47 tax = 4.04. Ben's line
 * repriced to 5.46: the order's fees are 0.21 (3.54 + 5.46 + 11.54 = 20.54 exactly, the two odd
 * cents to the largest remainders, Ann's .54 and Cat's .54) and its tax 2.70; Ann's share is
 * 3.54 + 0.04 + 0.46 = 4.04, the same total.
 */
import type { Order } from "@cartner/contract";
import { afterAll, beforeAll, expect, it } from "vitest";
import { products } from "../../src/db/schema.ts";
import { cents, createTestApp, sum, type TestApp } from "../helpers.ts";
import { group } from "../group-support.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.database.db.update(products).set({ stock: 1000 });
});
afterAll(async () => t.close());

it("a share whose fees and tax trade a cent at the same total is written", async () => {
  const g = await group(t, ["Ann", "Ben", "Cat"] as const);
  await g.policy("by_adder");
  await g.add("Ann", "Free-Range Eggs (12)", 1);
  await g.add("Ben", "Rustic Sourdough Loaf", 1);
  await g.add("Cat", "Aged Cheddar (250 g)", 1);
  const order = await g.checkout();
  const url = `/api/orders/${order._id}/adjustments`;
  const adjust = async (lineIndex: number, unitPrice: number) => {
    const res = await g.as.Ann("POST", url, { kind: "price", lineIndex, unitPrice });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().order as Order;
  };
  const lineOf = (name: "Ann" | "Ben" | "Cat") =>
    order.lines.findIndex((l) => l.addedBy._id === g.id(name));
  const shareOf = (o: Order, name: "Ann" | "Ben" | "Cat") => {
    const s = o.split.find((x) => x.userId === g.id(name))!;
    return {
      subtotal: cents(s.subtotal),
      fees: cents(s.fees),
      tax: cents(s.tax),
      total: cents(s.total),
    };
  };

  await adjust(lineOf("Ann"), 3.54);
  await adjust(lineOf("Cat"), 11.54);
  const before = await adjust(lineOf("Ben"), 10.83);
  expect(shareOf(before, "Ann")).toEqual({ subtotal: 354, fees: 3, tax: 47, total: 404 });

  await adjust(lineOf("Ben"), 5.46);
  // Read back: what was stored, not what the adjustment's answer computed.
  const after = (await g.as.Ann("GET", `/api/orders/${order._id}`)).json().order as Order;
  expect(shareOf(after, "Ann")).toEqual({ subtotal: 354, fees: 4, tax: 46, total: 404 });
  expect(cents(after.fees)).toBe(21);
  expect(cents(after.tax)).toBe(270);
  expect(sum(after.split.map((s) => cents(s.fees)))).toBe(cents(after.fees));
  expect(sum(after.split.map((s) => cents(s.tax)))).toBe(cents(after.tax));
  expect(sum(after.split.map((s) => cents(s.total)))).toBe(cents(after.total));
});
