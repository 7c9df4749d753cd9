import {
  onlineManager,
  queryOptions,
  useMutation,
  useMutationState,
  useQuery,
  useQueryClient,
  type QueryClient,
} from "@tanstack/react-query";
import type { Cart, CartLine, Product, RequestOf } from "@cartner/contract";
import { ApiError } from "../lib/api.ts";
import { call } from "../lib/call.ts";
import type { Reactions } from "../lib/mutation-reactions.ts";
import { getUser } from "../lib/storage.ts";
import { toast } from "../lib/toast.ts";
import { failureToast, successToast } from "../shared/cart-toasts.tsx";
import { sessionKeys } from "./sessions-calls.ts";

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
 * Mutation keys. Adds, quantity steps and removals are all "cart writes" (below):
 * one queue, replayed in order after a reload or reconnect; a refetch waits while any is on its way.
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

export const cartQueries = {
  /** GET /carts: the carts of my active sessions, newest first. */
  list: () =>
    queryOptions({
      queryKey: cartKeys.list(),
      queryFn: ({ signal }) => cartsApi.list(signal).then((body) => newestCartsFirst(body.carts)),
      staleTime: 0,
    }),
  /** GET /carts/history: the carts of my ended sessions, newest first. */
  history: () =>
    queryOptions({
      queryKey: cartKeys.history(),
      queryFn: ({ signal }) =>
        cartsApi.history(signal).then((body) => newestCartsFirst(body.carts)),
      staleTime: 0,
    }),
  /** GET /sessions/:id/summary: items, the server's per-member split and the totals. */
  summary: (sessionId: string) =>
    queryOptions({
      queryKey: cartKeys.summary(sessionId),
      queryFn: ({ signal }) => cartsApi.summary(sessionId, signal),
      staleTime: 0,
    }),
};

export function useCarts() {
  return useQuery(cartQueries.list());
}

export function useCartHistory() {
  return useQuery(cartQueries.history());
}

/** One cart the route names but the active list lacks (ended, gone, or the list is stale). */
export function useCartLookup(target: { sessionId?: string; cartId?: string }, enabled: boolean) {
  const by = target.cartId ? "cart" : "session";
  const id = target.cartId ?? target.sessionId ?? "";
  return useQuery({
    queryKey: cartKeys.lookup(by, id),
    queryFn: ({ signal }) =>
      (by === "cart" ? cartsApi.get(id, signal) : cartsApi.ofSession(id, signal)).then(
        (body) => body.cart,
      ),
    enabled: enabled && id !== "",
    staleTime: 0,
  });
}

/** A session's cart as GET /sessions/:id/cart answers it. */
export function useSessionCart(sessionId: string) {
  return useQuery({
    queryKey: cartKeys.lookup("session", sessionId),
    queryFn: ({ signal }) => cartsApi.ofSession(sessionId, signal),
  });
}

export function useSessionSummary(sessionId: string) {
  return useQuery(cartQueries.summary(sessionId));
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
  reactions: Reactions<Awaited<ReturnType<typeof cartsApi.shareLine>>>,
) {
  const client = useQueryClient();
  return useMutation({
    ...reactions,
    mutationFn: () => cartsApi.shareLine(cartId, lineId, userIds()),
    onSuccess: async (...args) => {
      await reactions.onSuccess?.(...args);
      await client.invalidateQueries({ queryKey: cartKeys.all });
    },
  });
}

/*
 * Cart writes: adds, quantity steps, removals and restores, queued and replayed in order.
 */

/** SPEC section 8, "Add to cart". */
export const ADDED_MESSAGE = "Added to cart for selected session.";
export const ADD_FAILED_MESSAGE = "Failed to add product to cart.";
export const OVER_BUDGET_MESSAGE = "Your share is now over your budget.";
/** Said when a change is kept for later because the device is offline. */
export const QUEUED_MESSAGE =
  "You're offline: the change is saved and will be sent when you're back.";

/** What a queued add needs to draw its pending line before the server has answered. */
export type ProductSnapshot = Pick<Product, "_id" | "name" | "price" | "imageUrl"> & {
  color?: string | undefined;
};

/**
 * One change to a cart's lines. Plain data (it is kept in IndexedDB while offline) with its own
 * Idempotency-Key, so sending it again after a lost answer or a reload never applies it twice.
 */
export type CartWrite =
  | { op: "add"; key: string; cartId: string; product: ProductSnapshot }
  | {
      op: "step";
      key: string;
      cartId: string;
      lineId: string;
      productId: string;
      name: string;
      change: 1 | -1;
    }
  | { op: "remove"; key: string; cartId: string; lineId: string; productId: string; name: string }
  /** Undo of a removal: the server puts the line back as it was; `line` draws it until then. */
  | { op: "restore"; key: string; cartId: string; lineId: string; name: string; line: CartLine };

type NewWrite = CartWrite extends infer W ? (W extends CartWrite ? Omit<W, "key"> : never) : never;

/** Gives a change its key (made once, when the user acts). */
export function cartWrite(write: NewWrite): CartWrite {
  return { ...write, key: crypto.randomUUID() } as CartWrite;
}

export function productSnapshot(product: Product): ProductSnapshot {
  const { _id, name, price, imageUrl, color } = product as Product & { color?: string };
  return { _id, name, price, imageUrl, ...(color ? { color } : {}) };
}

export function lineWrite(cart: Cart, line: CartLine, change: 1 | -1 | "remove"): CartWrite {
  const base = { cartId: cart._id, lineId: line._id, productId: line.productId._id };
  return change === "remove"
    ? cartWrite({ op: "remove", ...base, name: line.productId.name })
    : cartWrite({ op: "step", ...base, name: line.productId.name, change });
}

/** The undo of a line's removal, as a cart write of its own. */
export function restoreWrite(cart: Cart, line: CartLine): CartWrite {
  return cartWrite({
    op: "restore",
    cartId: cart._id,
    lineId: line._id,
    name: line.productId.name,
    line,
  });
}

/**
 * Takes back a queued change that has not been sent (offline, or waiting behind another change):
 * it leaves the queue as if never made. False once it may have reached the server (on its way,
 * or tried before), when the caller must undo it with a change of its own.
 */
export function cancelUnsent(client: QueryClient, key: string): boolean {
  const cache = client.getMutationCache();
  const mutation = cache
    .findAll({ mutationKey: cartMutationKeys.writes, status: "pending" })
    .find((m) => (m.state.variables as CartWrite | undefined)?.key === key);
  if (!mutation || !mutation.state.isPaused || mutation.state.failureCount > 0) return false;
  cache.remove(mutation);
  return true;
}

/** cancelUnsent on this page's query client. */
export function useCancelUnsent(): (key: string) => boolean {
  const client = useQueryClient();
  return (key) => cancelUnsent(client, key);
}

/** What every cart write answers: the cart after it, and any over-budget warnings. */
interface WriteAnswer {
  cart: Cart;
  warnings?: { code: string; userId: string }[] | undefined;
}

function send(write: CartWrite): Promise<WriteAnswer> {
  switch (write.op) {
    case "add":
      return cartsApi.add(write.cartId, { productId: write.product._id, quantity: 1 }, write.key);
    case "step":
      return cartsApi.changeQuantity(
        write.cartId,
        { productId: write.productId, change: write.change, lineId: write.lineId },
        write.key,
      );
    case "remove":
      return cartsApi.removeLine(write.cartId, write.productId, write.lineId, write.key);
    case "restore":
      return cartsApi.restoreLine(write.cartId, write.lineId, write.key);
  }
}

function failureTitle(write: CartWrite): string {
  switch (write.op) {
    case "add":
      return ADD_FAILED_MESSAGE;
    case "step":
      return `Could not change the quantity of ${write.name}.`;
    case "remove":
      return `Could not remove ${write.name}.`;
    case "restore":
      return `Could not put ${write.name} back.`;
  }
}

const isNetworkError = (error: unknown) => error instanceof ApiError && error.status === 0;

/** The cart writes still waiting: queued offline, or on their way. */
export function pendingWrites(client: QueryClient): number {
  return client.isMutating({ mutationKey: cartMutationKeys.writes });
}

/** The server's answer replaces that cart in the cart list. */
function showServerCart(client: QueryClient, cart: Cart) {
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

const registered = new WeakSet<QueryClient>();

/**
 * The cart writes' `mutate`. Registers their defaults on first use: they live in this module,
 * which the pages that change carts load, so the first load of / and /login does not carry them.
 */
export function useCartWrites() {
  const client = useQueryClient();
  registerCartWrites(client);
  return useMutation<unknown, Error, CartWrite>({ mutationKey: cartMutationKeys.writes }).mutate;
}

/**
 * How every cart write is sent, registered on the query client so that changes restored from
 * IndexedDB after a reload (which keep only their data) are sent the same way. One scope: they go
 * to the server one at a time, in the order the user made them. A change made offline waits
 * (TanStack Query pauses it) and goes out when the browser is back online; one whose answer was
 * lost is retried with the same key.
 */
export function registerCartWrites(client: QueryClient): void {
  if (registered.has(client)) return;
  registered.add(client);
  /** The last change on its way settles: show the server's cart and refetch what shows totals. */
  const lastInFlight = () => pendingWrites(client) <= 1;

  client.setMutationDefaults(cartMutationKeys.writes, {
    mutationFn: (write: CartWrite) => send(write),
    scope: { id: "cart-writes" },
    retry: (failures, error) => isNetworkError(error) && failures < 3,
    retryDelay: (failures) => Math.min(1000 * 2 ** failures, 8000),
    onMutate: () => {
      if (!onlineManager.isOnline()) {
        toast.info(QUEUED_MESSAGE, { toastId: "cart-write-queued", autoClose: 6000 });
      }
      return undefined;
    },
    onSuccess: async (body, write: CartWrite) => {
      // The server's cart includes this change and those before it (they run in order), so it
      // replaces ours even while later changes are queued: the cart page draws those on top.
      await client.cancelQueries({ queryKey: cartKeys.list() });
      showServerCart(client, body.cart);
      if (write.op === "add") {
        successToast(ADDED_MESSAGE);
        const userId = getUser()?._id;
        // Budgets never block a write; the member whose share went over hears of it.
        if (body.warnings?.some((w) => w.code === "OVER_BUDGET" && w.userId === userId)) {
          toast.warn(OVER_BUDGET_MESSAGE, { toastId: "over-budget" });
        }
      }
    },
    onError: (error, write: CartWrite) => {
      console.error("Cart change failed:", error);
      // The pending line disappears with the change; the reason (line removed meanwhile, cart
      // locked for checkout, no longer a member) is the server's own message.
      failureToast(failureTitle(write), error);
    },
    onSettled: () => {
      if (lastInFlight()) settle(client, undefined);
    },
  });
}

/** The cart writes not yet confirmed, oldest first, and whether they wait for a connection. */
export function usePendingWrites(): { write: CartWrite; waiting: boolean }[] {
  return useMutationState({
    filters: { mutationKey: cartMutationKeys.writes, status: "pending" },
    select: (m) => ({
      write: m.state.variables as CartWrite,
      waiting: m.state.isPaused,
    }),
  });
}

/** The products whose add is on its way (not those waiting for a connection). */
export function useAddsInFlight(): (string | undefined)[] {
  return useMutationState({
    filters: { mutationKey: cartMutationKeys.writes, status: "pending" },
    select: (m) => {
      const write = m.state.variables as CartWrite | undefined;
      return write?.op === "add" && !m.state.isPaused ? write.product._id : undefined;
    },
  });
}

/** Clear Cart (creator only): the server's empty cart is shown, totals refetch. */
export function useClearCart(
  reactions: Reactions<Awaited<ReturnType<typeof cartsApi.clear>>, Cart>,
) {
  const client = useQueryClient();
  return useMutation({
    ...reactions,
    mutationFn: (cart: Cart) => cartsApi.clear(cart._id),
    onSuccess: (...args) => {
      const result = reactions.onSuccess?.(...args);
      settle(client, args[0].cart);
      return result;
    },
  });
}
