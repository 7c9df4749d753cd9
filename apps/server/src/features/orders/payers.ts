/**
 * Who paid the shop (docs/decisions/020): the one check of payers named at checkout
 * (checkout.ts) or afterwards by the payee (set-payers.ts), and how they are written.
 */
import { fromCents, toCents, type SetPayersBody } from "@cartner/contract";
import { and, eq } from "drizzle-orm";
import type { Tx } from "../../db/client.ts";
import { orderPayers, orderShares } from "../../db/schema.ts";
import { conflict, invalidFields } from "../../lib/errors.ts";
import { formatMoney } from "./format.ts";
import { partsOf, sharesOf, type OrderRow, type PayerRow, type ShareRow } from "./order-view.ts";

export const PAYERS_LOCKED =
  "The payers can no longer change: a share is already paid or settled under the current payers.";

/**
 * A share paid, or settled other than by paying the shop, or with a part settled by transfer, or
 * reopened by an adjustment after a payment (paid_cents counts it).
 */
export const isSettled = (s: ShareRow) =>
  s.status === "paid" ||
  (s.status === "confirmed" && s.settledAs !== null) ||
  Object.keys(s.settledTo).length > 0 ||
  (s.status === "unpaid" && s.paidCents > 0);

/** A payer as stored, before the order has an id (checkout checks before it writes the order). */
export type NamedPayer = Omit<PayerRow, "orderId">;

/**
 * Checks the payers against the order (400 naming `payers`, nothing stored): the amounts add up
 * to its total to the cent, and each payer is the payee or a member with a share (the schema
 * already refused a payer twice or an amount not above zero). Answers them as rows; the payee
 * alone with the whole total is the default and stored as no rows.
 */
export function namedPayers(
  order: Pick<OrderRow, "totalCents" | "payeeId" | "payeeName">,
  shares: Pick<ShareRow, "userId" | "name">[],
  payers: SetPayersBody["payers"],
  currency: string,
): NamedPayer[] {
  const cents = payers.map((p) => toCents(p.amount));
  const sum = cents.reduce((a, b) => a + b, 0);
  if (sum !== order.totalCents) {
    throw invalidFields({
      payers: `The amounts add up to ${formatMoney(fromCents(sum), currency)}; the order's total is ${formatMoney(fromCents(order.totalCents), currency)}`,
    });
  }
  const nameOf = (userId: string) =>
    userId === order.payeeId ? order.payeeName : shares.find((s) => s.userId === userId)?.name;
  const stranger = payers.find((p) => nameOf(p.userId) === undefined);
  if (stranger) {
    throw invalidFields({ payers: "Each payer is the payee or a member with a share" });
  }
  if (payers.length === 1 && payers[0]!.userId === order.payeeId) return [];
  return payers.map((p, position) => ({
    userId: p.userId,
    name: nameOf(p.userId)!,
    amountCents: cents[position]!,
    position,
  }));
}

/**
 * Inside the session write: the new payers, and each share unpaid if it owes anyone else, settled
 * by paying the shop if it owes nobody (409 once a share is paid or settled).
 */
export async function writePayers(tx: Tx, row: OrderRow, named: NamedPayer[], now: Date) {
  const shares = await sharesOf(tx, [row.id]);
  if (shares.some(isSettled)) throw conflict(PAYERS_LOCKED);
  const rows: PayerRow[] = named.map((p) => ({ ...p, orderId: row.id }));
  await tx.delete(orderPayers).where(eq(orderPayers.orderId, row.id));
  if (rows.length > 0) await tx.insert(orderPayers).values(rows);
  const parts = partsOf(row, shares, rows);
  for (const share of shares) {
    const owes = parts.some((p) => p.debtor === share.userId && p.payer !== share.userId);
    const status = owes ? "unpaid" : "confirmed";
    if (share.status === status) continue;
    await tx
      .update(orderShares)
      // Nothing was paid (checked above) but the shop: a share that owes starts from nothing paid.
      .set({ status, confirmedAt: owes ? null : now, paidAt: null, settledAs: null, paidCents: 0 })
      .where(and(eq(orderShares.orderId, row.id), eq(orderShares.userId, share.userId)));
  }
  return rows;
}
