/** Marking paid: "I've paid", a claim to each payer the member owes (posting.ts says the rest). */
import { fromCents, orderNumber, type Order } from "@cartner/contract";
import { formatMoney } from "../../../lib/money.ts";
import { writeSession } from "../../sessions/index.ts";
import { claimsOf, pairsOfOrder, post } from "../../ledger/index.ts";
import { access, type Actor } from "../access.ts";
import type { OrderDeps } from "../deps.ts";
import { loadOrder, payersFor, payersOf, viewOf } from "../reading/view.ts";
import type { OrderRow, ShareRow } from "../rows.ts";
import { paidNotice } from "./notices.ts";
import { orderUpdated, postedCents } from "./posting.ts";
import { later } from "../../notifications/index.ts";

/**
 * "I've paid": a claim to each payer the caller owes; already claimed or settled: 200, nothing
 * changes. Each payer owed hears what was claimed to them.
 */
export async function markPaid(deps: OrderDeps, orderId: string, actor: Actor): Promise<Order> {
  const userId = actor.user._id;
  const claimed = await claimPaid(deps, await access(deps, orderId, userId, "order.pay"), actor);
  const order = viewOf((await loadOrder(deps.db, orderId))!);
  const money = (amount: number) => formatMoney(amount, deps.currency);
  const notice = claimed > 0 ? paidNotice(order, userId, money) : null;
  if (notice && deps.notices) later(deps.notices, notice);
  return order;
}

/**
 * "I've paid": a claim to each person the member still owes on the order. Answers the cents
 * claimed (0: already claimed or nothing owed).
 */
async function claimPaid(
  deps: Pick<OrderDeps, "db" | "clock" | "events">,
  order: { row: OrderRow; shares: ShareRow[] },
  actor: Actor,
): Promise<number> {
  const { row } = order;
  const { result } = await writeSession(deps.db, deps, {
    sessionId: row.sessionId,
    userId: actor.user._id,
    // markPaid() checked the caller's part in the order.
    action: null,
    active: false,
    change: async ({ tx, now }) => {
      const payerIds = payersFor(row, await payersOf(tx, [row.id])).map((p) => p.userId);
      const claims = claimsOf(row.id, await pairsOfOrder(tx, row.id), actor.user._id, payerIds);
      const cents = postedCents(claims);
      if (cents === 0) return { result: 0, version: "unchanged" };
      const details = {
        orderId: row.id,
        number: orderNumber(row.number),
        amount: fromCents(cents),
      };
      return {
        result: cents,
        activity: { type: "order.paid", details },
        version: "unchanged",
        afterActivity: async ([seq]) => {
          const by = { id: actor.user._id, name: actor.user.name };
          await post(tx, { at: now, by, key: actor.key }, claims, seq ?? null);
        },
      };
    },
    events: orderUpdated(row, order.shares),
  });
  return result;
}
