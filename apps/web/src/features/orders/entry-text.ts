import type { LedgerEntry, Order } from "@cartner/contract";

/**
 * One entry of the order's book in words. An entry says `from` owes `to` `amount` more; a share or
 * a change owed by its member reads as a debt, one the other way round as a debt that shrank, and
 * payments and settlements as what the people did. `money` formats currency units.
 */
export function entryText(entry: LedgerEntry, order: Order, money: (n: number) => string): string {
  const { from, to } = entry;
  const amount = money(entry.amount);
  switch (entry.kind) {
    case "share":
    case "adjustment": {
      // Which way the two owe each other by the split: a debtor's entry adds to the debt.
      const part = order.parts.find(
        (p) =>
          (p.debtor === from._id && p.payer === to._id) ||
          (p.debtor === to._id && p.payer === from._id),
      );
      const up = !part || part.debtor === from._id;
      const [debtor, creditor] = up ? [from, to] : [to, from];
      const what = entry.kind === "share" ? "" : up ? " more" : " less";
      return `${debtor.name} owes ${creditor.name} ${amount}${what}`;
    }
    case "paid":
      return `${to.name} says they paid ${from.name} ${amount}`;
    case "confirmed":
      return `${from.name} confirmed ${to.name}'s payment of ${amount}`;
    case "cash":
      return `${from.name} received ${amount} from ${to.name} in cash`;
    case "written_off":
      return `${from.name} wrote off the ${amount} ${to.name} owed`;
    case "transfer":
      return `${to.name} paid ${from.name} ${amount}`;
    case "credit_back":
      return `${to.name} paid ${from.name} ${amount} back`;
    case "reversal":
      return `${to.name}'s claim of ${amount} to ${from.name} was set aside`;
  }
}
