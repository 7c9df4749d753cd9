/**
 * Checkout (docs/decisions/009-checkout-one-transaction.md): one session write turns the cart
 * into an immutable order with everyone's share and ends the session. The write's lock comes first
 * (the cart row, as every cart change takes it, then the session row, so the policy cannot change
 * under it): a change either committed before this snapshot or waits and then finds the cart
 * locked.
 */
import {
  carriesShare,
  ErrorCode,
  fromCents,
  orderNumber,
  privateAtCheckout,
  type SetPayersBody,
  type User,
} from "@cartner/contract";
import { eq, sql } from "drizzle-orm";
import { executeRows, type Tx } from "../../../db/client.ts";
import {
  orderShares,
  orders,
  type OrderLineSnapshot,
  type OrderMemberSnapshot,
} from "../../../db/schema.ts";
import { AppError, conflict } from "../../../lib/errors.ts";
import { allotStock, countedLines, splitOf, type CartView } from "../../carts/index.ts";
import { afterCheckout } from "../../series/index.ts";
import {
  endInTransaction,
  toMembers,
  writeSession,
  type WriteContext,
} from "../../sessions/index.ts";
import { partMoves, post } from "../../ledger/index.ts";
import type { OrderDeps } from "../deps.ts";
import { partsOf, sharesOf } from "../reading/view.ts";
import { peopleOf, type OrderRow, type PayerRow, type ShareRow } from "../rows.ts";
import { mailShares } from "./mail-jobs.ts";
import { namedPayers, writePayers } from "./payers.ts";

/** How a checkout is placed: by the creator's hand (the default), or at the deadline. */
export interface CheckoutOptions {
  /**
   * Runs first inside the checkout's transaction, under its locks: may refuse (throw) or record
   * what the checkout settles (the deadline's automatic checkout, done once).
   */
  before?: (ctx: WriteContext) => Promise<void>;
  /** Placed at the deadline, as the creator had chosen: said so in the activity entry. */
  automatic?: boolean;
  /** Who pays the shop, checked as the payee's later change is (payers.ts); absent: the payee. */
  payers?: SetPayersBody["payers"] | undefined;
  /** The request's Idempotency-Key, kept with the order's entries in the book. */
  key?: string | null | undefined;
  /**
   * Lines that want more than the stock has left: refused (409 OUT_OF_STOCK, the default), or
   * checked out with what there is.
   */
  overStock?: "take_what_is_left" | "refuse" | undefined;
  /**
   * Lines waiting for approval: "wait" (the default) refuses the checkout (409
   * PENDING_APPROVALS, naming them); "drop" checks out without them, and they go.
   */
  pending?: "wait" | "drop" | undefined;
}

/** A line checkout left out: its product was made unavailable. */
export interface LeftOut {
  lineId: string;
  name: string;
  quantity: number;
}

/**
 * Snapshot, split, write the order, its shares and its payers, end the session, and send each
 * sharer's mail job in the same transaction; answers the order's rows. Payers that do not fit the
 * order are refused before anything is written (the order's number is not used up).
 */
export async function placeOrder(
  deps: Pick<OrderDeps, "db" | "clock" | "events" | "jobs" | "mails" | "currency">,
  sessionId: string,
  user: User,
  options: CheckoutOptions = {},
): Promise<{ row: OrderRow; shares: ShareRow[]; payers: PayerRow[]; leftOut: LeftOut[] }> {
  const { result } = await writeSession(deps.db, deps, {
    sessionId,
    userId: user._id,
    action: "session.checkout",
    // A checked-out session says so before saying it has ended.
    active: false,
    change: async (ctx) => {
      const { tx, session, cartId, now } = ctx;
      await options.before?.(ctx);
      const [existing] = await tx
        .select({ id: orders.id })
        .from(orders)
        .where(eq(orders.sessionId, sessionId));
      if (existing) {
        throw new AppError(409, ErrorCode.ALREADY_CHECKED_OUT, "This cart is already checked out.");
      }
      if (session.status !== "active") throw conflict("This session has ended.");
      const [{ view: cartView }] = (await executeRows<{ view: CartView }>(
        tx,
        sql`select cart_view(${cartId}) as view`,
      )) as [{ view: CartView }];
      // A member some lines are hidden from does not check out: they would see the presents (in
      // the answer, and in what the refusals below name). The creator, or the lines' adder, does.
      // The creator always may: they become the payee, who sees every line of the order.
      const hiddenFromCaller = cartView.lines.filter((l) => l.hiddenFrom.includes(user._id));
      if (hiddenFromCaller.length > 0 && ctx.role !== "creator") {
        throw conflict(privateAtCheckout(hiddenFromCaller.length));
      }
      await settlePending(tx, cartView, options.pending);
      const leftOut = cartView.lines
        .filter((l) => !l.available)
        .map((l) => ({ lineId: l.id, name: l.productName, quantity: l.quantity }));
      const view = { ...cartView, lines: await takeStock(tx, cartView, options.overStock) };
      if (view.lines.length === 0 && leftOut.length > 0) {
        throw new AppError(
          409,
          ErrorCode.EMPTY_CART,
          "Nothing in the cart is on sale any more: add something before checking out.",
        );
      }
      if (view.lines.length === 0) {
        throw new AppError(
          409,
          ErrorCode.EMPTY_CART,
          "The cart is empty: add something before checking out.",
        );
      }
      const { summary, shares } = splitOf(view);
      const payee = view.members.find((m) => m.role === "creator")!;
      const named = options.payers
        ? namedPayers(
            { totalCents: summary.total, payeeId: payee.userId, payeeName: payee.name },
            shares.filter((s) => s.total > 0),
            options.payers,
            deps.currency,
          )
        : [];
      const lines: OrderLineSnapshot[] = view.lines.map((l) => ({
        productId: l.productId,
        name: l.productName,
        unitPriceCents: l.unitPriceCents,
        quantity: l.quantity,
        addedBy: { _id: l.userId, name: l.userName },
        sharedWith: l.sharedWith,
        lineTotalCents: l.unitPriceCents * l.quantity,
        note: l.note,
        substitute: l.substitute,
        // A private line stays private in the order (never from the payee, who sees them all).
        ...(l.hiddenFrom.some((id) => id !== payee.userId)
          ? { lineId: l.id, hiddenFrom: l.hiddenFrom.filter((id) => id !== payee.userId) }
          : {}),
      }));
      const [row] = await tx
        .insert(orders)
        .values({
          sessionId,
          cartId,
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
          originalTotalCents: summary.total,
          // What an adjustment re-splits among: the paying members as they were now.
          members: view.members
            .filter((m) => carriesShare(m.role))
            .map((m) => ({ userId: m.userId, name: m.name, role: m.role }) as OrderMemberSnapshot),
        })
        .returning();
      // Those who carry something: nobody, when every line is a free line still at 0 (its price
      // comes with the payee's adjustment, which gives its carriers their shares).
      const carrying = shares.filter((s) => s.total > 0);
      if (carrying.length > 0) {
        await tx.insert(orderShares).values(
          carrying.map((s) => ({
            orderId: row!.id,
            userId: s.userId,
            name: s.name,
            subtotalCents: s.subtotal,
            feesCents: s.fees,
            taxCents: s.tax,
            totalCents: s.total,
            originalTotalCents: s.total,
          })),
        );
      }
      // Several payers: each share owes them in proportion, the payee's own included.
      const payerRows = named.length > 0 ? await writePayers(tx, row!, named) : [];
      const shareRows = await sharesOf(tx, [row!.id]);
      // The book: each share's parts owed to the payers (the payee alone, by default).
      const owed = partMoves(row!.id, [], partsOf(row!, shareRows, payerRows), "share");
      await endInTransaction(tx, sessionId, now);
      await mailShares(
        deps,
        tx,
        row!.id,
        shareRows.map((s) => s.userId),
      );
      // A series' next session starts now, by a job that exists exactly when this commits.
      await afterCheckout(deps.jobs, tx, session);
      const details = {
        orderId: row!.id,
        number: orderNumber(row!.number),
        total: fromCents(summary.total),
        ...(options.automatic ? { automatic: true as const } : {}),
        ...(payerRows.length > 0
          ? { payers: payerRows.map((p) => ({ name: p.name, amount: fromCents(p.amountCents) })) }
          : {}),
      };
      return {
        result: { row: row!, shares: shareRows, payers: payerRows, leftOut },
        activity: { type: "order.placed", details },
        afterActivity: async ([seq]) => {
          const by = { id: user._id, name: user.name };
          await post(tx, { at: now, by, key: options.key }, owed, seq ?? null);
        },
      };
    },
    events: (placed, session) => [
      toMembers("session.ended", session),
      // The session's members hear of the checkout (their cart page turns into the order).
      {
        event: { type: "order.placed", sessionId, orderId: placed.row.id },
        members: sessionId,
        users: peopleOf(placed.row, placed.shares),
      },
    ],
  });
  return result;
}

/**
 * Lines waiting for approval, read under the checkout's lock (an approval racing it committed
 * before, and the line counts, or waits for it and finds the session ended): with "wait" they
 * refuse the checkout (409 PENDING_APPROVALS naming them); with "drop" they go (countedLines()
 * leaves them out of the order), so the ended cart holds only what was bought.
 */
async function settlePending(
  tx: Tx,
  view: CartView,
  pending: CheckoutOptions["pending"],
): Promise<void> {
  const waiting = view.lines.filter((l) => l.pendingAt !== null);
  if (waiting.length === 0) return;
  if (pending !== "drop") {
    throw new AppError(
      409,
      ErrorCode.PENDING_APPROVALS,
      `Waiting for approval: ${waiting
        .map((l) => `${l.productName} (${l.quantity}, ${l.userName})`)
        .join(", ")}. Approve or decline them, or check out without them.`,
      {
        details: {
          lines: waiting.map((l) => ({
            lineId: l.id,
            name: l.productName,
            quantity: l.quantity,
            addedBy: { _id: l.userId, name: l.userName },
          })),
        },
      },
    );
  }
  await tx.execute(
    sql`delete from cart_lines where cart_id = ${view.cart.id} and pending_at is not null`,
  );
}

/**
 * The lines the order takes, with their stock taken off in the checkout's transaction: the lines
 * of products still on sale; the products' rows locked in id order (two checkouts wanting the
 * same products lock them in the same order, so neither waits on the other forever), each line
 * allotted what is left oldest line first (allotStock, as the cart shows it). A line that gets
 * less than it wants refuses the whole checkout (409 OUT_OF_STOCK, naming each such line and
 * what is left for it) unless `overStock` takes what is left: then the line has that many, or
 * goes when none is left. The stock never drops below 0 (the products' check constraint too).
 */
async function takeStock(
  tx: Tx,
  view: CartView,
  overStock: CheckoutOptions["overStock"],
): Promise<CartView["lines"]> {
  const counted = countedLines(view);
  // Free lines have no stock to take: they go into the order as they are.
  const lines = counted.flatMap((l) =>
    l.productId === null ? [] : [{ ...l, productId: l.productId }],
  );
  if (lines.length === 0) return counted;
  const ids = [...new Set(lines.map((l) => l.productId))].sort();
  const locked = await executeRows<{ id: string; stock: number }>(
    tx,
    sql`select id, stock from products
        where id in (select json_array_elements_text(${JSON.stringify(ids)}::json)::uuid)
        order by id for update`,
  );
  const stock = new Map(locked.map((p) => [p.id, p.stock]));
  const taken = allotStock(lines, (id) => stock.get(id) ?? 0);
  const short = lines.filter((l) => taken.get(l.id)! < l.quantity);
  if (short.length > 0 && overStock !== "take_what_is_left") {
    throw new AppError(
      409,
      ErrorCode.OUT_OF_STOCK,
      `Not enough in stock: ${short
        .map((l) => `${l.productName} (${taken.get(l.id)} left of ${l.quantity})`)
        .join(", ")}.`,
      {
        details: {
          lines: short.map((l) => ({
            lineId: l.id,
            name: l.productName,
            wanted: l.quantity,
            left: taken.get(l.id)!,
          })),
        },
      },
    );
  }
  const kept = counted
    .map((l) => (l.productId === null ? l : { ...l, quantity: taken.get(l.id)! }))
    .filter((l) => l.quantity > 0);
  const perProduct = new Map<string, number>();
  for (const l of kept) {
    if (l.productId !== null) {
      perProduct.set(l.productId, (perProduct.get(l.productId) ?? 0) + l.quantity);
    }
  }
  if (perProduct.size > 0) {
    const values = sql.join(
      [...perProduct].map(([id, q]) => sql`(${id}::uuid, ${q}::integer)`),
      sql`, `,
    );
    await tx.execute(sql`
      update products p set stock = p.stock - v.q, updated_at = now()
      from (values ${values}) as v(id, q) where p.id = v.id and p.stock >= v.q`);
  }
  return kept;
}
