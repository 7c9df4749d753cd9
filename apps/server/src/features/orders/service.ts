/**
 * Checkout and settling up (DESIGN section 9, "Checkout"; API.md "Checkout, orders, settling up").
 * The creator checks out: in one transaction the cart becomes an immutable order with everyone's
 * share and the session ends. Members then record paying their share; the payee confirms.
 */
import {
  ErrorCode,
  fromCents,
  orderNumber,
  type Balance,
  type Order,
  type OrderCaller,
  type SessionRole,
  type SettlementKind,
  type ShareStatus,
  type User,
} from "@cartner/contract";
import { and, desc, eq, getTableColumns, inArray, or, sql } from "drizzle-orm";
import { executeRows, type Db } from "../../db/client.ts";
import { orderShares, orders, users, type OrderLineSnapshot } from "../../db/schema.ts";
import type { Clock } from "../../lib/clock.ts";
import { AppError, conflict, notFound } from "../../lib/errors.ts";
import type { Media } from "../../lib/media.ts";
import { requireAllowed } from "../../lib/permissions.ts";
import { splitOf, type CartView } from "../carts/service.ts";
import type { EventBus } from "../realtime/bus.ts";
import { announceActivity, record } from "../sessions/activity.ts";
import { endInTransaction } from "../sessions/service.ts";

type OrderRow = typeof orders.$inferSelect;
type ShareRow = typeof orderShares.$inferSelect & { accountDeleted?: boolean };

/** The shares of these orders, each with whether its member has since deleted their account. */
async function sharesOf(db: Db, orderIds: string[]): Promise<ShareRow[]> {
  if (orderIds.length === 0) return [];
  return db
    .select({
      ...getTableColumns(orderShares),
      accountDeleted: sql<boolean>`${users.deletedAt} is not null`,
    })
    .from(orderShares)
    .leftJoin(users, eq(users.id, orderShares.userId))
    .where(inArray(orderShares.orderId, orderIds));
}

/** A share not yet confirmed between the user and someone else, from the user's side. */
export interface UnsettledRow {
  otherId: string;
  otherName: string;
  orderId: string;
  number: number;
  sessionName: string;
  placedAt: string | Date;
  /** Positive: they owe the user (the user is the payee); negative: the user owes them. */
  cents: number;
  status: ShareStatus;
}

/**
 * Every share not yet confirmed that the user is owed (as payee) or owes (as sharer), newest
 * first: what balances add up, and what deleting an account lists. A deleted person is named as
 * the order recorded them.
 */
export async function unsettledShares(db: Db, userId: string): Promise<UnsettledRow[]> {
  const rows = await executeRows<UnsettledRow>(
    db,
    sql`
    select s.user_id as "otherId",
      case when u.deleted_at is null then u.name else s.name end as "otherName", o.id as "orderId",
      o.number, o.session_name as "sessionName", o.placed_at as "placedAt",
      s.total_cents as cents, s.status
    from ${orderShares} s join ${orders} o on o.id = s.order_id
    left join ${users} u on u.id = s.user_id
    where o.payee_id = ${userId} and s.user_id <> ${userId} and s.status <> 'confirmed'
    union all
    select o.payee_id, case when u.deleted_at is null then u.name else o.payee_name end, o.id, o.number, o.session_name,
      o.placed_at, -s.total_cents, s.status
    from ${orderShares} s join ${orders} o on o.id = s.order_id
    left join ${users} u on u.id = o.payee_id
    where s.user_id = ${userId} and o.payee_id <> ${userId} and s.status <> 'confirmed'
    order by "placedAt" desc, number desc`,
  );
  return rows.map((r) => ({ ...r, number: Number(r.number), cents: Number(r.cents) }));
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** The order as the API shows it (money in currency units, as everywhere in the API). */
function build(row: OrderRow, shares: ShareRow[]): Order {
  return {
    _id: row.id,
    number: orderNumber(row.number),
    sessionId: row.sessionId,
    sessionName: row.sessionName,
    placedAt: new Date(row.placedAt).toISOString(),
    placedBy: { _id: row.placedById ?? "", name: row.placedByName },
    payee: { _id: row.payeeId ?? "", name: row.payeeName },
    lines: row.lines.map((l) => ({
      productId: l.productId,
      name: l.name,
      unitPrice: fromCents(l.unitPriceCents),
      quantity: l.quantity,
      addedBy: l.addedBy,
      sharedWith: l.sharedWith,
      lineTotal: fromCents(l.lineTotalCents),
    })),
    // The payee first, then by name: the order of the receipt and the order page.
    split: [...shares]
      .sort(
        (a, b) =>
          Number(b.userId === row.payeeId) - Number(a.userId === row.payeeId) ||
          a.name.localeCompare(b.name),
      )
      .map((s) => ({
        userId: s.userId,
        name: s.name,
        subtotal: fromCents(s.subtotalCents),
        fees: fromCents(s.feesCents),
        tax: fromCents(s.taxCents),
        total: fromCents(s.totalCents),
        status: s.status,
        paidAt: iso(s.paidAt),
        confirmedAt: iso(s.confirmedAt),
        settledAs: s.settledAs,
        accountDeleted: s.accountDeleted ?? false,
        mail: s.mail,
      })),
    subtotal: fromCents(row.subtotalCents),
    fees: fromCents(row.feesCents),
    tax: fromCents(row.taxCents),
    total: fromCents(row.totalCents),
  };
}

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
  const { db, clock, events, media } = deps;

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

  /** Tells the order's people (payee and sharers) that its settlement changed. */
  function announce(row: OrderRow, shares: ShareRow[], type: "order.placed" | "order.updated") {
    const people = new Set(shares.map((s) => s.userId));
    if (row.payeeId) people.add(row.payeeId);
    events.publish({
      event: { type, sessionId: row.sessionId, orderId: row.id },
      // The session's members hear of the checkout (their cart page turns into the order).
      ...(type === "order.placed" ? { members: row.sessionId } : {}),
      users: [...people],
    });
  }

  /**
   * The one transaction of DESIGN section 9: lock the cart (as every cart change does first, so
   * a change either committed before this snapshot or waits and then finds the cart locked), lock
   * the session (its policy cannot change under us), snapshot, split, write, end.
   */
  async function checkout(sessionId: string, user: User): Promise<Order> {
    const now = clock.now();
    const placed = await db.transaction(async (tx) => {
      const [cart] = await executeRows<{ id: string }>(
        tx,
        sql`select id from carts where session_id = ${sessionId} for update`,
      );
      const [session] = await executeRows<{ status: string; role: SessionRole | null }>(
        tx,
        sql`select s.status, m.role from sessions s
          left join session_members m on m.session_id = s.id and m.user_id = ${user._id}
          where s.id = ${sessionId}
          for update of s`,
      );
      requireAllowed(
        cart && session ? session.role : null,
        "session.checkout",
        "Session not found",
      );
      const [existing] = await tx
        .select({ id: orders.id })
        .from(orders)
        .where(eq(orders.sessionId, sessionId));
      if (existing) {
        throw new AppError(409, ErrorCode.ALREADY_CHECKED_OUT, "This cart is already checked out.");
      }
      if (session!.status !== "active") throw conflict("This session has ended.");
      const [{ view }] = (await executeRows<{ view: CartView }>(
        tx,
        sql`select cart_view(${cart!.id}) as view`,
      )) as [{ view: CartView }];
      if (view.lines.length === 0) {
        throw new AppError(
          409,
          ErrorCode.EMPTY_CART,
          "The cart is empty: add something before checking out.",
        );
      }
      const { summary, shares } = splitOf(view);
      const payee = view.members.find((m) => m.role === "creator")!;
      const lines: OrderLineSnapshot[] = view.lines.map((l) => ({
        productId: l.productId,
        name: l.productName,
        unitPriceCents: l.unitPriceCents,
        quantity: l.quantity,
        addedBy: { _id: l.userId, name: l.userName },
        sharedWith: l.sharedWith,
        lineTotalCents: l.unitPriceCents * l.quantity,
      }));
      const [row] = await tx
        .insert(orders)
        .values({
          sessionId,
          cartId: cart!.id,
          sessionName: view.session.name,
          placedAt: now,
          placedById: user._id,
          placedByName: user.name,
          payeeId: payee.userId,
          payeeName: payee.name,
          lines,
          policy: view.session.splitPolicy,
          subtotalCents: summary.subtotal,
          feesCents: summary.fees,
          taxCents: summary.tax,
          totalCents: summary.total,
        })
        .returning();
      // Those who carry something; the payee's own share is settled by paying the shop.
      const shareRows = await tx
        .insert(orderShares)
        .values(
          shares
            .filter((s) => s.total > 0)
            .map((s) => {
              const isPayee = s.userId === payee.userId;
              return {
                orderId: row!.id,
                userId: s.userId,
                name: s.name,
                subtotalCents: s.subtotal,
                feesCents: s.fees,
                taxCents: s.tax,
                totalCents: s.total,
                status: (isPayee ? "confirmed" : "unpaid") as ShareStatus,
                confirmedAt: isPayee ? now : null,
              };
            }),
        )
        .returning();
      const version = await endInTransaction(tx, sessionId, now);
      await record(tx, {
        sessionId,
        actorId: user._id,
        type: "order.placed",
        details: {
          orderId: row!.id,
          number: orderNumber(row!.number),
          total: fromCents(summary.total),
        },
        at: now,
      });
      return { row: row!, shares: shareRows, version };
    });
    events.publish({
      event: { type: "session.ended", sessionId, version: placed.version },
      members: sessionId,
    });
    announce(placed.row, placed.shares, "order.placed");
    announceActivity(events, sessionId);
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
      if (fresh) announce(row, fresh.shares, "order.updated");
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

  /** Your share becomes "paid"; already paid or confirmed: 200, nothing changes. */
  async function markPaid(orderId: string, userId: string): Promise<Order> {
    const { row: placed } = await access(orderId, userId, "order.pay");
    const changed = await db.transaction(async (tx) => {
      const paid = await tx
        .update(orderShares)
        .set({ status: "paid", paidAt: clock.now() })
        .where(
          and(
            eq(orderShares.orderId, orderId),
            eq(orderShares.userId, userId),
            eq(orderShares.status, "unpaid"),
          ),
        )
        .returning({ total: orderShares.totalCents });
      if (paid.length > 0) {
        await record(tx, {
          sessionId: placed.sessionId,
          actorId: userId,
          type: "order.paid",
          details: {
            orderId,
            number: orderNumber(placed.number),
            amount: fromCents(paid[0]!.total),
          },
          at: clock.now(),
        });
      }
      return paid;
    });
    const { row, shares } = (await load(orderId))!;
    if (changed.length > 0) {
      announce(row, shares, "order.updated");
      announceActivity(events, row.sessionId);
    }
    return build(row, shares);
  }

  /**
   * The payee settles a member's share: "transfer" confirms a payment the member marked as paid;
   * "cash" and "written_off" settle it paid or not (a deleted account's share included). The share
   * records how; settling a settled share changes nothing.
   */
  async function confirm(
    orderId: string,
    payeeId: string,
    memberId: string,
    how: SettlementKind = "transfer",
  ): Promise<Order> {
    const { row: placedRow, shares } = await access(orderId, payeeId, "order.confirm");
    const share = shares.find((s) => s.userId === memberId);
    if (!share) throw notFound("Share not found");
    if (how === "transfer" && share.status === "unpaid") {
      throw conflict(
        `${share.name} has not marked their share as paid yet: record it as paid in cash or write it off instead.`,
      );
    }
    const settleable: ShareStatus[] = how === "transfer" ? ["paid"] : ["unpaid", "paid"];
    const now = clock.now();
    const changed = await db.transaction(async (tx) => {
      const confirmed = await tx
        .update(orderShares)
        .set({ status: "confirmed", confirmedAt: now, settledAs: how })
        .where(
          and(
            eq(orderShares.orderId, orderId),
            eq(orderShares.userId, memberId),
            inArray(orderShares.status, settleable),
          ),
        )
        .returning({ total: orderShares.totalCents });
      if (confirmed.length > 0) {
        await record(tx, {
          sessionId: placedRow.sessionId,
          actorId: payeeId,
          type: "order.confirmed",
          details: {
            orderId,
            number: orderNumber(placedRow.number),
            member: share.name,
            memberId,
            amount: fromCents(confirmed[0]!.total),
            how,
          },
          at: now,
        });
      }
      return confirmed;
    });
    const fresh = (await load(orderId))!;
    if (changed.length > 0) {
      announce(fresh.row, fresh.shares, "order.updated");
      announceActivity(events, fresh.row.sessionId);
    }
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
   * Your net with each person over every share not yet confirmed (DESIGN section 9): what others
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
