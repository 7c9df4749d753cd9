/**
 * The cart as drawn while the user's own writes are unconfirmed (queued offline or on their way):
 * each pending add, free line, step, removal, restore and edit applied to the server's cart.
 */
import { fromCents, toCents, type Cart, type CartLine } from "@cartner/contract";
import type { CartWrite } from "../../api/cart-writes.ts";
import { PENDING_LINE_PREFIX, withoutLine, withQuantityChange, withTotals } from "./cart-model.ts";

/** A cart write not yet confirmed; `waiting` while it is queued for a connection. */
export interface PendingWrite {
  write: CartWrite;
  waiting: boolean;
}

/** How a line with unconfirmed changes is marked: on its way, or waiting for a connection. */
export type LineState = "sending" | "waiting";

function withAdded(
  cart: Cart,
  write: Extract<CartWrite, { op: "add" }>,
  me: { _id: string; name: string },
): { cart: Cart; lineId: string } {
  const own = cart.products.find(
    (l) => l.productId._id === write.product._id && l.addedBy._id === me._id,
  );
  if (own) return { cart: withQuantityChange(cart, own._id, 1), lineId: own._id };
  const lineId = `${PENDING_LINE_PREFIX}${write.key}`;
  const line: CartLine = {
    _id: lineId,
    productId: write.product,
    quantity: 1,
    addedBy: me,
    addedAt: new Date().toISOString(),
    lineTotal: write.product.price,
    sharedWith: [],
    staple: false,
    // As the server will have it: at the price of the product as shown, not yet flagged.
    unitPrice: write.product.price,
    addedPrice: write.product.price,
    seenPrice: write.product.price,
    priceChanged: false,
    available: true,
    stockShort: 0,
    free: false,
    estimated: false,
    note: null,
    substitute: "any",
    pending: null,
    hiddenFrom: write.hiddenFrom ?? [],
  };
  return { cart: withTotals(cart, [...cart.products, line]), lineId };
}

/** The web app's picture of a line without a product (the server names the same file). */
export const FREE_LINE_IMAGE = "/free-line.svg";

/** A free line queued or on its way, drawn as the server will answer it. */
function withFreeLine(
  cart: Cart,
  write: Extract<CartWrite, { op: "freeLine" }>,
  me: { _id: string; name: string },
): { cart: Cart; lineId: string } {
  const lineId = `${PENDING_LINE_PREFIX}${write.key}`;
  const { name, quantity = 1, estimatedPrice, note } = write.body;
  const price = estimatedPrice ?? 0;
  const line: CartLine = {
    _id: lineId,
    productId: { _id: null, name: name.trim(), price, imageUrl: FREE_LINE_IMAGE },
    quantity,
    addedBy: me,
    addedAt: new Date().toISOString(),
    lineTotal: fromCents(toCents(price) * quantity),
    sharedWith: [],
    staple: false,
    unitPrice: price,
    addedPrice: price,
    seenPrice: price,
    priceChanged: false,
    available: true,
    stockShort: 0,
    free: true,
    estimated: true,
    note: note?.trim() ? note.trim() : null,
    substitute: "any",
    pending: null,
    hiddenFrom: write.body.hiddenFrom ?? [],
  };
  return { cart: withTotals(cart, [...cart.products, line]), lineId };
}

/**
 * A line with a queued edit applied: its note and substitute; a free line's name and estimate
 * (its total with it). A field the edit leaves out stays as it is.
 */
function withEdited(cart: Cart, write: Extract<CartWrite, { op: "edit" }>): Cart {
  const { note, substitute, name, estimatedPrice } = write.body;
  const products = cart.products.map((line) => {
    if (line._id !== write.lineId) return line;
    const next: CartLine = { ...line };
    if (note !== undefined) next.note = note?.trim() ? note.trim() : null;
    if (substitute !== undefined) next.substitute = substitute;
    if (line.free && name !== undefined) {
      next.productId = { ...next.productId, name: name.trim() };
    }
    if (line.free && estimatedPrice !== undefined) {
      const price = estimatedPrice ?? 0;
      next.productId = { ...next.productId, price };
      next.unitPrice = price;
      next.lineTotal = fromCents(toCents(price) * line.quantity);
    }
    return next;
  });
  return withTotals(cart, products);
}

/** The cart with a removed line back in its place (the server orders lines by when added). */
function withRestored(cart: Cart, line: CartLine): Cart {
  const at = cart.products.findIndex((other) => other.addedAt > line.addedAt);
  const products = [...cart.products];
  products.splice(at === -1 ? products.length : at, 0, line);
  return withTotals(cart, products);
}

/**
 * The cart as the user will see it once their unconfirmed changes land: the server's cart with
 * each pending add, free line, step, removal, restore and edit applied in order, and which lines
 * they touch. Changes to a line that is gone meanwhile are skipped here (the server will refuse
 * them, and say so). `unsent` counts the changes that move the figures (an edit of a note does not).
 */
export function withPendingWrites(
  cart: Cart,
  pending: readonly PendingWrite[],
  me: { _id: string; name: string } | null,
): { cart: Cart; lines: ReadonlyMap<string, LineState>; unsent: number } {
  const lines = new Map<string, LineState>();
  let view = cart;
  let unsent = 0;
  for (const { write, waiting } of pending) {
    if (write.cartId !== cart._id) continue;
    const state: LineState = waiting ? "waiting" : "sending";
    if (write.op === "add") {
      if (!me) continue;
      const added = withAdded(view, write, me);
      view = added.cart;
      lines.set(added.lineId, state);
      unsent += 1;
    } else if (write.op === "freeLine") {
      if (!me) continue;
      const added = withFreeLine(view, write, me);
      view = added.cart;
      lines.set(added.lineId, state);
      unsent += 1;
    } else if (write.op === "restore") {
      if (view.products.some((line) => line._id === write.lineId)) continue;
      view = withRestored(view, write.line);
      lines.set(write.lineId, state);
      unsent += 1;
    } else if (view.products.some((line) => line._id === write.lineId)) {
      if (write.op === "remove") {
        view = withoutLine(view, write.lineId);
        lines.delete(write.lineId);
      } else if (write.op === "edit") {
        view = withEdited(view, write);
        lines.set(write.lineId, state);
        // A note moves no figure; a free line's new estimate does.
        if (write.body.estimatedPrice === undefined) continue;
      } else {
        view = withQuantityChange(view, write.lineId, write.change);
        lines.set(write.lineId, state);
      }
      unsent += 1;
    }
  }
  return { cart: view, lines, unsent };
}
