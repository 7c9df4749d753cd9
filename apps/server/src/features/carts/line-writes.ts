import {
  QUANTITY_MAX,
  RESTORE_WINDOW_SECONDS,
  type Action,
  type Cart,
  type User,
} from "@cartner/contract";
import { sql } from "drizzle-orm";
import { conflict, notFound } from "../../lib/errors.ts";
import type { Media } from "../../lib/media.ts";
import { shareAnswer } from "../../lib/shared-answer.ts";
import { gateRefusal } from "../../lib/permissions.ts";
import { announceActivity } from "../sessions/index.ts";
import type { CartDeps } from "./deps.ts";
import { audienceOf, cartChanged } from "./events.ts";
import { cartOf, type CartView } from "./view.ts";
import type { WriteCall, WriteOp } from "./write-queue.ts";
import { tellCartChange } from "../notifications/index.ts";
import { tellPending } from "./approval-events.ts";
import { HIDING_REFUSALS, hidingRefused, uniqueIds } from "./hiding-rules.ts";

/** What a line write needs of the cart deps. */
type LineWriteDeps = Pick<CartDeps, "clock" | "events" | "media" | "writes" | "notices" | "rows">;

/** The permissions table's action behind each cart_write() operation. */
const ACTION_OF: Record<WriteOp, Action> = {
  add: "cart.add",
  step: "cart.changeOwnLine",
  remove: "cart.changeOwnLine",
  restore: "cart.changeOwnLine",
  clear: "cart.clear",
};

/** A line whose adder left the session: it can be removed, never changed or brought back. */
export const ADDER_LEFT_MESSAGE =
  "Whoever added this item is no longer in the session: remove it or add the product again.";

/**
 * More of a product joins the caller's line of it, which keeps whom it is hidden from: a private
 * add joins it only when that line is hidden from every member asked (cart_write_core()).
 */
export const HIDDEN_APART_MESSAGE =
  "You already have this item on a line that is not hidden from all of them: change whom that line is hidden from first, or add to it as it is.";

/**
 * The cart's line writes (add, step, remove, restore, clear): each one call of cart_write(),
 * which locks the cart row, applies the permissions table's rules, writes, logs its entry, bumps
 * the session's version and answers the new view, all in one statement (decision 004).
 * One cart change as one call of cart_write(): the embedded database runs one statement at a
 * time for the whole process, so a change used to wait behind every other request eight times
 * (docs/decisions/004).
 */
async function write(
  deps: LineWriteDeps,
  op: WriteOp,
  cartId: string,
  user: User,
  target: {
    productId?: string;
    lineId?: string | undefined;
    quantity?: number;
    change?: 1 | -1;
    restoreSeconds?: number;
    hiddenFrom?: string[] | undefined;
  } = {},
): Promise<Cart> {
  const call: WriteCall = {
    op,
    cart: cartId,
    user: user._id,
    product: target.productId ?? null,
    line: target.lineId ?? null,
    quantity: target.quantity ?? null,
    change: target.change ?? null,
    restoreSeconds: target.restoreSeconds ?? null,
    hiddenFrom: target.hiddenFrom?.length ? uniqueIds(target.hiddenFrom, "hiddenFrom") : null,
    now: deps.clock.now().toISOString(),
  };
  const result = await deps.writes.write(call);
  const { verdict, view } = result;
  const gate = {
    role: result.role,
    orderNumber: result.order_number,
    closesAt: result.closes_at,
  };
  switch (verdict) {
    case "ok":
    case "pending":
    case "unchanged":
      break;
    // The gate's refusals (session_gate(), from the permissions table), worded in one place.
    case "not_member":
    case "role":
    case "ended":
    case "checked_out":
    case "locked":
      throw gateRefusal({ ...gate, verdict }, ACTION_OF[op], { notFound: "Cart not found" })!;
    case "not_own":
      throw gateRefusal({ ...gate, verdict: "role" }, "cart.changeAnyLine", {
        notFound: "Cart not found",
      })!;
    case "no_product":
      throw notFound("Product not found.");
    case "no_line":
      throw notFound("That item is not in the cart.");
    case "line_full":
      throw conflict(`A line holds at most ${QUANTITY_MAX} of a product.`);
    case "no_removal":
      throw conflict("That removal can no longer be undone.");
    case "line_exists":
      throw conflict("That item is in the cart again on its own line; change that line instead.");
    case "adder_left":
      throw conflict(ADDER_LEFT_MESSAGE);
    // An add private from the start: the hidden-from rules, checked under the cart's lock.
    case "hide_self":
      throw hidingRefused(HIDING_REFUSALS.self, "hiddenFrom");
    case "hide_creator":
      throw hidingRefused(HIDING_REFUSALS.creator, "hiddenFrom");
    case "hide_stranger":
      throw hidingRefused(HIDING_REFUSALS.stranger, "hiddenFrom");
    case "hidden_apart":
      throw conflict(HIDDEN_APART_MESSAGE);
    case "stock": {
      const stock = result.product_stock!;
      // Units on lines hidden from the caller are not theirs to count (private lines).
      const already = result.already_in_cart! - (await unitsHiddenFrom(deps, call));
      throw conflict(
        stock === 0
          ? "This product is out of stock."
          : `Only ${stock} in stock${already ? `, and ${already} already in this cart` : ""}.`,
      );
    }
    case "error":
      throw new Error(`cart_write() failed in a batch: ${result.error}`);
    default:
      throw new Error(`cart_write answered an unknown verdict: ${verdict satisfies never}`);
  }
  if (verdict === "ok" || verdict === "pending") {
    const { session, members } = view!;
    const marked = members.some((m) => m.ready);
    // The members the write's own statement read: delivering its events reads them no more.
    const to = audienceOf(session.id, members);
    for (const p of cartChanged(session.id, cartId, session.version, marked, to)) {
      deps.events.publish(p);
    }
    announceActivity(deps.events, session.id, to);
    if (deps.notices) tellCartChange(deps.notices, view!, user._id);
    // The line now waits for approval: its adder's (the caller's) line of that product.
    const waiting = view!.lines.find((l) =>
      call.line ? l.id === call.line : l.productId === call.product && l.userId === user._id,
    );
    if (verdict === "pending" && waiting) tellPending(deps, view!, user, waiting);
  }
  return answerOf(view!, user._id, deps.media, new Date(call.now));
}

/**
 * The changes of one batch to a cart share its view (write-queue.ts), and a batch often holds
 * several changes of one member: each reader's answer is built once per view. The first change's
 * time stands for the others': all of them landed, so the cart was open for each.
 */
const answered = new WeakMap<CartView, Map<string, Cart>>();

function answerOf(view: CartView, readerId: string, media: Media, now: Date): Cart {
  let byReader = answered.get(view);
  if (!byReader) answered.set(view, (byReader = new Map()));
  let cart = byReader.get(readerId);
  if (!cart) byReader.set(readerId, (cart = shareAnswer(cartOf(view, readerId, media, now))));
  return cart;
}

/**
 * The units of the write's product on lines of the cart hidden from its caller: what a stock
 * refusal leaves out of "already in this cart". Read only on that refusal.
 */
async function unitsHiddenFrom(deps: Pick<CartDeps, "rows">, call: WriteCall): Promise<number> {
  const [row] = await deps.rows<{ units: number }>(sql`
    select coalesce(sum(l.quantity), 0)::int as units from cart_lines l
    where l.cart_id = ${call.cart} and ${call.user}::uuid = any(l.hidden_from)
      and l.product_id = coalesce(${call.product}::uuid,
        (select r.product_id from removed_lines r where r.line_id = ${call.line}::uuid))`);
  return row?.units ?? 0;
}

/** `hiddenFrom`: private from the start, hidden from those members in the same call (decision 049). */
export function addToCart(
  deps: LineWriteDeps,
  cartId: string,
  user: User,
  productId: string,
  quantity: number,
  hiddenFrom?: string[],
): Promise<Cart> {
  return write(deps, "add", cartId, user, { productId, quantity, hiddenFrom });
}

export function changeQuantity(
  deps: LineWriteDeps,
  cartId: string,
  user: User,
  productId: string,
  change: 1 | -1,
  lineId?: string,
): Promise<Cart> {
  return write(deps, "step", cartId, user, { productId, lineId, change });
}

export function removeLine(
  deps: LineWriteDeps,
  cartId: string,
  user: User,
  productId: string,
  lineId?: string,
): Promise<Cart> {
  return write(deps, "remove", cartId, user, { productId, lineId });
}

/**
 * Undo of a removal: the line comes back as it was (its id, adder, quantity, sharers), so who
 * pays for it is unchanged; only for the member who removed it, within RESTORE_WINDOW_SECONDS.
 */
export function restoreLine(
  deps: LineWriteDeps,
  cartId: string,
  user: User,
  lineId: string,
): Promise<Cart> {
  return write(deps, "restore", cartId, user, { lineId, restoreSeconds: RESTORE_WINDOW_SECONDS });
}

/** Empties the cart: the creator's (cart.clear), one cart_write() call like the others. */
export function clearCart(deps: LineWriteDeps, cartId: string, user: User): Promise<Cart> {
  return write(deps, "clear", cartId, user);
}
