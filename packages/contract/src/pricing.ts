import { FEE_RATE_PERCENT, TAX_RATE_PERCENT } from "./constants.ts";

/** All amounts here are integer cents. */
export interface OrderSummary {
  subtotal: number;
  fees: number;
  tax: number;
  total: number;
}

/** percent% of a non-negative cent amount, rounded to the cent, half up (exact integer maths). */
export function percentOf(cents: number, percent: number): number {
  return Math.floor((cents * percent + 50) / 100);
}

/** Fees 1 % of the subtotal; tax 13 % of subtotal plus fees; each rounded half up. */
export function orderSummary(subtotal: number): OrderSummary {
  const fees = percentOf(subtotal, FEE_RATE_PERCENT);
  const tax = percentOf(subtotal + fees, TAX_RATE_PERCENT);
  return { subtotal, fees, tax, total: subtotal + fees + tax };
}
