/**
 * Adjustments and disputes: the payee records what the shop really delivered and charged, and
 * the order re-splits (contract's adjust.ts) by what checkout froze: its lines, its paying
 * members and their roles, its policy. Each is a session write of the order's session (write.ts):
 * under the session's lock, so two adjustments never re-split from the same old figures; an
 * activity entry; `order.updated` to the order's people. A re-split the order cannot take (a
 * refund over the line's price, a negative share) is a 400 naming the field; nothing is stored.
 */
import {
  AdjustmentError,
  fromCents,
  orderNumber,
  resplit,
  toCents,
  type AdjustmentBody,
  type Order,
  type User,
} from "@cartner/contract";
import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { Tx } from "../../../db/client.ts";
import { orderShares, orders, products, type StoredAdjustment } from "../../../db/schema.ts";
import { invalidFields, notFound } from "../../../lib/errors.ts";
import { formatMoney } from "../../../lib/money.ts";
import { writeSession } from "../../sessions/index.ts";
import { forgivenessKept, pairsOfOrder, partMoves, post } from "../../ledger/index.ts";
import { access, type Actor } from "../access.ts";
import { catalogChanged } from "../../catalog/index.ts";
import type { OrderDeps } from "../deps.ts";
import { frozenOf } from "../reading/frozen.ts";
import { hiddenLine } from "../reading/private.ts";
import {
  adjustmentCents,
  loadOrder,
  partsOf,
  payersOf,
  sharesOf,
  viewOf,
} from "../reading/view.ts";
import { peopleOf, type OrderRow, type ShareRow } from "../rows.ts";
import { adjustmentNotice, disputeNotice } from "./notices.ts";
import { later } from "../../notifications/index.ts";

/** The payee records what the shop delivered and charged; the order re-splits. */
export async function adjust(
  deps: OrderDeps,
  orderId: string,
  actor: Actor,
  body: AdjustmentBody,
): Promise<Order> {
  const found = await access(deps, orderId, actor.user._id, "order.adjust");
  const was = viewOf(found);
  await recordAdjustment(deps, found, actor, body);
  // A line not delivered gave its units back: every instance re-reads its product.
  const product = "lineIndex" in body ? found.row.lines[body.lineIndex]?.productId : undefined;
  if (body.kind === "missing" && product) deps.events.publish(catalogChanged([product]));
  const order = viewOf((await loadOrder(deps.db, orderId))!);
  const money = (amount: number) => formatMoney(amount, deps.currency);
  const notice = adjustmentNotice(was, order, actor.user, money);
  if (notice && deps.notices) later(deps.notices, notice);
  return order;
}

/** A member with a share disputes an adjustment with a comment; the payee hears it. */
export async function dispute(
  deps: OrderDeps,
  orderId: string,
  user: User,
  adjustmentId: string,
  comment: string,
): Promise<Order> {
  const order = await access(deps, orderId, user._id, "order.dispute");
  await disputeAdjustment(deps, order, user, adjustmentId, comment);
  const built = viewOf((await loadOrder(deps.db, orderId))!);
  if (deps.notices) later(deps.notices, disputeNotice(built, user, comment));
  return built;
}

/** The body as stored (cents), with who recorded it and when. */
function stored(body: AdjustmentBody, by: Pick<User, "_id" | "name">, now: Date): StoredAdjustment {
  const cents = (n: number | undefined) => (n === undefined ? undefined : toCents(n));
  const a: StoredAdjustment = {
    id: randomUUID(),
    at: now.toISOString(),
    by: { _id: by._id, name: by.name },
    kind: body.kind,
    disputes: [],
  };
  if ("lineIndex" in body) a.lineIndex = body.lineIndex;
  if ("quantity" in body && body.quantity !== undefined) a.quantity = body.quantity;
  if ("unitPrice" in body) a.unitPriceCents = cents(body.unitPrice)!;
  if ("amount" in body) a.amountCents = cents(body.amount)!;
  if ("name" in body && body.name !== undefined) a.name = body.name;
  if (body.note) a.note = body.note;
  return a;
}

/** The order row and its shares, read under the session's lock. */
async function lockedOrder(tx: Tx, orderId: string) {
  const [row] = await tx.select().from(orders).where(eq(orders.id, orderId)).for("update");
  const shares = await tx.select().from(orderShares).where(eq(orderShares.orderId, orderId));
  return { row: row!, shares };
}

const orderUpdated = (row: OrderRow, shares: ShareRow[]) => () => [
  {
    event: { type: "order.updated" as const, sessionId: row.sessionId, orderId: row.id },
    users: peopleOf(row, shares),
  },
];

/**
 * Records one adjustment and re-splits: the order's totals and every share become the adjusted
 * ones, and the book's parts move to the new split's ("adjustment" entries of each pair's
 * difference), so what was already paid stays paid: a member who paid more than their new part
 * has a credit with that payer, one who paid less owes the rest. What a change takes off the total
 * goes back to the payers in proportion to what each paid the shop (partsOf). Members who had no
 * share and now carry one (an order fee on the creator) get one.
 */
async function recordAdjustment(
  deps: Pick<OrderDeps, "db" | "clock" | "events">,
  order: { row: OrderRow; shares: ShareRow[] },
  actor: Actor,
  body: AdjustmentBody,
): Promise<void> {
  const { row: before } = order;
  const { user } = actor;
  await writeSession(deps.db, deps, {
    sessionId: before.sessionId,
    userId: user._id,
    // adjust() checked the caller is the payee.
    action: null,
    active: false,
    change: async ({ tx, now }) => {
      const { row, shares } = await lockedOrder(tx, before.id);
      const adjustment = stored(body, user, now);
      const adjustments = [...row.adjustments, adjustment];
      let result: ReturnType<typeof resplit>;
      try {
        result = resplit(frozenOf(row, shares), adjustments.map(adjustmentCents), row.cartId);
      } catch (error) {
        if (error instanceof AdjustmentError) throw invalidFields({ [error.field]: error.message });
        throw error;
      }
      const { summary } = result;
      const [updated] = await tx
        .update(orders)
        .set({
          adjustments,
          subtotalCents: summary.subtotal,
          feesCents: summary.fees,
          taxCents: summary.tax,
          totalCents: summary.total,
          originalTotalCents: row.originalTotalCents ?? row.totalCents,
        })
        .where(eq(orders.id, row.id))
        .returning();
      for (const s of shares) {
        const next = result.shares.find((x) => x.userId === s.userId) ?? {
          subtotal: 0,
          fees: 0,
          tax: 0,
          total: 0,
        };
        // A cent of fees may move to tax (or back) with the total and subtotal unchanged.
        const same =
          next.total === s.totalCents &&
          next.subtotal === s.subtotalCents &&
          next.fees === s.feesCents &&
          next.tax === s.taxCents;
        if (same) continue;
        await tx
          .update(orderShares)
          .set({
            subtotalCents: next.subtotal,
            feesCents: next.fees,
            taxCents: next.tax,
            totalCents: next.total,
            originalTotalCents: s.originalTotalCents ?? s.totalCents,
          })
          .where(and(eq(orderShares.orderId, row.id), eq(orderShares.userId, s.userId)));
      }
      const added = result.shares.filter(
        (x) => x.total > 0 && !shares.some((s) => s.userId === x.userId),
      );
      if (added.length > 0) {
        await tx.insert(orderShares).values(
          added.map((x) => ({
            orderId: row.id,
            userId: x.userId,
            name: x.name,
            subtotalCents: x.subtotal,
            feesCents: x.fees,
            taxCents: x.tax,
            totalCents: x.total,
            originalTotalCents: 0,
            // Nobody mails a share an adjustment made: the order page and notices tell them.
            mail: "sent" as const,
          })),
        );
      }
      const line = adjustment.lineIndex === undefined ? undefined : row.lines[adjustment.lineIndex];
      if (line && adjustment.kind === "missing") await putBack(tx, row, adjustment, line);
      // A private line's name stays out of the book's note (everyone it is owed between reads it)
      // and its entry is hidden from the same members as the line.
      const hidden = privately(line);
      const pairs = await pairsOfOrder(tx, row.id);
      const resplitParts = partMoves(
        row.id,
        pairs,
        partsOf(updated!, await sharesOf(tx, [row.id]), await payersOf(tx, [row.id])),
        "adjustment",
        line && !hidden
          ? `${ADJUSTMENT_LABEL[adjustment.kind]}: ${line.name}`
          : ADJUSTMENT_LABEL[adjustment.kind],
      );
      const moves = [...resplitParts, ...forgivenessKept(row.id, pairs, resplitParts)];
      const details = {
        orderId: row.id,
        number: orderNumber(row.number),
        adjustmentId: adjustment.id,
        kind: adjustment.kind,
        ...(line ? { line: line.name } : {}),
        from: fromCents(row.totalCents),
        to: fromCents(summary.total),
      };
      return {
        result: undefined,
        activity: { type: "order.adjusted", details, ...hidden },
        version: "unchanged",
        afterActivity: async ([seq]) => {
          const by = { id: user._id, name: user.name };
          await post(tx, { at: now, by, key: actor.key }, moves, seq ?? null);
        },
      };
    },
    events: orderUpdated(before, order.shares),
  });
}

/**
 * A line the shop did not deliver gives its units back to the product's stock (checkout took
 * them), once: a line already marked missing gave them back before.
 */
async function putBack(
  tx: Tx,
  row: OrderRow,
  adjustment: StoredAdjustment,
  line: OrderRow["lines"][number],
): Promise<void> {
  const before = row.adjustments.some(
    (a) => a.kind === "missing" && a.lineIndex === adjustment.lineIndex,
  );
  if (before || !line.productId) return;
  await tx
    .update(products)
    .set({ stock: sql`${products.stock} + ${line.quantity}`, updatedAt: sql`now()` })
    .where(eq(products.id, line.productId));
}

/**
 * An entry about a private line of the order: hidden from the line's members, and revealed with it
 * (its cart line's id). Nothing for any other line.
 */
function privately(line: OrderRow["lines"][number] | undefined) {
  return line?.hiddenFrom?.length
    ? { hiddenFrom: line.hiddenFrom, ...(line.lineId ? { lineId: line.lineId } : {}) }
    : undefined;
}

/** An adjustment's kind as the book's notes say it. */
const ADJUSTMENT_LABEL: Record<StoredAdjustment["kind"], string> = {
  missing: "Not delivered",
  substituted: "Substituted",
  quantity: "Quantity changed",
  price: "Price changed",
  refund: "Refunded",
  order_fee: "Order fee or discount",
};

/** A member with a share disputes an adjustment: their comment joins it, for the payee to see. */
async function disputeAdjustment(
  deps: Pick<OrderDeps, "db" | "clock" | "events">,
  order: { row: OrderRow; shares: ShareRow[] },
  user: User,
  adjustmentId: string,
  comment: string,
): Promise<void> {
  const { row: before } = order;
  const known = before.adjustments.find((a) => a.id === adjustmentId);
  // One about a line hidden from the caller does not exist for them.
  if (!known || hiddenLine(before.lines, known.lineIndex, user._id)) {
    throw notFound("Adjustment not found");
  }
  await writeSession(deps.db, deps, {
    sessionId: before.sessionId,
    userId: user._id,
    // dispute() checked the caller has a share.
    action: null,
    active: false,
    change: async ({ tx, now }) => {
      const { row } = await lockedOrder(tx, before.id);
      const target = row.adjustments.find((a) => a.id === adjustmentId)!;
      const dispute = { by: { _id: user._id, name: user.name }, at: now.toISOString(), comment };
      const adjustments = row.adjustments.map((a) =>
        a.id === adjustmentId ? { ...a, disputes: [...a.disputes, dispute] } : a,
      );
      await tx.update(orders).set({ adjustments }).where(eq(orders.id, row.id));
      const details = {
        orderId: row.id,
        number: orderNumber(row.number),
        adjustmentId,
        kind: target.kind,
        comment,
      };
      return {
        result: undefined,
        activity: {
          type: "order.disputed",
          details,
          ...privately(target.lineIndex === undefined ? undefined : row.lines[target.lineIndex]),
        },
        version: "unchanged",
      };
    },
    events: orderUpdated(before, order.shares),
  });
}
