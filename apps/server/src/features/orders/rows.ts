/**
 * An order's stored rows, as every orders module reads them: the types alone, apart from the
 * order's view (order-view.ts), which reads the frozen split (frozen.ts) that needs them too.
 */
import type { orderPayers, orderShares, orders } from "../../db/schema.ts";

export type OrderRow = typeof orders.$inferSelect;
export type ShareRow = typeof orderShares.$inferSelect & { accountDeleted?: boolean };
export type PayerRow = typeof orderPayers.$inferSelect;
