/** The receipt's sentences about money, from the order as the book answers it. */
import { fromCents, toCents, type Order } from "@cartner/contract";

/** "Paid to the shop by Ann ($100.00) and Ben ($18.66): each member owes each payer their part." */
export function paidToShop(order: Order, money: (amount: number) => string): string {
  if (order.payers.length <= 1) {
    const payer = order.payers[0]?.user.name ?? order.payee.name;
    return `Paid to the shop by ${payer}: every other share is owed to them.`;
  }
  const names = order.payers.map((p) => `${p.user.name} (${money(p.amount)})`);
  const list = `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
  return `Paid to the shop by ${list}: each member owes each payer their part of their share.`;
}

/** What a member still owes on the order, to every payer together. */
export function openOf(order: Order, userId: string): number {
  return fromCents(
    order.parts.filter((p) => p.debtor === userId).reduce((sum, p) => sum + toCents(p.open), 0),
  );
}
