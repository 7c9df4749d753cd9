/**
 * Who paid the shop (docs/decisions/020): the one check of payers named at checkout
 * (place-order.ts) or afterwards by the payee (adjusting/set-payers.ts), and how they are written.
 */
import { fromCents, toCents, type SetPayersBody } from "@cartner/contract";
import { eq, sql } from "drizzle-orm";
import { executeRows, type Tx } from "../../../db/client.ts";
import { orderPayers } from "../../../db/schema.ts";
import { invalidFields } from "../../../lib/errors.ts";
import { formatMoney } from "../../../lib/money.ts";
import type { OrderRow, PayerRow, ShareRow } from "../rows.ts";

export const PAYERS_LOCKED =
  "The payers can no longer change: a share is already paid or settled under the current payers.";

/**
 * Money moved under the current payers: the book has more than the shares and adjustments (a
 * claim, a payment, a settlement). Changing the payers then would re-point money already paid.
 */
export async function moneyMoved(tx: Tx, orderId: string): Promise<boolean> {
  const [row] = await executeRows<{ moved: boolean }>(
    tx,
    sql`select exists (select 1 from ledger_entries where order_id = ${orderId}
      and kind not in ('share', 'adjustment')) as moved`,
  );
  return row?.moved ?? false;
}

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

/** Inside the session write: the new payers (none: the payee paid it all). */
export async function writePayers(tx: Tx, row: OrderRow, named: NamedPayer[]) {
  const rows: PayerRow[] = named.map((p) => ({ ...p, orderId: row.id }));
  await tx.delete(orderPayers).where(eq(orderPayers.orderId, row.id));
  if (rows.length > 0) await tx.insert(orderPayers).values(rows);
  return rows;
}
