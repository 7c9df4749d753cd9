/**
 * An order's stored rows, as every orders module reads them, and the people an order concerns: a
 * leaf (the schema's types only), so the order's view (reading/view.ts), the frozen split
 * (reading/frozen.ts) and every write can share it without a cycle.
 */
import type { orderPayers, orderShares, orders } from "../../db/schema.ts";

export type OrderRow = typeof orders.$inferSelect;
export type ShareRow = typeof orderShares.$inferSelect & { accountDeleted?: boolean };
export type PayerRow = typeof orderPayers.$inferSelect;

/** People an order concerns: its payee and everyone with a share. */
export function peopleOf(row: OrderRow, shares: Pick<ShareRow, "userId">[]): string[] {
  const people = new Set(shares.map((s) => s.userId));
  if (row.payeeId) people.add(row.payeeId);
  return [...people];
}
