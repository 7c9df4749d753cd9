import { afterEach, describe, expect, it, vi } from "vitest";
import {
  currencyName,
  formatMoney,
  getCurrency,
  setCurrency,
  subscribeCurrency,
} from "./format.ts";

afterEach(() => setCurrency("USD"));

describe("the currency of amounts", () => {
  it("is USD until the server says, then the server's, remembered for the next visit", () => {
    expect(getCurrency()).toBe("USD");
    expect(formatMoney(1234.5)).toBe("$1,234.50");
    const heard = vi.fn();
    const stop = subscribeCurrency(heard);
    setCurrency("EUR");
    expect(formatMoney(1234.5)).toBe("€1,234.50");
    expect(window.localStorage.getItem("currency")).toBe("EUR");
    setCurrency("EUR");
    expect(heard).toHaveBeenCalledTimes(1);
    stop();
  });

  it("names the currency in hints", () => {
    expect(currencyName()).toBe("US dollars");
    setCurrency("EUR");
    expect(currencyName()).toBe("euros");
  });

  it("ignores a code Intl cannot format", () => {
    setCurrency("euro");
    setCurrency("");
    expect(getCurrency()).toBe("USD");
  });
});
