import type { RequestOf } from "@cartner/contract";
import { call } from "../lib/call.ts";

/** The line to change; the creator may name anyone's (lineId), others only their own. */
export type QuantityChangeBody = RequestOf<"PATCH /api/carts/:cartId/quantity">["body"];

/** The cart write's own Idempotency-Key, sent by lib/api.ts (a queued change keeps it). */
const once = (key: string | undefined) => ({ idempotencyKey: key });

/** The Carts calls of the endpoint table (plus the session-scoped cart and summary reads). */
export const cartsApi = {
  list: (signal?: AbortSignal) => call("GET /api/carts", {}, { signal }),
  history: (signal?: AbortSignal) => call("GET /api/carts/history", {}, { signal }),
  get: (cartId: string, signal?: AbortSignal) =>
    call("GET /api/carts/:cartId", { params: { cartId } }, { signal }),
  ofSession: (sessionId: string, signal?: AbortSignal) =>
    call("GET /api/sessions/:id/cart", { params: { id: sessionId } }, { signal }),
  summary: (sessionId: string, signal?: AbortSignal) =>
    call("GET /api/sessions/:id/summary", { params: { id: sessionId } }, { signal }),
  add: (cartId: string, body: RequestOf<"POST /api/carts/:cartId/product">["body"], key?: string) =>
    call("POST /api/carts/:cartId/product", { params: { cartId }, body }, once(key)),
  changeQuantity: (cartId: string, body: QuantityChangeBody, key?: string) =>
    call("PATCH /api/carts/:cartId/quantity", { params: { cartId }, body }, once(key)),
  removeLine: (cartId: string, productId: string, lineId?: string, key?: string) =>
    call(
      "DELETE /api/carts/:cartId/product/:productId",
      { params: { cartId, productId }, query: lineId ? { lineId } : {} },
      once(key),
    ),
  restoreLine: (cartId: string, lineId: string, key?: string) =>
    call(
      "POST /api/carts/:cartId/lines/:lineId/restore",
      { params: { cartId, lineId } },
      once(key),
    ),
  shareLine: (cartId: string, lineId: string, userIds: string[]) =>
    call("PUT /api/carts/:cartId/lines/:lineId/shared-with", {
      params: { cartId, lineId },
      body: { userIds },
    }),
  clear: (cartId: string) => call("DELETE /api/carts/:cartId/clear", { params: { cartId } }),
  remove: (cartId: string) => call("DELETE /api/carts/:cartId", { params: { cartId } }),
};

/** Query keys. Everything cart-related lives under ["carts"], so one invalidation covers it. */
export const cartKeys = {
  all: ["carts"] as const,
  list: () => ["carts", "list"] as const,
  history: () => ["carts", "history"] as const,
  lookup: (by: "session" | "cart", id: string) => ["carts", "lookup", by, id] as const,
  summary: (sessionId: string) => ["carts", "summary", sessionId] as const,
};

/**
 * Mutation keys. Adds, quantity steps and removals are all "cart writes" (shared/cart-writes.ts):
 * one queue, replayed in order after a reload or reconnect; a refetch waits while any is on its way.
 */
export const cartMutationKeys = {
  writes: ["cart-write"] as const,
};
