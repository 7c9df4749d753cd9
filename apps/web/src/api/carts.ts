import {
  infiniteQueryOptions,
  queryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from "@tanstack/react-query";
import type { Cart, RequestOf } from "@cartner/contract";
import { call } from "../lib/call.ts";
import type { Answer, Reactions } from "../lib/mutation-reactions.ts";
import { sessionKeys } from "./sessions-calls.ts";

/** The line to change; the creator may name anyone's (lineId), others only their own. */
export type QuantityChangeBody = RequestOf<"PATCH /api/carts/:cartId/quantity">["body"];

/** The cart write's own Idempotency-Key, sent by lib/api.ts (a queued change keeps it). */
const once = (key: string | undefined) => ({ idempotencyKey: key });

// The Carts calls of the endpoint table (plus the session-scoped cart and summary reads).

export function fetchCarts(signal?: AbortSignal) {
  return call("GET /api/carts", {}, { signal });
}

/** A page of the carts of my ended sessions, newest first. */
export function fetchCartHistory(cursor?: string, signal?: AbortSignal) {
  return call("GET /api/carts/history", { query: cursor ? { cursor } : {} }, { signal });
}

export function fetchCart(cartId: string, signal?: AbortSignal) {
  return call("GET /api/carts/:cartId", { params: { cartId } }, { signal });
}

export function fetchSessionCart(sessionId: string, signal?: AbortSignal) {
  return call("GET /api/sessions/:id/cart", { params: { id: sessionId } }, { signal });
}

export function fetchSessionSummary(sessionId: string, signal?: AbortSignal) {
  return call("GET /api/sessions/:id/summary", { params: { id: sessionId } }, { signal });
}

/** What the cart's group bought before (its series, the reader's orders with these members). */
export function fetchBuyAgain(cartId: string, limit: number, signal?: AbortSignal) {
  return call(
    "GET /api/carts/:cartId/buy-again",
    { params: { cartId }, query: { limit } },
    { signal },
  );
}

export function addToCart(
  cartId: string,
  body: RequestOf<"POST /api/carts/:cartId/product">["body"],
  key?: string,
) {
  return call("POST /api/carts/:cartId/product", { params: { cartId }, body }, once(key));
}

export function changeQuantity(cartId: string, body: QuantityChangeBody, key?: string) {
  return call("PATCH /api/carts/:cartId/quantity", { params: { cartId }, body }, once(key));
}

export function removeCartLine(cartId: string, productId: string, lineId?: string, key?: string) {
  return call(
    "DELETE /api/carts/:cartId/product/:productId",
    { params: { cartId, productId }, query: lineId ? { lineId } : {} },
    once(key),
  );
}

export function restoreCartLine(cartId: string, lineId: string, key?: string) {
  return call(
    "POST /api/carts/:cartId/lines/:lineId/restore",
    { params: { cartId, lineId } },
    once(key),
  );
}

export function shareCartLine(cartId: string, lineId: string, userIds: string[]) {
  return call("PUT /api/carts/:cartId/lines/:lineId/shared-with", {
    params: { cartId, lineId },
    body: { userIds },
  });
}

export function hideCartLine(cartId: string, lineId: string, userIds: string[]) {
  return call("PUT /api/carts/:cartId/lines/:lineId/hidden-from", {
    params: { cartId, lineId },
    body: { userIds },
  });
}

export function stapleCartLine(cartId: string, lineId: string, staple: boolean) {
  return call("PUT /api/carts/:cartId/lines/:lineId/staple", {
    params: { cartId, lineId },
    body: { staple },
  });
}

export function acknowledgeLinePrice(cartId: string, lineId: string) {
  return call("POST /api/carts/:cartId/lines/:lineId/acknowledge-price", {
    params: { cartId, lineId },
  });
}

export function addFreeLine(
  cartId: string,
  body: RequestOf<"POST /api/carts/:cartId/free-lines">["body"],
  key?: string,
) {
  return call("POST /api/carts/:cartId/free-lines", { params: { cartId }, body }, once(key));
}

export function editCartLine(
  cartId: string,
  lineId: string,
  body: RequestOf<"PATCH /api/carts/:cartId/lines/:lineId">["body"],
  key?: string,
) {
  return call(
    "PATCH /api/carts/:cartId/lines/:lineId",
    { params: { cartId, lineId }, body },
    once(key),
  );
}

export function clearCart(cartId: string) {
  return call("DELETE /api/carts/:cartId/clear", { params: { cartId } });
}

/** Query keys. Everything cart-related lives under ["carts"], so one invalidation covers it. */
export const cartKeys = {
  all: ["carts"] as const,
  list: () => ["carts", "list"] as const,
  history: () => ["carts", "history"] as const,
  lookup: (by: "session" | "cart", id: string) => ["carts", "lookup", by, id] as const,
  summary: (sessionId: string) => ["carts", "summary", sessionId] as const,
  /** Every cart's Buy again list; with a cart id, that cart's (every limit). */
  buyAgainOf: (cartId?: string) =>
    cartId === undefined
      ? (["carts", "buy-again"] as const)
      : (["carts", "buy-again", cartId] as const),
  buyAgain: (cartId: string, limit: number) => ["carts", "buy-again", cartId, limit] as const,
};

/**
 * Mutation keys. Adds (products and free lines), quantity steps, removals, restores and edits of a
 * line's note are all "cart writes" (cart-writes.ts): one queue, replayed in order after a reload
 * or reconnect; a refetch waits while any is on its way.
 */
export const cartMutationKeys = {
  writes: ["cart-write"] as const,
};

function time(value: string): number {
  const t = Date.parse(value);
  return Number.isNaN(t) ? 0 : t;
}

/** Newest updatedAt first (a copy). */
export function newestCartsFirst(carts: readonly Cart[]): Cart[] {
  return [...carts].sort((a, b) => time(b.updatedAt) - time(a.updatedAt));
}

/** GET /carts: the carts of my active sessions, newest first. */
export function cartsQuery() {
  return queryOptions({
    queryKey: cartKeys.list(),
    queryFn: ({ signal }) => fetchCarts(signal).then((body) => newestCartsFirst(body.carts)),
    staleTime: 0,
  });
}

/** GET /carts/history: the carts of my ended sessions, newest first, a page at a time. */
export function cartHistoryQuery() {
  return infiniteQueryOptions({
    queryKey: cartKeys.history(),
    queryFn: ({ signal, pageParam }) => fetchCartHistory(pageParam || undefined, signal),
    initialPageParam: "",
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    staleTime: 0,
  });
}

/** GET /sessions/:id/cart: a session's cart, as the endpoint answers it. */
export function sessionCartQuery(sessionId: string) {
  return queryOptions({
    queryKey: cartKeys.lookup("session", sessionId),
    queryFn: ({ signal }) => fetchSessionCart(sessionId, signal),
  });
}

/** GET /sessions/:id/summary: items, the server's per-member split and the totals. */
export function sessionSummaryQuery(sessionId: string) {
  return queryOptions({
    queryKey: cartKeys.summary(sessionId),
    queryFn: ({ signal }) => fetchSessionSummary(sessionId, signal),
    staleTime: 0,
  });
}

export function useCarts() {
  return useQuery(cartsQuery());
}

/** Cart History as one list, with fetchNextPage/hasNextPage for the older pages. */
export function useCartHistory() {
  return useInfiniteQuery({
    ...cartHistoryQuery(),
    select: (data) => newestCartsFirst(data.pages.flatMap((page) => page.carts)),
  });
}

/** One cart the route names but the active list lacks (ended, gone, or the list is stale). */
export function useCartLookup(target: { sessionId?: string; cartId?: string }, enabled: boolean) {
  const by = target.cartId ? "cart" : "session";
  const id = target.cartId ?? target.sessionId ?? "";
  return useQuery({
    queryKey: cartKeys.lookup(by, id),
    queryFn: ({ signal }) =>
      (by === "cart" ? fetchCart(id, signal) : fetchSessionCart(id, signal)).then(
        (body) => body.cart,
      ),
    enabled: enabled && id !== "",
    staleTime: 0,
  });
}

/** A session's cart as GET /sessions/:id/cart answers it. */
export function useSessionCart(sessionId: string) {
  return useQuery(sessionCartQuery(sessionId));
}

/**
 * Reads a session's cart from the server now (not from the cache), for a check before a change.
 * Asked once, even while the browser says it is offline: a failure answers at once, so the caller
 * can go on without the check.
 */
export function useReadSessionCart(
  sessionId: string,
): () => Promise<Answer<typeof fetchSessionCart>> {
  const client = useQueryClient();
  return () =>
    client.fetchQuery({
      ...sessionCartQuery(sessionId),
      staleTime: 0,
      retry: false,
      networkMode: "always",
    });
}

/**
 * GET /carts/:cartId/buy-again: under ["carts"], so every change of ours reads it again (what the
 * cart now holds is no longer offered); others' changes reach it through the live events (the
 * cart's, its products' prices, the group's orders: features/live/live-events.ts).
 */
export function useBuyAgain(cartId: string, limit: number, enabled = true) {
  return useQuery({
    queryKey: cartKeys.buyAgain(cartId, limit),
    queryFn: ({ signal }) => fetchBuyAgain(cartId, limit, signal).then((body) => body.items),
    enabled,
  });
}

export function useSessionSummary(sessionId: string) {
  return useQuery(sessionSummaryQuery(sessionId));
}

/** Reads every cart and session again (after a change that moves totals); resolves when done. */
export function useRefreshCarts() {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: cartKeys.all }),
      client.invalidateQueries({ queryKey: sessionKeys.all }),
    ]);
}

/** After a session ended: its cart leaves the active list at once (it is in Cart History now). */
export function useDropEndedCart() {
  const client = useQueryClient();
  return (sessionId: string) => {
    client.setQueryData<Cart[]>(cartKeys.list(), (list) =>
      list?.filter((item) => item.sessionId?._id !== sessionId),
    );
    void client.invalidateQueries({ queryKey: cartKeys.all });
  };
}

/** Who shares a line (none: the session's split); the carts are read again before it settles. */
export function useShareLine(
  cartId: string,
  lineId: string,
  userIds: () => string[],
  reactions: Reactions<Answer<typeof shareCartLine>>,
) {
  const client = useQueryClient();
  return useMutation({
    ...reactions,
    mutationFn: () => shareCartLine(cartId, lineId, userIds()),
    onSuccess: async (...args) => {
      await reactions.onSuccess?.(...args);
      await client.invalidateQueries({ queryKey: cartKeys.all });
    },
  });
}

/** Hides a line from chosen members (a present), or from nobody again; carts refetch. */
export function useHideLine(
  cartId: string,
  lineId: string,
  userIds: () => string[],
  reactions: Reactions<Answer<typeof hideCartLine>>,
) {
  const client = useQueryClient();
  return useMutation({
    ...reactions,
    mutationFn: () => hideCartLine(cartId, lineId, userIds()),
    onSuccess: async (...args) => {
      await reactions.onSuccess?.(...args);
      await client.invalidateQueries({ queryKey: cartKeys.all });
    },
  });
}

/** Marks a line a staple (carried into the series' next session), or no longer; carts refetch. */
export function useStapleLine(
  cartId: string,
  reactions: Reactions<Answer<typeof stapleCartLine>, { lineId: string; staple: boolean }>,
) {
  const client = useQueryClient();
  return useMutation({
    ...reactions,
    mutationFn: ({ lineId, staple }: { lineId: string; staple: boolean }) =>
      stapleCartLine(cartId, lineId, staple),
    onSuccess: async (...args) => {
      await reactions.onSuccess?.(...args);
      settle(client, args[0].cart);
    },
  });
}

/** A member has seen a line's new price: the old one goes from the line; carts refetch. */
export function useAcknowledgePrice(
  cartId: string,
  reactions: Reactions<Answer<typeof acknowledgeLinePrice>, string>,
) {
  const client = useQueryClient();
  return useMutation({
    ...reactions,
    mutationFn: (lineId: string) => acknowledgeLinePrice(cartId, lineId),
    onSuccess: async (...args) => {
      await reactions.onSuccess?.(...args);
      settle(client, args[0].cart);
    },
  });
}

/** The cart writes still waiting: queued offline, or on their way. */
export function pendingWrites(client: QueryClient): number {
  return client.isMutating({ mutationKey: cartMutationKeys.writes });
}

/** The server's answer replaces that cart in the cart list. */
export function showServerCart(client: QueryClient, cart: Cart) {
  client.setQueryData<Cart[]>(cartKeys.list(), (carts) =>
    carts?.map((listed) => (listed._id === cart._id ? cart : listed)),
  );
}

/** After a change: the server's cart replaces ours, and anything showing totals refetches. */
export function settle(client: QueryClient, cart: Cart | undefined) {
  if (cart) showServerCart(client, cart);
  void client.invalidateQueries({ queryKey: cartKeys.all });
  void client.invalidateQueries({ queryKey: sessionKeys.all });
}

/** Clear Cart (creator only): the server's empty cart is shown, totals refetch. */
export function useClearCart(reactions: Reactions<Answer<typeof clearCart>, Cart>) {
  const client = useQueryClient();
  return useMutation({
    ...reactions,
    mutationFn: (cart: Cart) => clearCart(cart._id),
    onSuccess: (...args) => {
      const result = reactions.onSuccess?.(...args);
      settle(client, args[0].cart);
      return result;
    },
  });
}
