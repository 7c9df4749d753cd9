/**
 * Private lines in an order (docs/decisions/049-private-lines.md): the order as one reader sees
 * it. The kept view (kept.ts) is the order whole, the same for everyone; each reader's is made
 * from it here, and only for an order that has a private line.
 */
import type { Order } from "@cartner/contract";

/** Whether any line of the order is hidden from anyone. */
export const hasPrivate = (order: Pick<Order, "lines">): boolean =>
  order.lines.some((l) => l.hiddenFrom.length > 0);

/**
 * The order as `readerId` sees it. A line hidden from them is left out, with the adjustments
 * about it, and counted in `privateCount`; the totals, shares, parts and payers stay as stored
 * (they include its cost), so the reader's figures add up "including N private items". The
 * adjustments left are renumbered to the lines the reader has: every `lineIndex` they read names
 * a line of their `lines` (only the payee adjusts, and the payee sees every line at its stored
 * index). Whom a line is hidden from is shown to its adder and the payee; others get [].
 */
export function orderSeenBy(order: Order, readerId: string): Order {
  if (!hasPrivate(order)) return order;
  const payee = order.payee._id === readerId;
  const kept = new Map<number, number>();
  const lines: Order["lines"] = [];
  order.lines.forEach((l, i) => {
    if (l.hiddenFrom.includes(readerId)) return;
    kept.set(i, lines.length);
    lines.push(payee || l.addedBy._id === readerId ? l : { ...l, hiddenFrom: [] });
  });
  const adjustments = order.adjustments.flatMap((a) => {
    if (a.lineIndex === undefined) return [a];
    const at = kept.get(a.lineIndex);
    return at === undefined ? [] : [{ ...a, lineIndex: at }];
  });
  return { ...order, lines, adjustments, privateCount: order.lines.length - lines.length };
}

/** Whether the line at `lineIndex` (as stored) is hidden from `userId`. */
export const hiddenLine = (
  lines: readonly { hiddenFrom?: string[] | undefined }[],
  lineIndex: number | undefined,
  userId: string,
): boolean => lineIndex !== undefined && (lines[lineIndex]?.hiddenFrom ?? []).includes(userId);
