import {
  QUANTITY_MAX,
  RESTORE_WINDOW_SECONDS,
  type Action,
  type Cart,
  type CartWriteBatchResult,
  type CartWriteResult,
  type User,
} from "@cartner/contract";
import { sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import type { Clock } from "../../lib/clock.ts";
import { conflict, notFound } from "../../lib/errors.ts";
import { groupCommit, groupCommitBy } from "../../lib/group-commit.ts";
import type { Media } from "../../lib/media.ts";
import { gateRefusal } from "../../lib/permissions.ts";
import type { NotificationService } from "../notifications/index.ts";
import type { EventBus, Published } from "../live/index.ts";
import { announceActivity } from "../sessions/index.ts";
import { cartOf, type CartView } from "./view.ts";

/** cart_write()'s answer (a batch's row also carries its error): the contract's schemas. */
type WriteResult = CartWriteResult & Partial<Pick<CartWriteBatchResult, "error">>;

type WriteOp = "add" | "step" | "remove" | "restore" | "clear";

/** One cart_write() call's arguments, as cart_write_batch() reads them (db/functions). */
interface WriteCall {
  op: WriteOp;
  cart: string;
  user: string;
  product: string | null;
  line: string | null;
  /** How many an add puts in. */
  quantity: number | null;
  /** A step: +1 or -1. */
  change: 1 | -1 | null;
  /** Restore's window: how long after a removal it can still be undone. */
  restoreSeconds: number | null;
  now: string;
}

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
 * The live events of a committed cart change: cart.updated, and session.updated too while a
 * member's ready mark is set (`marked`), since the change may have moved their share's total and
 * so cleared their mark.
 */
export function cartChanged(
  sessionId: string,
  cartId: string,
  version: number,
  marked: boolean,
): Published[] {
  const types = marked
    ? (["cart.updated", "session.updated"] as const)
    : (["cart.updated"] as const);
  return types.map((type) => ({ event: { type, sessionId, cartId, version }, members: sessionId }));
}

/**
 * The cart's line writes (add, step, remove, restore, clear): each one call of cart_write(),
 * which locks the cart row, applies the permissions table's rules, writes, logs its entry, bumps
 * the session's version and answers the new view, all in one statement (decision 004).
 */
export function createLineWrites(deps: {
  rows: Database["rows"];
  clock: Clock;
  events: Pick<EventBus, "publish">;
  media: Media;
  batching: "all" | "per-cart";
  notices?: Pick<NotificationService, "cartChanged"> | undefined;
}) {
  const { rows, clock, events, media } = deps;

  const writeOne = async (call: WriteCall): Promise<WriteResult> => {
    const [result] = await rows<WriteResult>(sql`
      select * from cart_write(${call.op}::text, ${call.cart}::uuid, ${call.user}::uuid,
        ${call.product}::uuid, ${call.line}::uuid, ${call.quantity}::integer,
        ${call.change}::integer, ${call.restoreSeconds}::integer, ${QUANTITY_MAX}::integer,
        ${call.now}::timestamptz)`);
    return result!;
  };
  const runBatch = async (calls: WriteCall[]) => {
    if (calls.length === 1) return [await writeOne(calls[0]!)];
    const results = await rows<WriteResult>(
      sql`select * from cart_write_batch(${JSON.stringify(calls)}::json, ${QUANTITY_MAX}::integer)`,
    );
    // A cart's view comes once, on the row of its last change in the batch (cart_write_batch.sql); its
    // earlier changes answer with it too.
    const lastView = new Map<string, CartView>();
    for (let i = results.length - 1; i >= 0; i--) {
      const result = results[i]!;
      if (result.verdict !== "ok" && result.verdict !== "unchanged") continue;
      if (result.view) lastView.set(calls[i]!.cart, result.view);
      else result.view = lastView.get(calls[i]!.cart) ?? null;
    }
    return results;
  };
  const callCartWrite =
    deps.batching === "all"
      ? groupCommit(runBatch, undefined, "cart_writes")
      : groupCommitBy((call: WriteCall) => call.cart, runBatch, undefined, "cart_writes");

  /**
   * One cart change as one call of cart_write(): the embedded database runs one statement at a
   * time for the whole process, so a change used to wait behind every other request eight times
   * (docs/decisions/004).
   */
  async function write(
    op: WriteOp,
    cartId: string,
    user: User,
    target: {
      productId?: string;
      lineId?: string | undefined;
      quantity?: number;
      change?: 1 | -1;
      restoreSeconds?: number;
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
      now: clock.now().toISOString(),
    };
    const result = await callCartWrite(call);
    const { verdict, view } = result;
    const gate = {
      role: result.role,
      orderNumber: result.order_number,
      closesAt: result.closes_at,
    };
    switch (verdict) {
      case "ok":
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
      case "stock": {
        const stock = result.product_stock!;
        const already = result.already_in_cart!;
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
    if (verdict === "ok") {
      const { session, members } = view!;
      const marked = members.some((m) => m.ready);
      for (const p of cartChanged(session.id, cartId, session.version, marked)) events.publish(p);
      announceActivity(events, session.id);
      deps.notices?.cartChanged(view!, user._id);
    }
    return cartOf(view!, user._id, media, new Date(call.now));
  }

  function add(cartId: string, user: User, productId: string, quantity: number) {
    return write("add", cartId, user, { productId, quantity });
  }

  function changeQuantity(
    cartId: string,
    user: User,
    productId: string,
    change: 1 | -1,
    lineId?: string,
  ) {
    return write("step", cartId, user, { productId, lineId, change });
  }

  function removeLine(cartId: string, user: User, productId: string, lineId?: string) {
    return write("remove", cartId, user, { productId, lineId });
  }

  /**
   * Undo of a removal: the line comes back as it was (its id, adder, quantity, sharers), so who
   * pays for it is unchanged; only for the member who removed it, within RESTORE_WINDOW_SECONDS.
   */
  function restoreLine(cartId: string, user: User, lineId: string) {
    return write("restore", cartId, user, { lineId, restoreSeconds: RESTORE_WINDOW_SECONDS });
  }

  /** Empties the cart: the creator's (cart.clear), one cart_write() call like the others. */
  function clear(cartId: string, user: User) {
    return write("clear", cartId, user);
  }

  return { add, changeQuantity, removeLine, restoreLine, clear };
}
