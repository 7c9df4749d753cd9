/**
 * What each change after checkout does to the order's lines, from decision 019's words (written
 * apart from the contract's re-split): missing carries nothing; substituted takes another name and
 * unit price (and quantity, when given) and is delivered; quantity and price set that value and
 * are delivered; a refund adds to what was refunded on the line (negative takes one back), never
 * below 0 nor beyond the line's price, and not on a line that was not delivered; a price or
 * quantity may not leave the line costing less than was refunded; an order fee adds a signed
 * amount to the whole order. A free line is at its estimate until a price or a substitute (at a
 * price) names it.
 */
export interface LineState {
  name: string;
  /** Cents. */
  unitPrice: number;
  quantity: number;
  refunded: number;
  missing: boolean;
  /** A free line no price or substitute has priced yet. */
  estimated: boolean;
}

/** One adjustment as the API takes it, in cents. */
export type Change =
  | { kind: "missing"; lineIndex: number }
  | { kind: "substituted"; lineIndex: number; name: string; unitPrice: number; quantity?: number }
  | { kind: "quantity"; lineIndex: number; quantity: number }
  | { kind: "price"; lineIndex: number; unitPrice: number }
  | { kind: "refund"; lineIndex: number; amount: number }
  | { kind: "order_fee"; amount: number };

export const lineTotal = (l: LineState): number =>
  l.missing ? 0 : l.unitPrice * l.quantity - l.refunded;

/** The lines and order-level amount after `change`, or the field a 400 names. */
export function applyChange(
  lines: readonly LineState[],
  orderFees: number,
  change: Change,
): { lines: LineState[]; orderFees: number } | { refused: string } {
  if (change.kind === "order_fee")
    return { lines: [...lines], orderFees: orderFees + change.amount };
  const line = lines[change.lineIndex];
  if (!line) return { refused: "lineIndex" };
  const next = { ...line };
  switch (change.kind) {
    case "missing":
      next.missing = true;
      break;
    case "substituted":
      next.name = change.name;
      next.unitPrice = change.unitPrice;
      if (change.quantity !== undefined) next.quantity = change.quantity;
      next.missing = false;
      next.estimated = false;
      break;
    case "quantity":
      next.quantity = change.quantity;
      next.missing = false;
      break;
    case "price":
      next.unitPrice = change.unitPrice;
      next.missing = false;
      next.estimated = false;
      break;
    case "refund":
      if (line.missing) return { refused: "lineIndex" };
      next.refunded += change.amount;
      if (next.refunded < 0 || next.refunded > next.unitPrice * next.quantity) {
        return { refused: "amount" };
      }
      break;
  }
  if (change.kind !== "refund" && next.refunded > next.unitPrice * next.quantity) {
    return { refused: change.kind === "quantity" ? "quantity" : "unitPrice" };
  }
  return { lines: lines.map((l, i) => (i === change.lineIndex ? next : l)), orderFees };
}

/** The request body of POST /orders/:id/adjustments for a change (currency units). */
export function changeBody(change: Change): Record<string, unknown> {
  const units = (cents: number) => cents / 100;
  switch (change.kind) {
    case "missing":
      return { kind: "missing", lineIndex: change.lineIndex, note: "not in the bag" };
    case "substituted":
      return {
        kind: "substituted",
        lineIndex: change.lineIndex,
        name: change.name,
        unitPrice: units(change.unitPrice),
        ...(change.quantity === undefined ? {} : { quantity: change.quantity }),
      };
    case "quantity":
      return { kind: "quantity", lineIndex: change.lineIndex, quantity: change.quantity };
    case "price":
      return { kind: "price", lineIndex: change.lineIndex, unitPrice: units(change.unitPrice) };
    case "refund":
      return { kind: "refund", lineIndex: change.lineIndex, amount: units(change.amount) };
    case "order_fee":
      return { kind: "order_fee", amount: units(change.amount) };
  }
}
