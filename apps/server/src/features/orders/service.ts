/**
 * Orders, which never change once placed except for their shares' settlement: who may see and
 * settle one, the checkout mails, balances. Checking out is checkout.ts, settling up settle.ts,
 * the order's answer order-view.ts.
 */
import {
  fromCents,
  orderNumber,
  type Balance,
  type Order,
  type OrderCaller,
  type SettlementKind,
  type User,
} from "@cartner/contract";
import { and, desc, eq, inArray, or, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { orderShares, orders, users } from "../../db/schema.ts";
import type { Clock } from "../../lib/clock.ts";
import { conflict, notFound } from "../../lib/errors.ts";
import type { Media } from "../../lib/media.ts";
import { requireAllowed } from "../../lib/permissions.ts";
import type { EventBus } from "../realtime/index.ts";
import { peopleOf, placeOrder, type CheckoutOptions } from "./checkout.ts";
import { build, sharesOf, unsettledShares, type OrderRow, type ShareRow } from "./order-view.ts";
import { markPaid as markSharePaid, settleShare } from "./settle.ts";

export { unsettledShares, type UnsettledRow } from "./order-view.ts";

/** What the order mails need: each sharer's address, read after the order committed. */
export interface OrderMail {
  order: Order;
  recipients: { userId: string; name: string; email: string }[];
}

export function createOrderService(deps: {
  db: Db;
  clock: Clock;
  events: Pick<EventBus, "publish">;
  media: Media;
  /** Sends the checkout mails after commit; a failure is recorded on the share, never undoes. */
  mailOrder: (mail: OrderMail) => Promise<Map<string, boolean>>;
  /** Told of mail jobs still running, so shutdown and tests can wait for them. */
  track?: (job: Promise<unknown>) => void;
}) {
  const { db, events, media } = deps;

  async function load(orderId: string): Promise<{ row: OrderRow; shares: ShareRow[] } | null> {
    const [row] = await db.select().from(orders).where(eq(orders.id, orderId));
    if (!row) return null;
    return { row, shares: await sharesOf(db, [orderId]) };
  }

  const roleIn = (row: OrderRow, shares: ShareRow[], userId: string): OrderCaller =>
    row.payeeId === userId
      ? "payee"
      : shares.some((s) => s.userId === userId)
        ? "sharer"
        : "stranger";

  /** The order and the caller's part in it; anyone without one gets 404 (ids reveal nothing). */
  async function access(
    orderId: string,
    userId: string,
    action: "order.read" | "order.pay" | "order.confirm",
  ) {
    const found = await load(orderId);
    requireAllowed(
      found ? roleIn(found.row, found.shares, userId) : null,
      action,
      "Order not found",
    );
    return found!;
  }

  /** Tells the order's people (payee and sharers) that its mails' state changed. */
  function announce(row: OrderRow, shares: ShareRow[]) {
    events.publish({
      event: { type: "order.updated", sessionId: row.sessionId, orderId: row.id },
      users: peopleOf(row, shares),
    });
  }

  /**
   * The creator checks out (checkout.ts), by hand or at the deadline (`options`); the mails go
   * after commit.
   */
  async function checkout(
    sessionId: string,
    user: User,
    options: CheckoutOptions = {},
  ): Promise<Order> {
    const placed = await placeOrder(db, deps, sessionId, user, options);
    const order = build(placed.row, placed.shares);
    sendMails(order, placed.row);
    return order;
  }

  /**
   * Mails each sharer after commit (the answer does not wait for a mail server); each share
   * records whether its mail went, and the payee sees a failure and may send it again.
   */
  function sendMails(order: Order, row: OrderRow, only?: string[]) {
    const job = (async () => {
      const targets = order.split.filter((s) => !only || only.includes(s.userId));
      if (targets.length === 0) return;
      const recipients = await db
        .select({ userId: users.id, name: users.name, email: users.email })
        .from(users)
        .where(
          inArray(
            users.id,
            targets.map((s) => s.userId),
          ),
        );
      const sent = await deps.mailOrder({ order, recipients });
      for (const [userId, ok] of sent) {
        await db
          .update(orderShares)
          .set({ mail: ok ? "sent" : "failed" })
          .where(and(eq(orderShares.orderId, order._id), eq(orderShares.userId, userId)));
      }
      const fresh = await load(order._id);
      if (fresh) announce(row, fresh.shares);
    })();
    deps.track?.(job);
  }

  async function list(userId: string): Promise<Order[]> {
    const rows = await db
      .select()
      .from(orders)
      .where(
        or(
          eq(orders.payeeId, userId),
          sql`exists (select 1 from ${orderShares} where ${orderShares.orderId} = ${orders.id}
            and ${orderShares.userId} = ${userId})`,
        ),
      )
      .orderBy(desc(orders.placedAt), desc(orders.number));
    const shares = await sharesOf(
      db,
      rows.map((r) => r.id),
    );
    return rows.map((row) =>
      build(
        row,
        shares.filter((s) => s.orderId === row.id),
      ),
    );
  }

  async function get(orderId: string, userId: string): Promise<Order> {
    const { row, shares } = await access(orderId, userId, "order.read");
    return build(row, shares);
  }

  /** Your share becomes "paid"; already paid or confirmed: 200, nothing changes (settle.ts). */
  async function markPaid(orderId: string, userId: string): Promise<Order> {
    await markSharePaid(db, deps, await access(orderId, userId, "order.pay"), userId);
    const { row, shares } = (await load(orderId))!;
    return build(row, shares);
  }

  /** The payee settles a member's share (settle.ts): confirmed, paid in cash or written off. */
  async function confirm(
    orderId: string,
    payeeId: string,
    memberId: string,
    how: SettlementKind = "transfer",
  ): Promise<Order> {
    const order = await access(orderId, payeeId, "order.confirm");
    const share = order.shares.find((s) => s.userId === memberId);
    if (!share) throw notFound("Share not found");
    if (how === "transfer" && share.status === "unpaid") {
      throw conflict(
        `${share.name} has not marked their share as paid yet: record it as paid in cash or write it off instead.`,
      );
    }
    await settleShare(db, deps, order, payeeId, share, how);
    const fresh = (await load(orderId))!;
    return build(fresh.row, fresh.shares);
  }

  /** Sends the checkout mail again to every share whose mail failed (payee). */
  async function resendMail(orderId: string, payeeId: string): Promise<Order> {
    const { row, shares } = await access(orderId, payeeId, "order.confirm");
    const failed = shares.filter((s) => s.mail === "failed").map((s) => s.userId);
    if (failed.length > 0) {
      await db
        .update(orderShares)
        .set({ mail: "pending" })
        .where(and(eq(orderShares.orderId, orderId), inArray(orderShares.userId, failed)));
    }
    const fresh = (await load(orderId))!;
    const order = build(fresh.row, fresh.shares);
    if (failed.length > 0) sendMails(order, row, failed);
    return order;
  }

  /**
   * Your net with each person over every share not yet confirmed, across orders: what others
   * owe you as payee, less what you owe payees. Positive = they owe you.
   */
  async function balances(userId: string): Promise<Balance[]> {
    const rows = await unsettledShares(db, userId);
    const byPerson = new Map<string, Balance & { cents: number }>();
    for (const r of rows) {
      const entry = byPerson.get(r.otherId) ?? {
        user: { _id: r.otherId, name: r.otherName, avatar: media.userAvatar(r.otherId) },
        amount: 0,
        cents: 0,
        orders: [],
      };
      entry.cents += r.cents;
      entry.orders.push({
        _id: r.orderId,
        number: orderNumber(r.number),
        sessionName: r.sessionName,
        placedAt: new Date(r.placedAt).toISOString(),
        amount: fromCents(r.cents),
        status: r.status,
      });
      byPerson.set(r.otherId, entry);
    }
    return [...byPerson.values()]
      .map(({ cents, ...b }) => ({ ...b, amount: fromCents(cents) }))
      .sort(
        (a, b) => Math.abs(b.amount) - Math.abs(a.amount) || a.user.name.localeCompare(b.user.name),
      );
  }

  /** The order for its receipt (same access as reading it). */
  const forReceipt = get;

  return { checkout, list, get, markPaid, confirm, resendMail, balances, forReceipt };
}

export type OrderService = ReturnType<typeof createOrderService>;
