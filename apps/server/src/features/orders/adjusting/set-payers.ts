/**
 * Several payers: the payee says who paid the shop and how much (two cards). The amounts add up
 * to the order's total (the adjusted one, after adjustments) to the cent; each payer is the payee
 * or a member with a share. Changing the payers re-points every share's parts: the book's parts
 * move to the new ones ("share" entries of the difference). It is refused once money moved (a
 * claim, a payment, a settlement: undoing it is the people's business, not a silent re-split).
 * The check and the write are checkout/payers.ts, which the checkout uses too.
 */
import { fromCents, orderNumber, type Order, type SetPayersBody } from "@cartner/contract";
import { conflict } from "../../../lib/errors.ts";
import { writeSession } from "../../sessions/index.ts";
import { pairsOfOrder, partMoves, post } from "../../ledger/index.ts";
import { access, type Actor } from "../access.ts";
import { moneyMoved, namedPayers, PAYERS_LOCKED, writePayers } from "../checkout/payers.ts";
import type { OrderDeps } from "../deps.ts";
import { loadOrder, partsOf, sharesOf, viewOf } from "../reading/view.ts";
import { peopleOf, type OrderRow, type ShareRow } from "../rows.ts";

/** The payee says who paid the shop. */
export async function setPayers(
  deps: OrderDeps,
  orderId: string,
  actor: Actor,
  body: SetPayersBody,
): Promise<Order> {
  await storePayers(deps, await access(deps, orderId, actor.user._id, "order.payers"), actor, body);
  return viewOf((await loadOrder(deps.db, orderId))!);
}

/** The payee sets the payers (setPayers() checked the caller and loaded the order). */
async function storePayers(
  deps: Pick<OrderDeps, "db" | "clock" | "events" | "currency">,
  order: { row: OrderRow; shares: ShareRow[] },
  actor: Actor,
  body: SetPayersBody,
): Promise<void> {
  const { row, shares } = order;
  const named = namedPayers(row, shares, body.payers, deps.currency);
  await writeSession(deps.db, deps, {
    sessionId: row.sessionId,
    userId: actor.user._id,
    // setPayers() checked the caller is the payee.
    action: null,
    active: false,
    change: async ({ tx, now }) => {
      // Under the session's lock: a payment racing this either came first (refused) or waits.
      if (await moneyMoved(tx, row.id)) throw conflict(PAYERS_LOCKED);
      const rows = await writePayers(tx, row, named);
      const moves = partMoves(
        row.id,
        await pairsOfOrder(tx, row.id),
        partsOf(row, await sharesOf(tx, [row.id]), rows),
        "share",
        "Payers changed",
      );
      const details = {
        orderId: row.id,
        number: orderNumber(row.number),
        payers:
          rows.length > 0
            ? rows.map((p) => ({ name: p.name, amount: fromCents(p.amountCents) }))
            : [{ name: row.payeeName, amount: fromCents(row.totalCents) }],
      };
      return {
        result: true,
        activity: { type: "order.payers", details },
        version: "unchanged",
        afterActivity: async ([seq]) => {
          const by = { id: actor.user._id, name: actor.user.name };
          await post(tx, { at: now, by, key: actor.key }, moves, seq ?? null);
        },
      };
    },
    events: () => [
      {
        event: { type: "order.updated", sessionId: row.sessionId, orderId: row.id },
        users: peopleOf(row, shares),
      },
    ],
  });
}
