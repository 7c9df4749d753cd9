/**
 * Fewer transfers (docs/decisions/020-payers-and-settle-plan.md): the plan that settles every open balance
 * in the orders the caller is part of, and recording one transfer, which settles the caller's
 * open parts owed to the recipient oldest first, less what the recipient owes the caller (the two
 * cancel), exactly: an amount that does not match whole parts is refused with the amounts that
 * would, so no share is ever half settled.
 */
import {
  fromCents,
  orderNumber,
  settlePlan,
  toCents,
  type OrderCaller,
  type PlannedTransfer,
  type RecordTransferBody,
} from "@cartner/contract";
import { eq } from "drizzle-orm";
import type { Db, Tx } from "../../../db/client.ts";
import { orders } from "../../../db/schema.ts";
import type { Clock } from "../../../lib/clock.ts";
import { conflict, invalidFields } from "../../../lib/errors.ts";
import { requireAllowed } from "../../../lib/permissions.ts";
import type { EventBus } from "../../live/index.ts";
import { writeSessionsTogether } from "../../sessions/index.ts";
import { formatMoney } from "../../../lib/money.ts";
import { pairsOfOrder, post, voids, type Posting } from "../../ledger/index.ts";
import { flowOf, openParts, type OpenPart } from "./open-parts.ts";
import { sharesOf } from "../reading/view.ts";
import { peopleOf } from "../rows.ts";

/** `currency`: the deployment's (CURRENCY), for the amounts a refusal names. */
type Deps = { clock: Clock; events: Pick<EventBus, "publish">; currency: string };

/** The plan over every open part of the caller's orders (with `withId`: the ones shared with them). */
export async function planFor(db: Db, userId: string, withId?: string): Promise<PlannedTransfer[]> {
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
  return Promise.all(
    settlePlan(nets).map(async (t) => ({
      from: person(t.from),
      to: person(t.to),
      amount: fromCents(t.cents),
      // What the transfer route would take: every part open between the two (recordTransfer
      // reads the same). The caller's orders hold all of them when the caller is one of the two;
      // between two others, some may be on orders the caller is not in.
      recordable: between(
        t.from === userId || t.to === userId ? parts : await openParts(db, t.from, t.to),
        t.from,
        t.to,
      ).matching.includes(t.cents),
    })),
  );
}

/**
 * What `fromId` owes `toId` (their shares' parts, and credits `toId` is owed back), oldest first;
 * what `toId` owes `fromId`; and the amounts that settle whole parts, in cents: the oldest k owed
 * less everything owed back, for k = 1, 2, … (only those above 0).
 */
function between(parts: OpenPart[], fromId: string, toId: string) {
  const owe = parts
    .filter((p) => flowOf(p).fromId === fromId && flowOf(p).toId === toId)
    .sort(oldestFirst);
  const back = parts.filter((p) => flowOf(p).fromId === toId && flowOf(p).toId === fromId);
  const owedBack = sum(back);
  let running = 0;
  const upTo = owe.map((p) => (running += flowOf(p).cents) - owedBack);
  return { owe, back, upTo, matching: upTo.filter((c) => c > 0) };
}

/**
 * The caller's part towards `to`: "sharer" when the caller owes on balance (and so pays),
 * "payee" when `to` does, "stranger" with nothing open between them.
 */
function roleTowards(owe: OpenPart[], back: OpenPart[]): OrderCaller {
  if (owe.length === 0 && back.length === 0) return "stranger";
  const net = sum(owe) - sum(back);
  return net > 0 ? "sharer" : "payee";
}

const sum = (parts: OpenPart[]) => parts.reduce((a, p) => a + flowOf(p).cents, 0);
const oldestFirst = (a: OpenPart, b: OpenPart) =>
  a.placedAt.getTime() - b.placedAt.getTime() || a.number - b.number;

/** Records the caller's transfer to `to`; answers what it settled on each order. */
export async function recordTransfer(
  db: Db,
  deps: Deps,
  caller: { userId: string; name: string; key?: string | null | undefined },
  body: RecordTransferBody,
): Promise<{ orderId: string; amount: number }[]> {
  const { userId } = caller;
  if (body.to === userId) throw invalidFields({ to: "You cannot pay yourself" });
  const parts = await openParts(db, userId, body.to);
  const { owe, back, upTo, matching } = between(parts, userId, body.to);
  requireAllowed(
    roleTowards(owe, back),
    "order.transfer",
    "Nothing is open between you and that person",
  );
  const cents = toCents(body.amount);
  const take = upTo.indexOf(cents) + 1;
  if (take === 0) {
    throw invalidFields({
      amount: `${formatMoney(body.amount, deps.currency)} does not settle whole shares; ${matching
        .map((c) => formatMoney(fromCents(c), deps.currency))
        .join(", ")} would`,
    });
  }
  return settle(db, deps, userId, body.to, [...owe.slice(0, take), ...back], caller);
}

/** Settles these parts, each order a session write, all in one transaction. */
async function settle(
  db: Db,
  deps: Deps,
  userId: string,
  toId: string,
  chosen: OpenPart[],
  event: { key?: string | null | undefined; name: string },
): Promise<{ orderId: string; amount: number }[]> {
  const byOrder = new Map<string, OpenPart[]>();
  for (const p of chosen) byOrder.set(p.orderId, [...(byOrder.get(p.orderId) ?? []), p]);
  // Sessions are locked in id order, so two transfers never deadlock.
  const orderIds = [...byOrder.keys()].sort((a, b) =>
    byOrder.get(a)![0]!.sessionId < byOrder.get(b)![0]!.sessionId ? -1 : 1,
  );
  const toName =
    chosen.find((p) => p.payerId === toId)?.payerName ??
    chosen.find((p) => p.debtorId === toId)?.debtorName ??
    "";
  return writeSessionsTogether(db, deps, async (write) => {
    const settled: { orderId: string; amount: number }[] = [];
    for (const orderId of orderIds) {
      const mine = byOrder.get(orderId)!;
      const first = mine[0]!;
      const cents = mine.reduce(
        (a, p) => a + (flowOf(p).fromId === userId ? flowOf(p).cents : -flowOf(p).cents),
        0,
      );
      await write({
        sessionId: first.sessionId,
        userId,
        // Checked above: the caller owes `to` on balance.
        action: null,
        active: false,
        change: async ({ tx, now }) => {
          const { row, postings } = await settleOrder(tx, orderId, mine);
          const details = {
            orderId,
            number: orderNumber(first.number),
            to: toName,
            toId,
            amount: fromCents(cents),
          };
          const by = { id: userId, name: event.name };
          return {
            result: row,
            activity: { type: "order.transfer", details },
            version: "unchanged",
            afterActivity: async ([seq]) => {
              await post(tx, { at: now, by, key: event.key }, postings, seq ?? null);
            },
          };
        },
        events: (row) => [
          {
            event: { type: "order.updated", sessionId: first.sessionId, orderId },
            users: peopleOf(row.row, row.shares),
          },
        ],
      });
      settled.push({ orderId, amount: fromCents(cents) });
    }
    return settled;
  });
}

/**
 * Under the session's lock: the parts must still be open as read (else 409, nothing stored).
 * Each part settled is one entry between the two, from the one paid to the one who paid: a debt
 * the caller pays ("transfer"), or a credit the payer pays back ("credit_back"); a part settled
 * in full voids the debtor's waiting claims to that creditor.
 */
async function settleOrder(tx: Tx, orderId: string, chosen: OpenPart[]) {
  const [row] = await tx.select().from(orders).where(eq(orders.id, orderId));
  const [shares, pairs] = await Promise.all([sharesOf(tx, [orderId]), pairsOfOrder(tx, orderId)]);
  const postings: Posting[] = [];
  for (const part of chosen) {
    const pair = pairs.find((p) => p.debtor === part.debtorId && p.creditor === part.payerId);
    if (!pair || pair.net !== part.cents) {
      throw conflict("These shares changed meanwhile: reload the balances and try again.");
    }
    const flow = flowOf(part);
    // A part settled in full: the one who paid it has nothing left to claim.
    postings.push(...voids(orderId, pair, flow.fromId), {
      orderId,
      kind: part.cents > 0 ? "transfer" : "credit_back",
      fromId: flow.toId,
      toId: flow.fromId,
      cents: flow.cents,
    });
  }
  return { row: { row: row!, shares }, postings };
}
