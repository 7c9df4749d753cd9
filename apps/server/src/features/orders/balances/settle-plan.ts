/**
 * The settle plan (docs/decisions/020-payers-and-settle-plan.md): the fewest transfers that settle
 * every open balance in the orders the caller is part of, each said recordable when a transfer of
 * that amount settles whole parts (transfers.ts records one).
 */
import { fromCents, settlePlan, type PlannedTransfer } from "@cartner/contract";
import type { OrderDeps } from "../deps.ts";
import { openBetween, openParts, openPartsBeyond } from "./open-parts.ts";

/**
 * The settle plan: the fewest transfers over every open part of the caller's orders (with
 * `withId`: the ones shared with them).
 */
export async function settlePlanFor(
  deps: Pick<OrderDeps, "db">,
  userId: string,
  withId?: string,
): Promise<PlannedTransfer[]> {
  const { db } = deps;
  const parts = await openParts(db, userId, withId);
  const nets = new Map<string, number>();
  const names = new Map<string, string>();
  // A part is owed by its debtor to its payer; a credit (negative) the other way.
  for (const p of parts) {
    nets.set(p.debtorId, (nets.get(p.debtorId) ?? 0) - p.cents);
    nets.set(p.payerId, (nets.get(p.payerId) ?? 0) + p.cents);
    names.set(p.debtorId, p.debtorName);
    names.set(p.payerId, p.payerName);
  }
  const person = (id: string) => ({ _id: id, name: names.get(id) ?? "" });
  const plan = settlePlan(nets);
  // What the transfer route would take: every part open between the two (recordTransfer reads
  // the same). The caller's orders hold all of them when the caller is one of the two; between
  // two others, some may be on orders beyond the caller's (their amounts only: no names are read
  // for them), read for all such pairs at once.
  const others = plan.filter((t) => t.from !== userId && t.to !== userId);
  const beyond = await openPartsBeyond(
    db,
    others.map((t) => [t.from, t.to]),
    userId,
    withId,
  );
  return plan.map((t) => {
    const more = beyond[others.indexOf(t)] ?? [];
    return {
      from: person(t.from),
      to: person(t.to),
      amount: fromCents(t.cents),
      recordable: openBetween([...parts, ...more], t.from, t.to).matching.includes(t.cents),
    };
  });
}
