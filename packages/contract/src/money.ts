/** Money is integer cents everywhere; the API shows currency units with two decimals. */
export const toCents = (amount: number): number => Math.round(amount * 100);
export const fromCents = (cents: number): number => cents / 100;
