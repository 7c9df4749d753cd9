/**
 * Several payers: the payee says who paid the shop and how much (two cards). The amounts add up
 * to the order's total (the adjusted one, after adjustments) to the cent; each payer is the payee or a member with a share. Changing
 * the payers re-points every share's parts, so it is refused once any share is paid or settled
 * (money already moved under the old payers; undoing it is the people's business, not a silent
 * re-split). Shares that now owe nobody (a payer's own part) are settled by paying the shop; the
 * others are unpaid.
 */
import { fromCents, orderNumber, toCents, type SetPayersBody } from "@cartner/contract";
import { and, eq } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.ts";
import { orderPayers, orderShares } from "../../db/schema.ts";
import type { Clock } from "../../lib/clock.ts";
import { conflict, invalidFields } from "../../lib/errors.ts";
import type { EventBus } from "../realtime/index.ts";
import { writeSession } from "../sessions/index.ts";
import { peopleOf } from "./checkout.ts";
import { formatMoney } from "./format.ts";
import { partsOf, sharesOf, type OrderRow, type PayerRow, type ShareRow } from "./order-view.ts";

/** `currency`: the deployment's (CURRENCY), for the amounts a refusal names. */
type Deps = { clock: Clock; events: Pick<EventBus, "publish">; currency: string };

const LOCKED =
  "The payers can no longer change: a share is already paid or settled under the current payers.";

/**
 * A share paid, or settled other than by paying the shop, or with a part settled by transfer, or
 * reopened by an adjustment after a payment (paid_cents counts it).
 */
const isSettled = (s: ShareRow) =>
  s.status === "paid" ||
  (s.status === "confirmed" && s.settledAs !== null) ||
  Object.keys(s.settledTo).length > 0 ||
  (s.status === "unpaid" && s.paidCents > 0);

/**
 * Checks the payers against the order (400 naming `payers`, nothing stored) and answers them as
 * rows; the payee alone with the whole total is the default and stored as no rows.
 */
function payerRows(
  row: OrderRow,
  shares: ShareRow[],
  body: SetPayersBody,
  currency: string,
): PayerRow[] {
  const cents = body.payers.map((p) => toCents(p.amount));
  const sum = cents.reduce((a, b) => a + b, 0);
  if (sum !== row.totalCents) {
    throw invalidFields({
      payers: `The amounts add up to ${formatMoney(fromCents(sum), currency)}; the order's total is ${formatMoney(fromCents(row.totalCents), currency)}`,
    });
  }
  const nameOf = (userId: string) =>
    userId === row.payeeId ? row.payeeName : shares.find((s) => s.userId === userId)?.name;
  const stranger = body.payers.find((p) => nameOf(p.userId) === undefined);
  if (stranger) {
    throw invalidFields({ payers: "Each payer is the payee or a member with a share" });
  }
  if (body.payers.length === 1 && body.payers[0]!.userId === row.payeeId) return [];
  return body.payers.map((p, position) => ({
    orderId: row.id,
    userId: p.userId,
    name: nameOf(p.userId)!,
    amountCents: cents[position]!,
    position,
  }));
}

/** Inside the session write: the new payers, and each share unpaid or settled by what it owes. */
async function store(tx: Tx, row: OrderRow, rows: PayerRow[], now: Date) {
  const shares = await sharesOf(tx, [row.id]);
  if (shares.some(isSettled)) throw conflict(LOCKED);
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
}

/** The payee sets the payers (the service checked the caller and loaded the order). */
export async function setPayers(
  db: Db,
  deps: Deps,
  order: { row: OrderRow; shares: ShareRow[] },
  payeeId: string,
  body: SetPayersBody,
): Promise<void> {
  const { row, shares } = order;
  const rows = payerRows(row, shares, body, deps.currency);
  // Checked here for a clear answer, and again under the session's lock for a race.
  if (shares.some(isSettled)) throw conflict(LOCKED);
  await writeSession(db, deps, {
    sessionId: row.sessionId,
    userId: payeeId,
    // The order service checked the caller is the payee.
    action: null,
    active: false,
    change: async ({ tx, now }) => {
      await store(tx, row, rows, now);
      const details = {
        orderId: row.id,
        number: orderNumber(row.number),
        payers:
          rows.length > 0
            ? rows.map((p) => ({ name: p.name, amount: fromCents(p.amountCents) }))
            : [{ name: row.payeeName, amount: fromCents(row.totalCents) }],
      };
      return { result: true, activity: { type: "order.payers", details }, version: "unchanged" };
    },
    events: () => [
      {
        event: { type: "order.updated", sessionId: row.sessionId, orderId: row.id },
        users: peopleOf(row, shares),
      },
    ],
  });
}
