/**
 * An order's stored rows, as every orders module reads them, and the people an order concerns: a
 * leaf (the schema's types only), so the order's view (reading/view.ts), the frozen split
 * (reading/frozen.ts) and every write can share it without a cycle.
 */
import type { orderPayers, orderShares, orders } from "../../db/schema.ts";

export type OrderRow = typeof orders.$inferSelect;
/** The order's sort key copied onto its share and payer rows: My Orders' indexes', no one else's. */
type SortKey = "placedAt" | "orderNumber";
export type ShareRow = Omit<typeof orderShares.$inferSelect, SortKey> & {
  accountDeleted?: boolean;
};
export type PayerRow = Omit<typeof orderPayers.$inferSelect, SortKey>;

/** People an order concerns: its payee and everyone with a share. */
export function peopleOf(row: OrderRow, shares: Pick<ShareRow, "userId">[]): string[] {
  const people = new Set(shares.map((s) => s.userId));
  if (row.payeeId) people.add(row.payeeId);
  return [...people];
}
