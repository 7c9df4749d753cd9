/**
 * Orders, whose lines never change once placed: who may see, settle and adjust one, the checkout
 * mails, balances. Checking out is checkout.ts, settling up settle.ts, adjustments and disputes
 * adjust.ts, the order's answer order-view.ts, several payers set-payers.ts, the open parts
 * between people open-parts.ts, the settle plan and recorded transfers transfers.ts.
 */
import {
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
import type { EventBus } from "../live/index.ts";
import {
  adjustmentNotice,
  disputeAdjustment,
  disputeNotice,
  recordAdjustment,
} from "./adjusting/adjust.ts";
import { placeOrder, type CheckoutOptions } from "./checkout/place-order.ts";
import { formatMoney } from "../../lib/money.ts";
import { orderMail } from "./checkout/mail.ts";
import { checkoutNoticeBody } from "./checkout/notice.ts";
import { balancesOf } from "./balances/open-parts.ts";
import { owingOf, pairsOfOrders, type Pair } from "../ledger/index.ts";
import { entriesOf } from "./reading/entries.ts";
import { build, loadOrder, payersOf, sharesOf } from "./reading/view.ts";
import { peopleOf, type OrderRow, type PayerRow, type ShareRow } from "./rows.ts";
import { setPayers as storePayers } from "./adjusting/set-payers.ts";
import { paidNotice, settledNotice } from "./paying/notices.ts";
import { markPaid as markSharePaid, settleShare, type Actor } from "./paying/mark-paid.ts";
import { planFor, recordTransfer } from "./balances/transfers.ts";

export { unsettledShares, type UnsettledRow } from "./balances/open-parts.ts";

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

  const load = (orderId: string) => loadOrder(db, orderId);
  type Loaded = NonNullable<Awaited<ReturnType<typeof load>>>;
  const view = (found: Loaded) => build(found.row, found.shares, found.payers, found.pairs);

  const roleIn = (found: Loaded, userId: string): OrderCaller =>
    found.row.payeeId === userId
      ? "payee"
      : found.payers.some((p) => p.userId === userId)
        ? "payer"
        : found.shares.some((s) => s.userId === userId)
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
      | "order.mail"
      | "order.adjust"
      | "order.dispute"
      | "order.payers",
  ) {
    const found = await load(orderId);
    requireAllowed(found ? roleIn(found, userId) : null, action, "Order not found");
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
    const found = (await load(placed.row.id))!;
    const order = view(found);
    noticeCheckout(order, user._id, found);
    return order;
  }

  /**
   * Each sharer hears their own share; the payee, what the others owe them. Viewers carry no
   * share and hear nothing (notify() drops them).
   */
  function noticeCheckout(
    order: Order,
    actorId: string,
    placed: { row: OrderRow; shares: ShareRow[]; payers: PayerRow[]; pairs: Pair[] },
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
    const order = view(found);
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
    const [shares, payers, pairs] = await Promise.all([
      sharesOf(db, ids),
      payersOf(db, ids),
      pairsOfOrders(db, ids),
    ]);
    return rows.map((row) =>
      build(
        row,
        shares.filter((s) => s.orderId === row.id),
        payers.filter((p) => p.orderId === row.id),
        pairs.filter((p) => p.orderId === row.id),
      ),
    );
  }

  async function get(orderId: string, userId: string): Promise<Order> {
    return view(await access(orderId, userId, "order.read"));
  }

  /** The order's book, oldest first (entries.ts). */
  async function entries(
    orderId: string,
    userId: string,
    page: { cursor?: string; limit: number },
  ) {
    await access(orderId, userId, "order.read");
    return entriesOf(db, orderId, page);
  }

  /**
   * "I've paid": a claim to each payer the caller owes (settle.ts); already claimed or settled:
   * 200, nothing changes. Each payer owed hears what was claimed to them.
   */
  async function markPaid(orderId: string, actor: Actor): Promise<Order> {
    const userId = actor.user._id;
    const claimed = await markSharePaid(
      db,
      deps,
      await access(orderId, userId, "order.pay"),
      actor,
    );
    const order = view((await load(orderId))!);
    const notice = claimed > 0 ? paidNotice(order, userId, money) : null;
    if (notice) deps.notices?.later(notice);
    return order;
  }

  /**
   * A creditor (the payee, or another payer) settles what a member owes them (settle.ts):
   * confirmed, paid in cash or written off; only their own part.
   */
  async function confirm(
    orderId: string,
    actor: Actor,
    memberId: string,
    how: SettlementKind = "transfer",
  ): Promise<Order> {
    const order = await access(orderId, actor.user._id, "order.confirm");
    const share = order.shares.find((s) => s.userId === memberId);
    if (!share) throw notFound("Share not found");
    const owing = order.pairs
      .map((p) => owingOf(p, memberId))
      .find((o) => o?.other === actor.user._id);
    if (!owing) throw conflict(`${share.name} owes you nothing on this order.`);
    if (how === "transfer" && owing.owes > 0 && owing.claimed === 0) {
      throw conflict(
        `${share.name} has not marked their share as paid yet: record it as paid in cash or write it off instead.`,
      );
    }
    const settled = await settleShare(db, deps, order, actor, share, how);
    const built = view((await load(orderId))!);
    if (settled > 0) {
      deps.notices?.later(settledNotice(built, actor.user, memberId, how, settled, money));
    }
    return built;
  }

  /**
   * Sends the checkout mail again to every share whose mail failed (payee): a new job each, at
   * once (the failed job's own retries may still come; whichever sends first marks it sent).
   */
  async function resendMail(orderId: string, payeeId: string): Promise<Order> {
    const { shares } = await access(orderId, payeeId, "order.mail");
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
    return view((await load(orderId))!);
  }

  /** Your net with each person across orders (open-parts.ts). */
  const balances = (userId: string) => balancesOf(db, userId, media.userAvatar);

  /** The payee records what the shop delivered and charged; the order re-splits (adjust.ts). */
  async function adjust(orderId: string, actor: Actor, body: AdjustmentBody): Promise<Order> {
    const found = await access(orderId, actor.user._id, "order.adjust");
    const was = view(found);
    await recordAdjustment(db, deps, found, actor, body);
    const order = view((await load(orderId))!);
    const notice = adjustmentNotice(was, order, actor.user, money);
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
    const built = view((await load(orderId))!);
    deps.notices?.later(disputeNotice(built, user, comment));
    return built;
  }

  /** The payee says who paid the shop (set-payers.ts). */
  async function setPayers(orderId: string, actor: Actor, body: SetPayersBody): Promise<Order> {
    await storePayers(db, deps, await access(orderId, actor.user._id, "order.payers"), actor, body);
    return view((await load(orderId))!);
  }

  /** The fewest transfers that settle the caller's orders (transfers.ts). */
  const settlePlan = (userId: string, withId?: string) => planFor(db, userId, withId);

  /** The caller paid someone they owe (transfers.ts); the one paid hears of it. */
  async function transfer(actor: Actor, body: RecordTransferBody) {
    const { user } = actor;
    const settled = await recordTransfer(
      db,
      deps,
      { userId: user._id, name: user.name, key: actor.key },
      body,
    );
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
    entries,
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
