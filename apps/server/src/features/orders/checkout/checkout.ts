/**
 * Checking out, by the creator's hand or at the deadline: the order placed (place-order.ts), its
 * mails woken, and its people told.
 */
import type { Order, User } from "@cartner/contract";
import { formatMoney } from "../../../lib/money.ts";
import type { OrderDeps } from "../deps.ts";
import { loadOrder, viewOf, type LoadedOrder } from "../reading/view.ts";
import { checkoutNoticeBody } from "./notice.ts";
import { placeOrder, type CheckoutOptions, type LeftOut } from "./place-order.ts";
import { later } from "../../notifications/index.ts";
import { catalogChanged } from "../../catalog/index.ts";

/**
 * The creator checks out (place-order.ts), by hand or at the deadline (`options`): answers the
 * order and the lines left out of it. Each sharer's
 * checkout mail is a job sent in the checkout's transaction, so it exists exactly when the
 * order does; it goes once the answer is sent (the answer does not wait for a mail server).
 */
export async function checkout(
  deps: OrderDeps,
  sessionId: string,
  user: User,
  options: CheckoutOptions = {},
): Promise<{ order: Order; leftOut: LeftOut[] }> {
  const placed = await placeOrder(deps, sessionId, user, options);
  // Stock was taken: every instance re-reads those products (its answers show each one's stock).
  deps.events.publish(
    catalogChanged(placed.row.lines.flatMap((line) => (line.productId ? [line.productId] : []))),
  );
  deps.mails.wake();
  const found = (await loadOrder(deps.db, placed.row.id))!;
  const order = viewOf(found);
  noticeCheckout(deps, order, user._id, found);
  return { order, leftOut: placed.leftOut };
}

/**
 * Each sharer hears their own share; the payee, what the others owe them. Viewers carry no
 * share and hear nothing (notify() drops them).
 */
function noticeCheckout(
  deps: Pick<OrderDeps, "notices" | "currency">,
  order: Order,
  actorId: string,
  placed: LoadedOrder,
) {
  const money = (amount: number) => formatMoney(amount, deps.currency);
  if (deps.notices)
    later(deps.notices, {
      kind: "checkout",
      userIds: [...order.split.map((s) => s.userId), order.payee._id],
      actorId,
      sessionId: order.sessionId,
      orderId: order._id,
      title: `${order.sessionName} was checked out`,
      body: checkoutNoticeBody(order, placed, money),
      url: `/orders/${order._id}`,
    });
}
