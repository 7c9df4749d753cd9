import type { RequestOf } from "@cartner/contract";
import { call } from "../lib/call.ts";

/** The line to change; the creator may name anyone's (lineId), others only their own. */
export type QuantityChangeBody = RequestOf<"PATCH /api/carts/:cartId/quantity">["body"];

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
  add: (cartId: string, body: RequestOf<"POST /api/carts/:cartId/product">["body"]) =>
    call("POST /api/carts/:cartId/product", { params: { cartId }, body }),
  changeQuantity: (cartId: string, body: QuantityChangeBody) =>
    call("PATCH /api/carts/:cartId/quantity", { params: { cartId }, body }),
  removeLine: (cartId: string, productId: string, lineId?: string) =>
    call("DELETE /api/carts/:cartId/product/:productId", {
      params: { cartId, productId },
      query: lineId ? { lineId } : {},
    }),
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

/** Mutation keys, so a refetch can wait while line changes are still on their way. */
export const cartMutationKeys = {
  lines: ["cart-lines"] as const,
  add: ["cart-add"] as const,
};
