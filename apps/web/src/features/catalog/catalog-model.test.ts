import { describe, expect, it } from "vitest";
import { changesOf, describeChange, parseAmount } from "./catalog-model.ts";

const product = { name: "Oat milk", price: 2.99, stock: 10, available: true };

describe("the inline editor's changes", () => {
  it("sends only what changed, as numbers", () => {
    expect(
      changesOf(product, { name: "Oat milk", price: "3,49", stock: "10", available: true }),
    ).toEqual({ body: { price: 3.49 }, errors: {} });
    expect(
      changesOf(product, { name: " Oat drink ", price: "2.99", stock: "4", available: false }),
    ).toEqual({ body: { name: "Oat drink", stock: 4, available: false }, errors: {} });
  });

  it("names each field it can tell is wrong", () => {
    const { errors } = changesOf(product, {
      name: "  ",
      price: "cheap",
      stock: "2.5",
      available: true,
    });
    expect(Object.keys(errors).sort()).toEqual(["name", "price", "stock"]);
  });

  it("reads amounts with a point or a comma, and leaves the rest as typed", () => {
    expect(parseAmount(" 12 ")).toBe(12);
    expect(parseAmount("0,5")).toBe(0.5);
    expect(parseAmount("-1")).toBe("-1");
  });
});

describe("a change in words", () => {
  const base = { at: "2026-11-29T10:00:00Z", productId: "p1", from: null, to: null };
  it("says who changed what, and from what to what", () => {
    expect(
      describeChange(
        { ...base, by: { _id: "u1", name: "Ann" }, field: "price", from: 2.99, to: 3.49 },
        "Oat milk",
      ),
    ).toBe("Ann changed the price of Oat milk from $2.99 to $3.49");
    expect(
      describeChange({ ...base, by: null, field: "available", from: true, to: false }, "Oat milk"),
    ).toBe("An import took Oat milk off sale");
    expect(
      describeChange({ ...base, by: { _id: "u1", name: "Ann" }, field: "added", to: "Tea" }, "Tea"),
    ).toBe("Ann added Tea");
  });
});
