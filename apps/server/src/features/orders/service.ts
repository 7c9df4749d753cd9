/**
 * Orders, whose lines never change once placed: who may see, settle and adjust one, the checkout
 * mails, balances. Checking out is checkout.ts, settling up settle.ts, adjustments and disputes
 * adjust.ts, the order's answer order-view.ts, several payers set-payers.ts, the open parts
 * between people open-parts.ts, the settle plan and recorded transfers transfers.ts.
 */
import {
  fromCents,
  type AdjustmentBody,
  type Order,
  type OrderCaller,
  type RecordTransferBody,
  type SetPayersBody,
  type SettlementKind,
  type User,
} from "@cartner/contract";
import { and, desc, eq, inArray, ne, or, sql } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.ts";
import { orderShares, orders, users } from "../../db/schema.ts";
import type { Clock } from "../../lib/clock.ts";
import { conflict, notFound } from "../../lib/errors.ts";
import type { Media } from "../../lib/media.ts";
import { requireAllowed } from "../../lib/permissions.ts";
import type { Mailer, MailQueue } from "../mail/index.ts";
import type { NotificationService } from "../notifications/index.ts";
import type { Jobs } from "../jobs/index.ts";
import type { EventBus } from "../realtime/index.ts";
import { adjustmentNotice, disputeAdjustment, disputeNotice, recordAdjustment } from "./adjust.ts";
import { peopleOf, placeOrder, type CheckoutOptions } from "./checkout.ts";
import { formatMoney } from "./format.ts";
import { orderMail } from "./mail.ts";
import { checkoutNoticeBody } from "./checkout-notice.ts";
import { balancesOf } from "./open-parts.ts";
import {
  build,
  payersOf,
  sharesOf,
  type OrderRow,
  type PayerRow,
  type ShareRow,
} from "./order-view.ts";
import { setPayers as storePayers } from "./set-payers.ts";
import { markPaid as markSharePaid, settleShare } from "./settle.ts";
import { planFor, recordTransfer } from "./transfers.ts";

export { unsettledShares, type UnsettledRow } from "./open-parts.ts";

export function createOrderService(deps: {
  db: Db;
  clock: Clock;
  events: Pick<EventBus, "publish">;
  /** The durable job queue: a series' next session is started by a job the checkout sends. */
  jobs: Pick<Jobs, "send">;
  media: Media;
  /** The checkout mails go on the mail queue with the order; a failure never undoes it. */
  mails: MailQueue;
  mailer: Mailer;
  /** Tells the order's people of checkouts and payments. */
  notices?: Pick<NotificationService, "later"> | undefined;
  /** The deployment's currency (CURRENCY): the notices' and mails' amounts. */
  currency: string;
}) {
  const { db, events, media } = deps;
  const money = (amount: number) => formatMoney(amount, deps.currency);

  async function load(
    orderId: string,
  ): Promise<{ row: OrderRow; shares: ShareRow[]; payers: PayerRow[] } | null> {
    const [row] = await db.select().from(orders).where(eq(orders.id, orderId));
    if (!row) return null;
    const [shares, payers] = await Promise.all([sharesOf(db, [orderId]), payersOf(db, [orderId])]);
    return { row, shares, payers };
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
    action:
      | "order.read"
      | "order.pay"
      | "order.confirm"
      | "order.adjust"
      | "order.dispute"
      | "order.payers",
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
   * The creator checks out (checkout.ts), by hand or at the deadline (`options`). Each sharer's
   * checkout mail is a job sent in the checkout's transaction, so it exists exactly when the
   * order does; it goes once the answer is sent (the answer does not wait for a mail server).
   */
  async function checkout(
    sessionId: string,
    user: User,
    options: CheckoutOptions = {},
  ): Promise<Order> {
    const placed = await placeOrder(db, { ...deps, mailShares }, sessionId, user, options);
    deps.mails.wake();
    const order = build(placed.row, placed.shares, placed.payers);
    noticeCheckout(order, user._id, placed);
    return order;
  }

  /**
   * Each sharer hears their own share; the payee, what the others owe them. Viewers carry no
   * share and hear nothing (notify() drops them).
   */
  function noticeCheckout(
    order: Order,
    actorId: string,
    placed: { row: OrderRow; shares: ShareRow[]; payers: PayerRow[] },
  ) {
    deps.notices?.later({
      kind: "checkout",
      userIds: [...order.split.map((s) => s.userId), order.payee._id],
      actorId,
      sessionId: order.sessionId,
      orderId: order._id,
      title: `${order.sessionName} was checked out`,
      body: checkoutNoticeBody(order, placed, money),
      url: `/orders/${order._id}`,
    });
  }

  /** Inside the checkout's transaction: one mail job per share. */
  async function mailShares(tx: Tx, orderId: string, userIds: string[]) {
    for (const userId of userIds) await deps.mails.send("order", { orderId, userId }, { tx });
  }

  /**
   * The checkout mail to one member (a "mail.send" job). Its share records whether it went: a
   * failure marks it "failed", so the payee sees it and may send it again, and throws, so the
   * queue tries again later; a success marks it "sent", and a job finding it sent does nothing.
   */
  async function sendOrderMail({ orderId, userId }: { orderId: string; userId: string }) {
    const found = await load(orderId);
    const share = found?.shares.find((s) => s.userId === userId);
    if (!found || !share || share.mail === "sent") return;
    const [to] = await db
      .select({
        userId: users.id,
        name: users.name,
        email: users.email,
        deletedAt: users.deletedAt,
      })
      .from(users)
      .where(eq(users.id, userId));
    // Nobody is left to read it.
    if (!to || to.deletedAt) return;
    const mark = async (mail: "sent" | "failed") => {
      await db
        .update(orderShares)
        .set({ mail })
        .where(
          and(
            eq(orderShares.orderId, orderId),
            eq(orderShares.userId, userId),
            ne(orderShares.mail, "sent"),
          ),
        );
      const fresh = await load(orderId);
      if (fresh) announce(fresh.row, fresh.shares);
    };
    const order = build(found.row, found.shares, found.payers);
    try {
      await deps.mailer.send(orderMail(order, to, media.orderPage(orderId), deps.currency));
    } catch (error) {
      await mark("failed");
      throw error;
    }
    await mark("sent");
  }
  deps.mails.handle("order", sendOrderMail);

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
    const ids = rows.map((r) => r.id);
    const [shares, payers] = await Promise.all([sharesOf(db, ids), payersOf(db, ids)]);
    return rows.map((row) =>
      build(
        row,
        shares.filter((s) => s.orderId === row.id),
        payers,
      ),
    );
  }

  async function get(orderId: string, userId: string): Promise<Order> {
    const { row, shares, payers } = await access(orderId, userId, "order.read");
    return build(row, shares, payers);
  }

  /** Your share becomes "paid"; already paid or confirmed: 200, nothing changes (settle.ts). */
  async function markPaid(orderId: string, userId: string): Promise<Order> {
    const paid = await markSharePaid(db, deps, await access(orderId, userId, "order.pay"), userId);
    const { row, shares, payers } = (await load(orderId))!;
    const order = build(row, shares, payers);
    const share = order.split.find((s) => s.userId === userId);
    if (paid && share) {
      deps.notices?.later({
        kind: "payment",
        userIds: [order.payee._id],
        actorId: userId,
        sessionId: order.sessionId,
        orderId,
        title: `${share.name} paid their share`,
        body: `${share.name} marked ${money(Math.max(0, share.total - share.paid))} for ${order.sessionName} (${order.number}) as paid`,
        url: `/orders/${orderId}`,
      });
    }
    return order;
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
    const settled = await settleShare(db, deps, order, payeeId, share, how);
    const fresh = (await load(orderId))!;
    const built = build(fresh.row, fresh.shares, fresh.payers);
    if (settled) {
      const amount = money(fromCents(share.totalCents));
      const payee = built.payee.name;
      const where = `${built.sessionName} (${built.number})`;
      deps.notices?.later({
        kind: "payment",
        userIds: [memberId],
        actorId: payeeId,
        sessionId: built.sessionId,
        orderId,
        title: how === "written_off" ? "Your share was written off" : "Your share is settled",
        body:
          how === "transfer"
            ? `${payee} confirmed your payment of ${amount} for ${where}`
            : how === "cash"
              ? `${payee} recorded your ${amount} for ${where} as paid in cash`
              : `${payee} wrote off your ${amount} for ${where}`,
        url: `/orders/${orderId}`,
      });
    }
    return built;
  }

  /**
   * Sends the checkout mail again to every share whose mail failed (payee): a new job each, at
   * once (the failed job's own retries may still come; whichever sends first marks it sent).
   */
  async function resendMail(orderId: string, payeeId: string): Promise<Order> {
    const { shares } = await access(orderId, payeeId, "order.confirm");
    const failed = shares.filter((s) => s.mail === "failed").map((s) => s.userId);
    if (failed.length > 0) {
      await db.transaction(async (tx) => {
        await tx
          .update(orderShares)
          .set({ mail: "pending" })
          .where(
            and(
              eq(orderShares.orderId, orderId),
              inArray(orderShares.userId, failed),
              eq(orderShares.mail, "failed"),
            ),
          );
        await mailShares(tx, orderId, failed);
      });
      deps.mails.wake();
    }
    const fresh = (await load(orderId))!;
    return build(fresh.row, fresh.shares, fresh.payers);
  }

  /** Your net with each person across orders (open-parts.ts). */
  const balances = (userId: string) => balancesOf(db, userId, media.userAvatar);

  /** The payee records what the shop delivered and charged; the order re-splits (adjust.ts). */
  async function adjust(orderId: string, user: User, body: AdjustmentBody): Promise<Order> {
    const found = await access(orderId, user._id, "order.adjust");
    const was = build(found.row, found.shares, found.payers);
    await recordAdjustment(db, deps, found, user, body);
    const fresh = (await load(orderId))!;
    const order = build(fresh.row, fresh.shares, fresh.payers);
    const notice = adjustmentNotice(was, order, user, money);
    if (notice) deps.notices?.later(notice);
    return order;
  }

  /** A member with a share disputes an adjustment with a comment (adjust.ts). */
  async function dispute(
    orderId: string,
    user: User,
    adjustmentId: string,
    comment: string,
  ): Promise<Order> {
    const order = await access(orderId, user._id, "order.dispute");
    await disputeAdjustment(db, deps, order, user, adjustmentId, comment);
    const fresh = (await load(orderId))!;
    const built = build(fresh.row, fresh.shares, fresh.payers);
    deps.notices?.later(disputeNotice(built, user, comment));
    return built;
  }

  /** The payee says who paid the shop (set-payers.ts). */
  async function setPayers(orderId: string, payeeId: string, body: SetPayersBody): Promise<Order> {
    await storePayers(db, deps, await access(orderId, payeeId, "order.payers"), payeeId, body);
    const fresh = (await load(orderId))!;
    return build(fresh.row, fresh.shares, fresh.payers);
  }

  /** The fewest transfers that settle the caller's orders (transfers.ts). */
  const settlePlan = (userId: string, withId?: string) => planFor(db, userId, withId);

  /** The caller paid someone they owe (transfers.ts); the one paid hears of it. */
  async function transfer(user: User, body: RecordTransferBody) {
    const settled = await recordTransfer(db, deps, user._id, body);
    const count = settled.length;
    deps.notices?.later({
      kind: "payment",
      userIds: [body.to],
      actorId: user._id,
      title: `${user.name} paid you`,
      body: `${user.name} recorded a transfer of ${money(body.amount)} to you, settling ${count} ${count === 1 ? "order" : "orders"}`,
      url: "/balances",
    });
    return settled;
  }

  return {
    checkout,
    list,
    get,
    markPaid,
    confirm,
    resendMail,
    adjust,
    dispute,
    balances,
    setPayers,
    settlePlan,
    transfer,
    /** The order for its receipt (same access as reading it). */
    forReceipt: get,
  };
}

export type OrderService = ReturnType<typeof createOrderService>;
