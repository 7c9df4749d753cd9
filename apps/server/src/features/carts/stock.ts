/**
 * How a product's stock goes round the cart's lines that want it: oldest line first (the order
 * cart_view() lists them in), each taking what it wants of what is left. The cart flags what a
 * line cannot get (`stockShort`); checkout takes the same figures from the stock it locked.
 */
export interface StockLine {
  id: string;
  productId: string;
  quantity: number;
}

/** Each line's units the stock covers (`stockOf`: the product's units left), by line id. */
export function allotStock(
  lines: readonly StockLine[],
  stockOf: (productId: string) => number,
): Map<string, number> {
  const left = new Map<string, number>();
  const taken = new Map<string, number>();
  for (const line of lines) {
    const have = left.get(line.productId) ?? Math.max(0, stockOf(line.productId));
    const take = Math.min(line.quantity, have);
    left.set(line.productId, have - take);
    taken.set(line.id, take);
  }
  return taken;
}
