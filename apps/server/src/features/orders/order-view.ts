/**
 * Orders as the API shows them, and who owes which payer what on one (the shares still open
 * between people are open-parts.ts).
 */
import {
  applyAdjustments,
  fromCents,
  isSettled,
  openToPayers,
  orderNumber,
  owedToPayers,
  scalePayers,
  type Adjustment,
  type Order,
  type Owed,
} from "@cartner/contract";
import { asc, eq, getTableColumns, inArray, sql } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.ts";
import {
  orderPayers,
  orderShares,
  users,
  type orders,
  type StoredAdjustment,
} from "../../db/schema.ts";
import { exactTotals } from "./frozen.ts";

export type OrderRow = typeof orders.$inferSelect;
export type ShareRow = typeof orderShares.$inferSelect & { accountDeleted?: boolean };
export type PayerRow = typeof orderPayers.$inferSelect;

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

/**
 * What is open on one share with each payer, signed (openToPayers: positive, the member owes the
 * payer; negative, a credit the payer owes back). A settled share (isSettled) owes nothing but may
 * still be owed a credit; a written-off one neither. `parts` are the order's (partsOf), `payers`
 * who paid the shop (payersFor's ids): a share adjusted to 0 has no parts, but what was paid
 * towards it still comes back (from the first payer named, when several were). The one rule the
 * order view, balances, the settle plan, transfers and account deletion read.
 */
export function openOfShare(
  s: ShareRow,
  parts: Owed[],
  payers: string[],
): { payer: string; cents: number }[] {
  if (s.settledAs === "written_off") return [];
  const mine = payers.map((payer) => ({
    payer,
    cents: parts.find((p) => p.debtor === s.userId && p.payer === payer)?.cents ?? 0,
  }));
  const open = openToPayers(s.userId, mine, s.paidCents, s.settledTo);
  const settled = isSettled({ status: s.status, total: s.totalCents, paid: s.paidCents });
  return settled ? open.filter((p) => p.cents < 0) : open;
}

/** The order as the API shows it (money in currency units, as everywhere in the API). */
export function build(row: OrderRow, shares: ShareRow[], payers: PayerRow[] = []): Order {
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
  const parts = partsOf(row, shares, payers);
  const payerIds = payersFor(row, payers).map((p) => p.userId);
  const open = new Map(shares.map((s) => [s.userId, openOfShare(s, parts, payerIds)]));
  const openWith = (debtor: string, payer: string) =>
    open.get(debtor)?.find((p) => p.payer === payer)?.cents ?? 0;
  const creditOf = (debtor: string) =>
    -(open.get(debtor) ?? []).reduce((a, p) => a + Math.min(0, p.cents), 0);
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
      .map((s) => ({
        userId: s.userId,
        name: s.name,
        subtotal: fromCents(s.subtotalCents),
        fees: fromCents(s.feesCents),
        tax: fromCents(s.taxCents),
        total: fromCents(s.totalCents),
        originalTotal: fromCents(s.originalTotalCents ?? s.totalCents),
        paid: fromCents(s.paidCents),
        credit: fromCents(creditOf(s.userId)),
        status: s.status,
        paidAt: iso(s.paidAt),
        confirmedAt: iso(s.confirmedAt),
        settledAs: s.settledAs,
        accountDeleted: s.accountDeleted ?? false,
        mail: s.mail,
      })),
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
    parts: parts
      .filter((p) => p.debtor !== p.payer)
      .map((p) => ({
        debtor: p.debtor,
        payer: p.payer,
        amount: fromCents(p.cents),
        open: fromCents(Math.max(0, openWith(p.debtor, p.payer))),
        credit: fromCents(Math.max(0, -openWith(p.debtor, p.payer))),
      })),
  };
}
