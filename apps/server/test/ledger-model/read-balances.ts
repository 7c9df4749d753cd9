/**
 * The readers across orders against the model: Balances (each person's net with each other
 * person, and the orders behind it), the settle plan (its transfers bring every net of the
 * caller's orders to zero in at most people - 1 transfers; one marked recordable is an amount a
 * transfer takes) and pay-info (what the caller still owes the person it names).
 */
import type { Balance, PlannedTransfer } from "@cartner/contract";
import {
  balance,
  nameOf,
  net,
  pairsOf,
  peopleOf,
  transferOptions,
  type ModelOrder,
  type Person,
  type World,
} from "./model.ts";
import { cents, type Report } from "./read-order.ts";

export function checkBalances(w: World, x: Person, balances: Balance[], bad: Report): void {
  const who = (id: string) => nameOf(w, id);
  const shown = new Map(balances.map((b) => [b.user._id, b]));
  for (const b of balances) {
    if (!w.people.some((p) => p.id === b.user._id) && b.amount !== 0) {
      bad(`${x.name}'s balances name a stranger ${b.user.name}`);
    }
    const sum = b.orders.reduce((a, o) => a + cents(o.amount), 0);
    if (sum !== cents(b.amount)) {
      bad(
        `${x.name}'s balance with ${b.user.name} is ${cents(b.amount)}, its orders add up to ${sum}`,
      );
    }
  }
  for (const y of w.people) {
    if (y === x) continue;
    const expected = balance(w, x.id, y.id);
    const b = shown.get(y.id);
    if (cents(b?.amount ?? 0) !== expected) {
      bad(`${x.name}'s balance with ${y.name} is ${cents(b?.amount ?? 0)}, the model ${expected}`);
    }
    for (const o of w.orders) {
      const owed = net(o, y.id, x.id);
      const listed = b?.orders.find((r) => r._id === o.id);
      if (cents(listed?.amount ?? 0) !== owed) {
        bad(
          `${x.name}'s balance with ${who(y.id)} lists ${cents(listed?.amount ?? 0)} on order ${o.seq + 1}, the model ${owed}`,
        );
      }
    }
  }
}

/** Each person's net over these orders: positive, they are owed. */
export function netsOver(orders: ModelOrder[]): Map<string, number> {
  const nets = new Map<string, number>();
  const add = (id: string, by: number) => nets.set(id, (nets.get(id) ?? 0) + by);
  for (const o of orders) {
    for (const [a, b] of pairsOf(o)) {
      const n = net(o, a, b);
      add(b, n);
      add(a, -n);
    }
  }
  return nets;
}

export function checkPlan(w: World, x: Person, plan: PlannedTransfer[], bad: Report): void {
  const who = (id: string) => nameOf(w, id);
  const mine = w.orders.filter((o) => peopleOf(o).includes(x.id));
  const nets = netsOver(mine);
  const owing = [...nets.values()].filter((n) => n !== 0).length;
  if (plan.length > Math.max(0, owing - 1)) {
    bad(`${x.name}'s plan has ${plan.length} transfers for ${owing} people with a balance`);
  }
  for (const t of plan) {
    const amount = cents(t.amount);
    if (!(amount > 0)) bad(`${x.name}'s plan: ${t.from.name} pays ${t.to.name} ${t.amount}`);
    nets.set(t.from._id, (nets.get(t.from._id) ?? 0) + amount);
    nets.set(t.to._id, (nets.get(t.to._id) ?? 0) - amount);
    if (t.recordable && !transferOptions(w, t.from._id, t.to._id).matching.includes(amount)) {
      bad(
        `${x.name}'s plan marks ${t.from.name} pays ${t.to.name} ${amount} recordable, but no transfer of it matches`,
      );
    }
  }
  for (const [id, n] of nets) {
    if (n !== 0) bad(`${x.name}'s plan leaves ${who(id)} at ${n}`);
  }
}

/** GET /orders/:id/pay-info: what the member still owes the person it names, on this order. */
export function checkPayInfo(
  w: World,
  o: ModelOrder,
  m: Person,
  res: { statusCode: number; json: () => { payee: { _id: string }; amount: number } },
  bad: Report,
): void {
  const owesAnyone = o.payers.some((p) => p.userId !== m.id && net(o, m.id, p.userId) > 0);
  if (res.statusCode !== 200) {
    if (owesAnyone)
      bad(`${m.name}'s pay-info on order ${o.seq + 1} answered ${res.statusCode} though they owe`);
    return;
  }
  const info = res.json();
  const expected = Math.max(0, net(o, m.id, info.payee._id));
  if (cents(info.amount) !== expected) {
    bad(
      `${m.name}'s pay-info asks ${cents(info.amount)} for ${nameOf(w, info.payee._id)}, the model ${expected}`,
    );
  }
}
