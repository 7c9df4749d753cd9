/**
 * Settling up, recorded only (there is no card payment): a sharer says they paid, the payee
 * confirms or settles a share another way. Each is a guarded update, a no-op the second time, and
 * a session write (write.ts) of the order's session: an entry when something changed, the version
 * kept (an ended session's members' views do not change), `order.updated` to the order's people.
 */
import { fromCents, orderNumber, type SettlementKind, type ShareStatus } from "@cartner/contract";
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { orderShares } from "../../db/schema.ts";
import type { Clock } from "../../lib/clock.ts";
import type { EventBus } from "../realtime/index.ts";
import { writeSession } from "../sessions/index.ts";
import { peopleOf } from "./checkout.ts";
import type { OrderRow, ShareRow } from "./order-view.ts";

type Deps = { clock: Clock; events: Pick<EventBus, "publish"> };

/** After commit, when a share changed: the order's people refetch it. */
const orderUpdated = (row: OrderRow, shares: ShareRow[]) => (changed: boolean) =>
  changed
    ? [
        {
          event: { type: "order.updated" as const, sessionId: row.sessionId, orderId: row.id },
          users: peopleOf(row, shares),
        },
      ]
    : [];

/** The sharer's share becomes "paid"; already paid or confirmed: nothing changes. */
export async function markPaid(
  db: Db,
  deps: Deps,
  order: { row: OrderRow; shares: ShareRow[] },
  userId: string,
): Promise<boolean> {
  const { row } = order;
  const { result } = await writeSession(db, deps, {
    sessionId: row.sessionId,
    userId,
    // The order service checked the caller's part in the order.
    action: null,
    active: false,
    change: async ({ tx, now }) => {
      const [paid] = await tx
        .update(orderShares)
        .set({ status: "paid", paidAt: now })
        .where(
          and(
            eq(orderShares.orderId, row.id),
            eq(orderShares.userId, userId),
            eq(orderShares.status, "unpaid"),
          ),
        )
        .returning({ total: orderShares.totalCents, before: orderShares.paidCents });
      if (!paid) return { result: false, version: "unchanged" };
      // What they paid now: the rest, when an adjustment raised a share they had paid.
      const details = {
        orderId: row.id,
        number: orderNumber(row.number),
        amount: fromCents(Math.max(0, paid.total - paid.before)),
      };
      return { result: true, activity: { type: "order.paid", details }, version: "unchanged" };
    },
    events: orderUpdated(row, order.shares),
  });
  return result;
}

/**
 * The payee settles a member's share: "transfer" confirms a payment the member marked as paid;
 * "cash" and "written_off" settle it paid or not. Settling a settled share changes nothing.
 */
export async function settleShare(
  db: Db,
  deps: Deps,
  order: { row: OrderRow; shares: ShareRow[] },
  payeeId: string,
  share: ShareRow,
  how: SettlementKind,
): Promise<boolean> {
  const { row } = order;
  const settleable: ShareStatus[] = how === "transfer" ? ["paid"] : ["unpaid", "paid"];
  const { result } = await writeSession(db, deps, {
    sessionId: row.sessionId,
    userId: payeeId,
    // The order service checked the caller is the payee.
    action: null,
    active: false,
    change: async ({ tx, now }) => {
      const [confirmed] = await tx
        .update(orderShares)
        .set({ status: "confirmed", confirmedAt: now, settledAs: how })
        .where(
          and(
            eq(orderShares.orderId, row.id),
            eq(orderShares.userId, share.userId),
            inArray(orderShares.status, settleable),
          ),
        )
        .returning({ total: orderShares.totalCents, before: orderShares.paidCents });
      if (!confirmed) return { result: false, version: "unchanged" };
      const details = {
        orderId: row.id,
        number: orderNumber(row.number),
        member: share.name,
        memberId: share.userId,
        amount: fromCents(Math.max(0, confirmed.total - confirmed.before)),
        how,
      };
      return { result: true, activity: { type: "order.confirmed", details }, version: "unchanged" };
    },
    events: orderUpdated(row, order.shares),
  });
  return result;
}
