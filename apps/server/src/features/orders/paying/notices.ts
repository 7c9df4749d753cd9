/** What the people of an order hear when money is said paid or settled on it (mark-paid.ts). */
import { fromCents, type Order, type SettlementKind, type User } from "@cartner/contract";
import type { NotifyInput as Notice } from "../../notifications/index.ts";

/** "I've paid": each payer the member owes hears what was said paid to them. */
export function paidNotice(
  order: Order,
  userId: string,
  money: (amount: number) => string,
): Notice | null {
  const share = order.split.find((s) => s.userId === userId);
  const owed = order.parts.filter((p) => p.debtor === userId && p.open > 0);
  if (!share || owed.length === 0) return null;
  return {
    kind: "payment",
    userIds: owed.map((p) => p.payer),
    actorId: userId,
    sessionId: order.sessionId,
    orderId: order._id,
    title: `${share.name} paid their share`,
    body: (payerId: string) =>
      `${share.name} marked ${money(owed.find((p) => p.payer === payerId)?.open ?? 0)} for ${order.sessionName} (${order.number}) as paid to you`,
    url: `/orders/${order._id}`,
  };
}

/**
 * A payer settled what the member owed them: the member hears how, and how much. A payer without
 * a share owed them back what they were paid beyond their part: not "your share".
 */
export function settledNotice(
  order: Order,
  actor: Pick<User, "_id" | "name">,
  memberId: string,
  how: SettlementKind,
  cents: number,
  money: (amount: number) => string,
): Notice {
  const amount = money(fromCents(cents));
  const where = `${order.sessionName} (${order.number})`;
  const owed = order.split.some((s) => s.userId === memberId) ? "Your share" : "What you owed";
  return {
    kind: "payment",
    userIds: [memberId],
    actorId: actor._id,
    sessionId: order.sessionId,
    orderId: order._id,
    title: how === "written_off" ? `${owed} was written off` : `${owed} is settled`,
    body:
      how === "transfer"
        ? `${actor.name} confirmed your payment of ${amount} for ${where}`
        : how === "cash"
          ? `${actor.name} recorded your ${amount} for ${where} as paid in cash`
          : `${actor.name} wrote off your ${amount} for ${where}`,
    url: `/orders/${order._id}`,
  };
}
