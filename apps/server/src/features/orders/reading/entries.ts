/**
 * GET /orders/:id/entries: the order's book as its people read it, oldest first, a page at a
 * time. People are named as they are now; a deleted one as the order recorded them.
 */
import { fromCents, type LedgerEntry } from "@cartner/contract";
import { and, asc, eq, gt, inArray } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { ledgerEntries, orderPayers, orderShares, orders, users } from "../../../db/schema.ts";

export async function entriesOf(
  db: Db,
  orderId: string,
  page: { cursor?: string | undefined; limit: number },
): Promise<{ entries: LedgerEntry[]; nextCursor: string | null }> {
  const [after] = page.cursor
    ? await db
        .select({ seq: ledgerEntries.seq })
        .from(ledgerEntries)
        .where(and(eq(ledgerEntries.id, page.cursor), eq(ledgerEntries.orderId, orderId)))
    : [];
  const rows = await db
    .select()
    .from(ledgerEntries)
    .where(
      and(eq(ledgerEntries.orderId, orderId), after ? gt(ledgerEntries.seq, after.seq) : undefined),
    )
    .orderBy(asc(ledgerEntries.seq))
    .limit(page.limit + 1);
  const shown = rows.slice(0, page.limit);
  const names = await namesIn(db, orderId, [
    ...new Set(shown.flatMap((r) => [r.fromId, r.toId, ...(r.byId ? [r.byId] : [])])),
  ]);
  const person = (id: string | null, fallback = "") => ({
    _id: id ?? "",
    name: (id && names.get(id)) || fallback,
  });
  return {
    entries: shown.map((r) => ({
      _id: r.id,
      at: r.at.toISOString(),
      kind: r.kind,
      from: person(r.fromId),
      to: person(r.toId),
      amount: fromCents(r.amountCents),
      by: person(r.byId, r.byName),
      note: r.note,
      pending: r.pending,
      ref: r.refId,
    })),
    nextCursor: rows.length > page.limit ? shown.at(-1)!.id : null,
  };
}

/** Names as now; a deleted person's as the order recorded them (share, payer or payee). */
async function namesIn(db: Db, orderId: string, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const [current, shares, payers, [order]] = await Promise.all([
    db
      .select({ id: users.id, name: users.name, deletedAt: users.deletedAt })
      .from(users)
      .where(inArray(users.id, ids)),
    db
      .select({ id: orderShares.userId, name: orderShares.name })
      .from(orderShares)
      .where(eq(orderShares.orderId, orderId)),
    db
      .select({ id: orderPayers.userId, name: orderPayers.name })
      .from(orderPayers)
      .where(eq(orderPayers.orderId, orderId)),
    db
      .select({ id: orders.payeeId, name: orders.payeeName })
      .from(orders)
      .where(eq(orders.id, orderId)),
  ]);
  const names = new Map<string, string>();
  if (order?.id) names.set(order.id, order.name);
  for (const r of [...payers, ...shares]) names.set(r.id, r.name);
  for (const u of current) if (!u.deletedAt) names.set(u.id, u.name);
  return names;
}
