/**
 * Transfers (docs/decisions/020-payers-and-settle-plan.md): recording one, between two people
 * across orders, settles the caller's open parts owed to the recipient oldest first, less what
 * the recipient owes the caller (the two cancel), exactly: an amount that does not match whole
 * parts is refused with the amounts that would, so no share is ever half settled.
 */
import {
  fromCents,
  orderNumber,
  toCents,
  type OrderCaller,
  type RecordTransferBody,
} from "@cartner/contract";
import { eq } from "drizzle-orm";
import type { Tx } from "../../../db/client.ts";
import { orders } from "../../../db/schema.ts";
import { conflict, invalidFields } from "../../../lib/errors.ts";
import { formatMoney } from "../../../lib/money.ts";
import { requireAllowed } from "../../../lib/permissions.ts";
import { writeSessionsTogether } from "../../sessions/index.ts";
import { pairsOfOrder, post, voids, type Posting } from "../../ledger/index.ts";
import type { Actor } from "../access.ts";
import type { OrderDeps } from "../deps.ts";
import { sharesOf } from "../reading/view.ts";
import { peopleOf } from "../rows.ts";
import { flowOf, flowTotal, openBetween, openParts, type OpenPart } from "./open-parts.ts";
import { later } from "../../notifications/index.ts";

/**
 * The caller's part towards `to`: "sharer" when the caller owes on balance (and so pays),
 * "payee" when `to` does, "stranger" with nothing open between them.
 */
function roleTowards(owe: OpenPart[], back: OpenPart[]): OrderCaller {
  if (owe.length === 0 && back.length === 0) return "stranger";
  const net = flowTotal(owe) - flowTotal(back);
  return net > 0 ? "sharer" : "payee";
}

/** The caller paid someone they owe; the one paid hears of it. */
export async function recordTransfer(
  deps: OrderDeps,
  actor: Actor,
  body: RecordTransferBody,
): Promise<{ orderId: string; amount: number }[]> {
  const { user } = actor;
  const settled = await transferTo(
    deps,
    { userId: user._id, name: user.name, key: actor.key },
    body,
  );
  const count = settled.length;
  const money = (amount: number) => formatMoney(amount, deps.currency);
  if (deps.notices)
    later(deps.notices, {
      kind: "payment",
      userIds: [body.to],
      actorId: user._id,
      title: `${user.name} paid you`,
      body: `${user.name} recorded a transfer of ${money(body.amount)} to you, settling ${count} ${count === 1 ? "order" : "orders"}`,
      url: "/balances",
    });
  return settled;
}

/** Records the caller's transfer to `to`; answers what it settled on each order. */
async function transferTo(
  deps: Pick<OrderDeps, "db" | "clock" | "events" | "currency">,
  caller: { userId: string; name: string; key?: string | null | undefined },
  body: RecordTransferBody,
): Promise<{ orderId: string; amount: number }[]> {
  const { userId } = caller;
  if (body.to === userId) throw invalidFields({ to: "You cannot pay yourself" });
  const parts = await openParts(deps.db, userId, body.to);
  const { owe, back, upTo, matching } = openBetween(parts, userId, body.to);
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
  return settleParts(deps, userId, body.to, [...owe.slice(0, take), ...back], caller);
}

/** Settles these parts, each order a session write, all in one transaction. */
async function settleParts(
  deps: Pick<OrderDeps, "db" | "clock" | "events">,
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
  return writeSessionsTogether(deps.db, deps, async (write) => {
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
