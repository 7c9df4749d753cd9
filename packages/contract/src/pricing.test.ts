import { describe, expect, it } from "vitest";
import { orderSummary, percentOf } from "./pricing.ts";

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
