/**
 * Orders as the API shows them, and the shares still open between people: what every order
 * answer, balances and an account's deletion read.
 */
import {
  applyAdjustments,
  fromCents,
  orderNumber,
  type Adjustment,
  type Order,
  type ShareStatus,
} from "@cartner/contract";
import { eq, getTableColumns, inArray, sql } from "drizzle-orm";
import { executeRows, type Db } from "../../db/client.ts";
import { orderShares, orders, users, type StoredAdjustment } from "../../db/schema.ts";

export type OrderRow = typeof orders.$inferSelect;
export type ShareRow = typeof orderShares.$inferSelect & { accountDeleted?: boolean };

/** The shares of these orders, each with whether its member has since deleted their account. */
export async function sharesOf(db: Db, orderIds: string[]): Promise<ShareRow[]> {
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

/** A share not yet confirmed between the user and someone else, from the user's side. */
export interface UnsettledRow {
  otherId: string;
  otherName: string;
  orderId: string;
  number: number;
  sessionName: string;
  placedAt: string | Date;
  /** Positive: they owe the user (the user is the payee); negative: the user owes them. */
  cents: number;
  status: ShareStatus;
}

/**
 * Every share not yet confirmed that the user is owed (as payee) or owes (as sharer), newest
 * first, by what is left on it (total - paid: an adjustment may have met an earlier payment; a
 * share its payments cover is left out): what balances add up, and what deleting an account
 * lists. A deleted person is named as the order recorded them.
 */
export async function unsettledShares(db: Db, userId: string): Promise<UnsettledRow[]> {
  const rows = await executeRows<UnsettledRow>(
    db,
    sql`
    select s.user_id as "otherId",
      case when u.deleted_at is null then u.name else s.name end as "otherName", o.id as "orderId",
      o.number, o.session_name as "sessionName", o.placed_at as "placedAt",
      s.total_cents - s.paid_cents as cents, s.status
    from ${orderShares} s join ${orders} o on o.id = s.order_id
    left join ${users} u on u.id = s.user_id
    where o.payee_id = ${userId} and s.user_id <> ${userId} and s.status <> 'confirmed'
      and s.total_cents > s.paid_cents
    union all
    select o.payee_id, case when u.deleted_at is null then u.name else o.payee_name end, o.id, o.number, o.session_name,
      o.placed_at, -(s.total_cents - s.paid_cents), s.status
    from ${orderShares} s join ${orders} o on o.id = s.order_id
    left join ${users} u on u.id = o.payee_id
    where s.user_id = ${userId} and o.payee_id <> ${userId} and s.status <> 'confirmed'
      and s.total_cents > s.paid_cents
    order by "placedAt" desc, number desc`,
  );
  return rows.map((r) => ({ ...r, number: Number(r.number), cents: Number(r.cents) }));
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
 * Already paid beyond the adjusted share: a paid or confirmed share's earlier payment over its
 * new total (never the payee's, who paid the shop, nor a written-off one).
 */
export function creditOf(row: OrderRow, s: ShareRow): number {
  if (s.userId === row.payeeId || s.status === "unpaid" || s.settledAs === "written_off") return 0;
  return Math.max(0, s.paidCents - s.totalCents);
}

/** The order as the API shows it (money in currency units, as everywhere in the API). */
export function build(row: OrderRow, shares: ShareRow[]): Order {
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
        credit: fromCents(creditOf(row, s)),
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
  };
}
