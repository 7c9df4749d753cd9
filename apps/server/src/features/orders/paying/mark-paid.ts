/**
 * Settling up, recorded only (there is no card payment), in the ledger (features/ledger): a
 * member says they paid (a claim to each person they owe), a creditor confirms it or settles what
 * the member owes them another way. Each is a session write of the order's session (write.ts):
 * under its lock, the book read and appended to; an activity entry when something changed, the
 * version kept (an ended session's members' views do not change), `order.updated` to the order's
 * people. Doing it a second time changes nothing.
 */
import { fromCents, orderNumber, type User } from "@cartner/contract";
import type { Db } from "../../../db/client.ts";
import type { Clock } from "../../../lib/clock.ts";
import type { EventBus } from "../../live/index.ts";
import { writeSession } from "../../sessions/index.ts";
import {
  claimsOf,
  owingOf,
  pairsOfOrder,
  post,
  settlementOf,
  type Posting,
  type Settlement,
} from "../../ledger/index.ts";
import { payersFor, payersOf } from "../reading/view.ts";
import { peopleOf, type OrderRow, type ShareRow } from "../rows.ts";

type Deps = { clock: Clock; events: Pick<EventBus, "publish"> };

/** Who acts, and the request's Idempotency-Key (kept with the entries). */
export interface Actor {
  user: Pick<User, "_id" | "name">;
  key?: string | null | undefined;
}

/** After commit, when something was written: the order's people refetch it. */
const orderUpdated = (row: OrderRow, shares: ShareRow[]) => (cents: number) =>
  cents > 0
    ? [
        {
          event: { type: "order.updated" as const, sessionId: row.sessionId, orderId: row.id },
          users: peopleOf(row, shares),
        },
      ]
    : [];

const sum = (postings: Posting[]) =>
  postings.filter((p) => !p.refId || p.kind === "confirmed").reduce((a, p) => a + p.cents, 0);

/**
 * "I've paid": a claim to each person the member still owes on the order. Answers the cents
 * claimed (0: already claimed or nothing owed).
 */
export async function markPaid(
  db: Db,
  deps: Deps,
  order: { row: OrderRow; shares: ShareRow[] },
  actor: Actor,
): Promise<number> {
  const { row } = order;
  const { result } = await writeSession(db, deps, {
    sessionId: row.sessionId,
    userId: actor.user._id,
    // The order service checked the caller's part in the order.
    action: null,
    active: false,
    change: async ({ tx, now }) => {
      const payerIds = payersFor(row, await payersOf(tx, [row.id])).map((p) => p.userId);
      const claims = claimsOf(row.id, await pairsOfOrder(tx, row.id), actor.user._id, payerIds);
      const cents = sum(claims);
      if (cents === 0) return { result: 0, version: "unchanged" };
      const details = {
        orderId: row.id,
        number: orderNumber(row.number),
        amount: fromCents(cents),
      };
      return {
        result: cents,
        activity: { type: "order.paid", details },
        version: "unchanged",
        afterActivity: async ([seq]) => {
          const by = { id: actor.user._id, name: actor.user.name };
          await post(tx, { at: now, by, key: actor.key }, claims, seq ?? null);
        },
      };
    },
    events: orderUpdated(row, order.shares),
  });
  return result;
}

/**
 * A creditor settles what `member` owes them on the order (settlementOf): "transfer" confirms
 * the member's claims, "cash" and "written_off" settle what is open. Answers the cents settled (0:
 * nothing changed).
 */
export async function settleShare(
  db: Db,
  deps: Deps,
  order: { row: OrderRow; shares: ShareRow[] },
  actor: Actor,
  member: ShareRow,
  how: Settlement,
): Promise<number> {
  const { row } = order;
  const { result } = await writeSession(db, deps, {
    sessionId: row.sessionId,
    userId: actor.user._id,
    // The order service checked the caller is a creditor of the order.
    action: null,
    active: false,
    change: async ({ tx, now }) => {
      const pair = (await pairsOfOrder(tx, row.id)).find(
        (p) => owingOf(p, member.userId)?.other === actor.user._id,
      );
      const postings = pair ? settlementOf(row.id, pair, member.userId, how) : [];
      const cents = sum(postings);
      if (cents === 0) return { result: 0, version: "unchanged" };
      const details = {
        orderId: row.id,
        number: orderNumber(row.number),
        member: member.name,
        memberId: member.userId,
        amount: fromCents(cents),
        how,
      };
      return {
        result: cents,
        activity: { type: "order.confirmed", details },
        version: "unchanged",
        afterActivity: async ([seq]) => {
          const by = { id: actor.user._id, name: actor.user.name };
          await post(tx, { at: now, by, key: actor.key }, postings, seq ?? null);
        },
      };
    },
    events: orderUpdated(row, order.shares),
  });
  return result;
}
