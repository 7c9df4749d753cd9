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
  type SetPayersBody,
  type User,
} from "@cartner/contract";
import { eq, sql } from "drizzle-orm";
import { executeRows } from "../../../db/client.ts";
import {
  orderShares,
  orders,
  type OrderLineSnapshot,
  type OrderMemberSnapshot,
} from "../../../db/schema.ts";
import { AppError, conflict } from "../../../lib/errors.ts";
import { splitOf, type CartView } from "../../carts/index.ts";
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
): Promise<{ row: OrderRow; shares: ShareRow[]; payers: PayerRow[] }> {
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
      const [{ view }] = (await executeRows<{ view: CartView }>(
        tx,
        sql`select cart_view(${cartId}) as view`,
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
      // Those who carry something.
      await tx.insert(orderShares).values(
        shares
          .filter((s) => s.total > 0)
          .map((s) => ({
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
        result: { row: row!, shares: shareRows, payers: payerRows },
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
