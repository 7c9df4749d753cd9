/**
 * Several payers: the payee says who paid the shop and how much (two cards). The amounts add up
 * to the order's total (the adjusted one, after adjustments) to the cent; each payer is the payee or a member with a share. Changing
 * the payers re-points every share's parts, so it is refused once any share is paid or settled
 * (money already moved under the old payers; undoing it is the people's business, not a silent
 * re-split). Shares that now owe nobody (a payer's own part) are settled by paying the shop; the
 * others are unpaid. The check and the write are payers.ts, which the checkout uses too.
 */
import { fromCents, orderNumber, type SetPayersBody } from "@cartner/contract";
import type { Db } from "../../db/client.ts";
import type { Clock } from "../../lib/clock.ts";
import { conflict } from "../../lib/errors.ts";
import type { EventBus } from "../realtime/index.ts";
import { writeSession } from "../sessions/index.ts";
import { peopleOf } from "./checkout.ts";
import type { OrderRow, ShareRow } from "./order-view.ts";
import { isSettled, namedPayers, PAYERS_LOCKED, writePayers } from "./payers.ts";

/** `currency`: the deployment's (CURRENCY), for the amounts a refusal names. */
type Deps = { clock: Clock; events: Pick<EventBus, "publish">; currency: string };

/** The payee sets the payers (the service checked the caller and loaded the order). */
export async function setPayers(
  db: Db,
  deps: Deps,
  order: { row: OrderRow; shares: ShareRow[] },
  payeeId: string,
  body: SetPayersBody,
): Promise<void> {
  const { row, shares } = order;
  const named = namedPayers(row, shares, body.payers, deps.currency);
  // Checked here for a clear answer, and again under the session's lock for a race.
  if (shares.some(isSettled)) throw conflict(PAYERS_LOCKED);
  await writeSession(db, deps, {
    sessionId: row.sessionId,
    userId: payeeId,
    // The order service checked the caller is the payee.
    action: null,
    active: false,
    change: async ({ tx, now }) => {
      const rows = await writePayers(tx, row, named, now);
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
