import type { Cart, SessionSummary } from "@cartner/contract";
import { ApiError, api } from "../../lib/api.ts";

export interface CartResponse {
  cart: Cart;
}

export interface MessageAndCart {
  message: string;
  cart: Cart;
}

export interface QuantityChangeBody {
  productId: string;
  change: 1 | -1;
  /** The line to change; the creator may name anyone's, others only their own. */
  lineId?: string;
}

const enc = encodeURIComponent;

/** The Carts calls of API.md (plus the session-scoped cart and summary reads). */
export const cartsApi = {
  list: (signal?: AbortSignal) => api.get<{ carts: Cart[] }>("/api/carts", { signal }),
  history: (signal?: AbortSignal) => api.get<{ carts: Cart[] }>("/api/carts/history", { signal }),
  get: (cartId: string, signal?: AbortSignal) =>
    api.get<CartResponse>(`/api/carts/${enc(cartId)}`, { signal }),
  ofSession: (sessionId: string, signal?: AbortSignal) =>
    api.get<CartResponse>(`/api/sessions/${enc(sessionId)}/cart`, { signal }),
  summary: (sessionId: string, signal?: AbortSignal) =>
    api.get<SessionSummary>(`/api/sessions/${enc(sessionId)}/summary`, { signal }),
  add: (cartId: string, body: { productId: string; quantity?: number }) =>
    api.post<MessageAndCart>(`/api/carts/${enc(cartId)}/product`, body),
  changeQuantity: (cartId: string, body: QuantityChangeBody) =>
    api.patch<CartResponse>(`/api/carts/${enc(cartId)}/quantity`, body),
  removeLine: (cartId: string, productId: string, lineId?: string) =>
    api.delete<CartResponse>(
      `/api/carts/${enc(cartId)}/product/${enc(productId)}${lineId ? `?lineId=${enc(lineId)}` : ""}`,
    ),
  clear: (cartId: string) => api.delete<MessageAndCart>(`/api/carts/${enc(cartId)}/clear`),
  remove: (cartId: string) => api.delete<{ message: string }>(`/api/carts/${enc(cartId)}`),
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

/** A 404, or a malformed id in the path (400 on it): either way there is nothing to show. */
export function isNotFound(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  return (
    error.status === 404 ||
    (error.status === 400 &&
      (error.fields?.id !== undefined ||
        error.fields?.cartId !== undefined ||
        error.fields?.sessionId !== undefined))
  );
}
