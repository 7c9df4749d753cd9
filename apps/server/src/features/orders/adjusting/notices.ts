/**
 * What the people of an order hear when it is adjusted after checkout, or an adjustment is
 * disputed.
 */
import type { Order, User } from "@cartner/contract";
import type { NotifyInput } from "../../notifications/index.ts";

/** What each member whose share an adjustment moved hears (null when no share moved). */
export function adjustmentNotice(
  was: Order,
  order: Order,
  actor: Pick<User, "_id" | "name">,
  money: (amount: number) => string,
): NotifyInput | null {
  const moved = order.split.filter(
    (s) =>
      s.userId !== order.payee._id &&
      was.split.find((b) => b.userId === s.userId)?.total !== s.total,
  );
  if (moved.length === 0) return null;
  return {
    kind: "payment",
    userIds: moved.map((s) => s.userId),
    actorId: actor._id,
    sessionId: order.sessionId,
    orderId: order._id,
    title: `${order.number} was changed after checkout`,
    body: (userId: string) => {
      const share = order.split.find((s) => s.userId === userId)!;
      const credit = share.credit > 0 ? `, ${money(share.credit)} to come back to you` : "";
      return `${actor.name} recorded a change to ${order.sessionName}: your share is now ${money(share.total)}${credit}`;
    },
    url: `/orders/${order._id}`,
  };
}

/** What the payee hears when a member disputes an adjustment. */
export function disputeNotice(order: Order, actor: User, comment: string): NotifyInput {
  return {
    kind: "payment",
    userIds: [order.payee._id],
    actorId: actor._id,
    sessionId: order.sessionId,
    orderId: order._id,
    title: `${actor.name} disputes a change to ${order.number}`,
    body: comment,
    url: `/orders/${order._id}`,
  };
}
