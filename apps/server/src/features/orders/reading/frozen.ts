/**
 * An order as checkout froze it, in the re-split's terms (contract's adjust.ts): its lines, its
 * paying members and their roles, its policy; and each share's exact total by that re-split, the
 * figure several payers are owed from.
 */
import { resplit, type Rational, type SplitInputMember } from "@cartner/contract";
import type { OrderRow, ShareRow } from "../rows.ts";

/**
 * The paying members at checkout. Orders placed before checkout kept them are read back from
 * what they do keep: each share's member, and the payee as the creator (the payee is the
 * session's creator at checkout).
 */
export function membersAtCheckout(row: OrderRow, shares: ShareRow[]): SplitInputMember[] {
  if (row.members) return row.members;
  const members: SplitInputMember[] = shares.map((s) => ({
    userId: s.userId,
    name: s.name,
    role: s.userId === row.payeeId ? "creator" : "participant",
  }));
  if (row.payeeId && !members.some((m) => m.userId === row.payeeId)) {
    members.push({ userId: row.payeeId, name: row.payeeName, role: "creator" });
  }
  return members;
}

/** The order as checkout froze it, in the re-split's terms. */
export const frozenOf = (row: OrderRow, shares: ShareRow[]) => ({
  lines: row.lines.map((l) => ({
    name: l.name,
    unitPrice: l.unitPriceCents,
    quantity: l.quantity,
    addedBy: l.addedBy._id,
    addedByName: l.addedBy.name,
    sharedWith: l.sharedWith.map((u) => u._id),
  })),
  members: membersAtCheckout(row, shares),
  policy: row.policy,
});

/**
 * Each share's exact total (before rounding) as the order's re-split gives it, ties by the cart
 * (the checkout's seed): what owedToPayers rounds each part from. Undefined when the order no
 * longer re-splits (data an older release stored).
 */
export function exactTotals(
  row: OrderRow,
  shares: ShareRow[],
  adjustments: Parameters<typeof resplit>[1],
): ReadonlyMap<string, Rational> | undefined {
  try {
    return resplit(frozenOf(row, shares), adjustments, row.cartId).exact;
  } catch {
    return undefined;
  }
}
