/**
 * Orders as the API shows them: the split's figures from the order's rows, and every amount owed,
 * paid and owed back from the ledger's pairs (features/ledger). partsOf() is what the split says
 * each share owes each payer, which the ledger's share and adjustment entries follow.
 */
import {
  applyAdjustments,
  fromCents,
  orderNumber,
  owedToPayers,
  scalePayers,
  type Adjustment,
  type Order,
  type Owed,
} from "@cartner/contract";
import { asc, eq, getTableColumns, inArray, sql } from "drizzle-orm";
import type { Db, Tx } from "../../../db/client.ts";
import { bookJson, pairsOfJson, shareBook, type Pair } from "../../ledger/index.ts";
import {
  orderPayers,
  orderShares,
  orders,
  users,
  type StoredAdjustment,
} from "../../../db/schema.ts";
import { exactTotals } from "./frozen.ts";
import type { OrderRow, PayerRow, ShareRow } from "../rows.ts";

/** The payers the payee named for these orders, each order's in the payee's order. */
export async function payersOf(db: Db | Tx, orderIds: string[]): Promise<PayerRow[]> {
  if (orderIds.length === 0) return [];
  return db
    .select()
    .from(orderPayers)
    .where(inArray(orderPayers.orderId, orderIds))
    .orderBy(asc(orderPayers.position));
}

/**
 * Who paid the shop: the payers named, or else the payee with the whole total. An adjustment
 * after the payers were named changes the total, not what they paid: their amounts are scaled to
 * the adjusted total in proportion (a refund goes back to the payers as they paid), so they
 * always add up to it.
 */
export function payersFor(
  row: OrderRow,
  payers: PayerRow[],
): { userId: string; name: string; cents: number; paid?: number }[] {
  const named = payers.filter((p) => p.orderId === row.id);
  if (named.length > 0) {
    const scaled = scalePayers(
      row.totalCents,
      named.map((p) => ({ userId: p.userId, cents: p.amountCents })),
      row.cartId,
    );
    return named.map((p, i) => ({
      userId: p.userId,
      name: p.name,
      cents: scaled[i]!,
      paid: p.amountCents,
    }));
  }
  return [{ userId: row.payeeId ?? "", name: row.payeeName, cents: row.totalCents }];
}

/**
 * Every share's parts owed to each payer (a part owed to oneself is in it: no debt), each within
 * a cent of the share's exact total (the re-split's, before rounding) in the payer's proportion;
 * ties by the order's cart, so the rounding never changes while nothing else does.
 */
export function partsOf(row: OrderRow, shares: ShareRow[], payers: PayerRow[]): Owed[] {
  const mine = shares.filter((s) => s.orderId === row.id);
  const paidBy = payersFor(row, payers);
  // One payer is owed every share whole: no proportion to round.
  const exact =
    paidBy.length > 1 ? exactTotals(row, mine, row.adjustments.map(adjustmentCents)) : undefined;
  const own = mine.map((s) => ({
    userId: s.userId,
    cents: s.totalCents,
    exact: exact?.get(s.userId),
  }));
  // Members whose share rounded to nothing have no row but part of the exact total: 0 cents.
  for (const [userId, e] of exact ?? []) {
    if (!own.some((s) => s.userId === userId)) own.push({ userId, cents: 0, exact: e });
  }
  return owedToPayers(
    own.sort((a, b) => (a.userId < b.userId ? -1 : 1)),
    paidBy,
    row.cartId,
  );
}

/** The shares of these orders, each with whether its member has since deleted their account. */
export async function sharesOf(db: Db | Tx, orderIds: string[]): Promise<ShareRow[]> {
  if (orderIds.length === 0) return [];
  return db
    .select({
      ...getTableColumns(orderShares),
      accountDeleted: sql<boolean>`${users.deletedAt} is not null`,
    })
    .from(orderShares)
    .leftJoin(users, eq(users.id, orderShares.userId))
    .where(inArray(orderShares.orderId, orderIds));
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** An adjustment as the API shows it (currency units). */
export function adjustmentOf(a: StoredAdjustment): Adjustment {
  return {
    _id: a.id,
    at: a.at,
    by: a.by,
    kind: a.kind,
    ...(a.lineIndex !== undefined ? { lineIndex: a.lineIndex } : {}),
    ...(a.quantity !== undefined ? { quantity: a.quantity } : {}),
    ...(a.unitPriceCents !== undefined ? { unitPrice: fromCents(a.unitPriceCents) } : {}),
    ...(a.amountCents !== undefined ? { amount: fromCents(a.amountCents) } : {}),
    ...(a.name !== undefined ? { name: a.name } : {}),
    ...(a.note !== undefined ? { note: a.note } : {}),
    disputes: a.disputes,
  };
}

/** Adjustments in the re-split's terms (cents). */
export const adjustmentCents = (a: StoredAdjustment) => ({
  kind: a.kind,
  lineIndex: a.lineIndex,
  quantity: a.quantity,
  unitPrice: a.unitPriceCents,
  amount: a.amountCents,
  name: a.name,
});

/** An order's rows and its book, as loadOrder() reads them. */
export interface LoadedOrder {
  row: OrderRow;
  shares: ShareRow[];
  payers: PayerRow[];
  pairs: Pair[];
}

/** An order's rows and its book, as build() takes them; null when there is no such order. */
export async function loadOrder(db: Db | Tx, orderId: string): Promise<LoadedOrder | null> {
  const [found] = await loadOrders(db, [orderId]);
  return found ?? null;
}

/**
 * These orders' rows and books (those that exist, in no order). One statement: the order page is
 * read often, the embedded database runs one query at a time, and each order comes with its rows
 * and book as of its own version (kept.ts keeps its view by it).
 */
export async function loadOrders(db: Db | Tx, orderIds: string[]): Promise<LoadedOrder[]> {
  if (orderIds.length === 0) return [];
  const found = await db
    .select({
      row: orders,
      shares: sql<ShareRow[]>`(select coalesce(json_agg(json_build_object(
          'orderId', s.order_id, 'userId', s.user_id, 'name', s.name,
          'subtotalCents', s.subtotal_cents, 'feesCents', s.fees_cents, 'taxCents', s.tax_cents,
          'totalCents', s.total_cents, 'originalTotalCents', s.original_total_cents,
          'mail', s.mail, 'accountDeleted', u.deleted_at is not null)), '[]')
        from ${orderShares} s left join ${users} u on u.id = s.user_id
        where s.order_id = "orders"."id")`,
      payers: sql<PayerRow[]>`(select coalesce(json_agg(json_build_object(
          'orderId', p.order_id, 'userId', p.user_id, 'name', p.name,
          'amountCents', p.amount_cents, 'position', p.position) order by p.position), '[]')
        from ${orderPayers} p where p.order_id = "orders"."id")`,
      // Qualified by hand: inside a select's field Drizzle writes a column without its table.
      book: bookJson(sql`"orders"."id"`),
    })
    .from(orders)
    .where(orderIds.length === 1 ? eq(orders.id, orderIds[0]!) : inArray(orders.id, orderIds));
  return found.map((f) => ({
    row: f.row,
    shares: f.shares,
    payers: f.payers,
    pairs: pairsOfJson(f.book),
  }));
}

/** The order as the API shows it, from its loaded rows and book. */
export const viewOf = (found: LoadedOrder): Order =>
  build(found.row, found.shares, found.payers, found.pairs);

/** The order as the API shows it, read whole (for mails and notices outside a request). */
export async function orderOf(db: Db | Tx, orderId: string): Promise<Order | null> {
  const found = await loadOrder(db, orderId);
  return found ? build(found.row, found.shares, found.payers, found.pairs) : null;
}

/** The order as the API shows it (money in currency units, as everywhere in the API). */
export function build(row: OrderRow, shares: ShareRow[], payers: PayerRow[], pairs: Pair[]): Order {
  const adjusted = applyAdjustments(
    row.lines.map((l) => ({
      name: l.name,
      unitPrice: l.unitPriceCents,
      quantity: l.quantity,
      addedBy: l.addedBy._id,
    })),
    row.adjustments.map(adjustmentCents),
  ).lines;
  const touched = new Set(row.adjustments.map((a) => a.lineIndex));
  // A free line is priced once the payee gave it a price (or another item at a price).
  const priced = new Set(
    row.adjustments
      .filter((a) => a.kind === "price" || a.kind === "substituted")
      .map((a) => a.lineIndex),
  );
  const placedAt = new Date(row.placedAt);
  const payerIds = payersFor(row, payers).map((p) => p.userId);
  const books = new Map(
    shares.map((s) => [s.userId, shareBook(pairs, s.userId, payerIds, placedAt)]),
  );
  return {
    _id: row.id,
    number: orderNumber(row.number),
    sessionId: row.sessionId,
    sessionName: row.sessionName,
    placedAt: new Date(row.placedAt).toISOString(),
    placedBy: { _id: row.placedById ?? "", name: row.placedByName },
    payee: { _id: row.payeeId ?? "", name: row.payeeName },
    lines: row.lines.map((l, i) => ({
      productId: l.productId,
      name: l.name,
      unitPrice: fromCents(l.unitPriceCents),
      quantity: l.quantity,
      addedBy: l.addedBy,
      sharedWith: l.sharedWith,
      lineTotal: fromCents(l.lineTotalCents),
      free: l.productId === null,
      estimated: l.productId === null && !priced.has(i),
      note: l.note ?? null,
      substitute: l.substitute ?? "any",
      hiddenFrom: l.hiddenFrom ?? [],
      adjusted: touched.has(i)
        ? {
            name: adjusted[i]!.name,
            unitPrice: fromCents(adjusted[i]!.unitPrice),
            quantity: adjusted[i]!.quantity,
            refunded: fromCents(adjusted[i]!.refunded),
            missing: adjusted[i]!.missing,
            lineTotal: fromCents(adjusted[i]!.lineTotal),
          }
        : null,
    })),
    // The payee first, then by name: the order of the receipt and the order page.
    split: [...shares]
      .sort(
        (a, b) =>
          Number(b.userId === row.payeeId) - Number(a.userId === row.payeeId) ||
          a.name.localeCompare(b.name),
      )
      .map((s) => {
        const book = books.get(s.userId)!;
        return {
          userId: s.userId,
          name: s.name,
          subtotal: fromCents(s.subtotalCents),
          fees: fromCents(s.feesCents),
          tax: fromCents(s.taxCents),
          total: fromCents(s.totalCents),
          originalTotal: fromCents(s.originalTotalCents ?? s.totalCents),
          paid: fromCents(book.paid),
          credit: fromCents(book.credit),
          status: book.status,
          paidAt: iso(book.paidAt),
          confirmedAt: iso(book.confirmedAt),
          settledAs: book.settledAs,
          accountDeleted: s.accountDeleted ?? false,
          mail: s.mail,
        };
      }),
    subtotal: fromCents(row.subtotalCents),
    fees: fromCents(row.feesCents),
    tax: fromCents(row.taxCents),
    total: fromCents(row.totalCents),
    originalTotal: fromCents(row.originalTotalCents ?? row.totalCents),
    adjustments: row.adjustments.map(adjustmentOf),
    payers: payersFor(row, payers).map((p) => ({
      user: { _id: p.userId, name: p.name },
      amount: fromCents(p.cents),
    })),
    // What each two people owe each other on it, from the book: the part by the split, and what
    // of it is still open or owed back.
    parts: pairs
      .filter((p) => p.orderId === row.id && (p.part !== 0 || p.net !== 0))
      .sort((a, b) => (a.debtor + a.creditor < b.debtor + b.creditor ? -1 : 1))
      .map((p) => ({
        debtor: p.debtor,
        payer: p.creditor,
        amount: fromCents(p.part),
        open: fromCents(Math.max(0, p.net)),
        credit: fromCents(Math.max(0, -p.net)),
        claimed: fromCents(Math.min(p.claimed, Math.max(0, p.net))),
        // The payer's own claims, when it is they who owe (a credit said paid back).
        claimedBack: fromCents(
          Math.min(
            p.creditorClaims.reduce((a, c) => a + c.cents, 0),
            Math.max(0, -p.net),
          ),
        ),
      })),
    // The order as it is: every line. orderSeenBy() (private.ts) makes each reader's.
    privateCount: 0,
  };
}
