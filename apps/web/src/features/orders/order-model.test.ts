import { describe, expect, it } from "vitest";
import { parseAmount } from "./order-model.ts";

describe("parseAmount", () => {
  it("reads an amount with a dot or a comma, with or without a currency sign", () => {
    expect(parseAmount("2.49")).toBe(2.49);
    expect(parseAmount(" 2,49 ")).toBe(2.49);
    expect(parseAmount("$2.49")).toBe(2.49);
    expect(parseAmount("€1.50")).toBe(1.5);
    expect(parseAmount("€ 1,50")).toBe(1.5);
    expect(parseAmount("1,50 €")).toBe(1.5);
    expect(parseAmount("£3")).toBe(3);
  });

  it("refuses what is not one amount in currency units", () => {
    for (const text of ["", "€", "abc", "1.505", "-1", "1.2.3", "€€1", "1 €€", "EUR 1.50"]) {
      expect(parseAmount(text)).toBeNull();
    }
  });
});
