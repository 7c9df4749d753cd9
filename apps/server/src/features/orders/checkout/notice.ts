/**
 * The checkout notice's text for each person: with payers named at checkout, who paid and what
 * each person owes and is owed; else the payee hears what the others owe them and each sharer
 * their own share.
 */
import { fromCents, type Order } from "@cartner/contract";
import { partsOf } from "../reading/view.ts";
import type { OrderRow, PayerRow, ShareRow } from "../rows.ts";

export function checkoutNoticeBody(
  order: Order,
  placed: { row: OrderRow; shares: ShareRow[]; payers: PayerRow[] },
  money: (amount: number) => string,
): (userId: string) => string {
  const payeeId = order.payee._id;
  const parts = partsOf(placed.row, placed.shares, placed.payers).filter(
    (p) => p.debtor !== p.payer,
  );
  const total = (key: "debtor" | "payer", userId: string) =>
    parts.filter((p) => p[key] === userId).reduce((sum, p) => sum + p.cents, 0);
  const owedToPayee = order.split
    .filter((s) => s.userId !== payeeId)
    .reduce((sum, s) => sum + Math.round(s.total * 100), 0);
  const opening = `${order.placedBy.name} checked out ${order.sessionName}`;
  return (userId) => {
    if (placed.payers.length > 0) {
      const owes = total("debtor", userId);
      const owed = total("payer", userId);
      const said = [
        ...(owes > 0 ? [`you owe ${money(fromCents(owes))}`] : []),
        ...(owed > 0 ? [`the others owe you ${money(fromCents(owed))}`] : []),
      ];
      const names = placed.payers.map((p) => p.name);
      const paidBy = [names.slice(0, -1).join(", "), names.at(-1)].filter(Boolean).join(" and ");
      return `${opening}, paid by ${paidBy}: ${said.join("; ") || "you owe nothing"}`;
    }
    if (userId === payeeId) {
      return `${opening}: you paid, the others owe you ${money(fromCents(owedToPayee))}`;
    }
    const share = order.split.find((s) => s.userId === userId);
    return `${opening}: you owe ${money(share?.total ?? 0)}`;
  };
}
