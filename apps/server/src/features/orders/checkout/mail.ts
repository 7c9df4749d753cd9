import { escapeHtml } from "../../../lib/html.ts";
import type { Order } from "@cartner/contract";
import type { Mail } from "../../mail/index.ts";
import { formatMoney } from "../../../lib/money.ts";

/**
 * The checkout mail to one member (the order as they see it: orderSeenBy): their share, the total
 * (with how many private items it includes, when lines are hidden from them), who to pay, and the
 * order's link.
 */
export function orderMail(
  order: Order,
  to: { name: string; email: string; userId: string },
  orderUrl: string,
  currency: string,
): Mail {
  const share = order.split.find((s) => s.userId === to.userId);
  const isPayee = order.payee._id === to.userId;
  // The one who placed the order reads "You checked out", not their own name.
  const placer = order.placedBy._id === to.userId ? "You" : order.placedBy.name;
  const shareLine = share
    ? `Your share: ${formatMoney(share.total, currency)}`
    : "You have no share.";
  // Payers other than the payee alone: what each share owes each payer is on the order page.
  const payLine =
    order.payers.length > 1 ||
    (order.payers.length === 1 && order.payers[0]!.user._id !== order.payee._id)
      ? `Paid at the shop by ${order.payers.map((p) => `${p.user.name} ${formatMoney(p.amount, currency)}`).join(", ")}: the order page shows what each share owes each of them.`
      : isPayee
        ? "You paid the shop: the others pay you back, and you confirm each payment on the order page."
        : `Pay ${order.payee.name} your share, then press "I've paid my share" on the order page.`;
  // Items added by name are at their estimate until the payee prices them after the shop.
  const estimated = order.lines.filter((l) => l.estimated).map((l) => l.name);
  const estimateLine =
    estimated.length > 0
      ? `At an estimated price until ${order.payee.name} prices them: ${estimated.join(", ")}.`
      : null;
  const totalLine = `Order total: ${formatMoney(order.total, currency)}${privateNote(order.privateCount)}`;
  const text = [
    `Hi ${to.name},`,
    "",
    `${placer} checked out "${order.sessionName}": order ${order.number}.`,
    "",
    shareLine,
    totalLine,
    ...(estimateLine ? [estimateLine] : []),
    payLine,
    "",
    `The order and its receipt: ${orderUrl}`,
    "",
    "— Cartner",
  ].join("\n");
  const html = `<!doctype html><html><body style="font-family:sans-serif;color:#0f172a">
<p>Hi ${escapeHtml(to.name)},</p>
<p>${escapeHtml(placer)} checked out “${escapeHtml(order.sessionName)}”: order <strong>${escapeHtml(order.number)}</strong>.</p>
<p style="font-size:20px;font-weight:700;color:#4f46e5">${escapeHtml(shareLine)}</p>
<p>${escapeHtml(totalLine)}<br>${estimateLine ? `${escapeHtml(estimateLine)}<br>` : ""}${escapeHtml(payLine)}</p>
<p><a href="${escapeHtml(orderUrl)}">Open the order and its receipt</a></p>
<p>— Cartner</p>
</body></html>`;
  return {
    to: to.email,
    subject: `Your share of ${order.number}: ${order.sessionName}`,
    text,
    html,
  };
}

/** " (includes 2 private items)": what the total holds that the reader does not see. */
export const privateNote = (count: number): string =>
  count === 0 ? "" : ` (includes ${count} private item${count === 1 ? "" : "s"})`;
