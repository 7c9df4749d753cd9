/** Reading orders: My Orders, one order, and its book, each as its reader may see it. */
import type { LedgerEntry, Order } from "@cartner/contract";
import { desc, eq, or, sql } from "drizzle-orm";
import { orderShares, orders } from "../../../db/schema.ts";
import { pairsOfOrders } from "../../ledger/index.ts";
import { access } from "../access.ts";
import type { OrderDeps } from "../deps.ts";
import { entriesOf } from "./entries.ts";
import { build, payersOf, sharesOf, viewOf } from "./view.ts";

/** Every order the user is the payee of or has a share in, newest first. */
export async function listOrders(deps: Pick<OrderDeps, "db">, userId: string): Promise<Order[]> {
  const { db } = deps;
  const rows = await db
    .select()
    .from(orders)
    .where(
      or(
        eq(orders.payeeId, userId),
        sql`exists (select 1 from ${orderShares} where ${orderShares.orderId} = ${orders.id}
            and ${orderShares.userId} = ${userId})`,
      ),
    )
    .orderBy(desc(orders.placedAt), desc(orders.number));
  const ids = rows.map((r) => r.id);
  const [shares, payers, pairs] = await Promise.all([
    sharesOf(db, ids),
    payersOf(db, ids),
    pairsOfOrders(db, ids),
  ]);
  return rows.map((row) =>
    build(
      row,
      shares.filter((s) => s.orderId === row.id),
      payers.filter((p) => p.orderId === row.id),
      pairs.filter((p) => p.orderId === row.id),
    ),
  );
}

/** One order, to someone with a part in it (its receipt and CSV read it the same way). */
export async function getOrder(
  deps: Pick<OrderDeps, "db">,
  orderId: string,
  userId: string,
): Promise<Order> {
  return viewOf(await access(deps, orderId, userId, "order.read"));
}

/** The order's book, oldest first (entries.ts). */
export async function orderEntries(
  deps: Pick<OrderDeps, "db">,
  orderId: string,
  userId: string,
  page: { cursor?: string; limit: number },
): Promise<{ entries: LedgerEntry[]; nextCursor: string | null }> {
  await access(deps, orderId, userId, "order.read");
  return entriesOf(deps.db, orderId, page);
}
