import { useEffect, useMemo, useRef } from "react";
import { useMutation, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import type { Cart, CartLine } from "@cartner/contract";
import { sessionKeys } from "../../api/sessions-api.ts";
import { dropFromActiveSessions, useSessionSync } from "../../shared/sessions-queries.ts";
import { cartKeys, cartMutationKeys, cartsApi } from "../../api/carts-api.ts";
import { failureToast, successToast } from "../../shared/cart-toasts.tsx";
import { newestCartsFirst, sessionNameOf, withQuantityChange, withoutLine } from "./cart-model.ts";

export const DELETE_CONFIRM = "Are you sure you want to delete this cart?";
export const CLEAR_CONFIRM = "Clear all products from this cart?";
export const DELETED_MESSAGE = "Cart deleted successfully.";
export const DELETE_FAILED_MESSAGE = "Failed to delete cart.";
export const CLEARED_MESSAGE = "Cart cleared successfully.";
export const CLEAR_FAILED_MESSAGE = "Failed to clear cart.";

/** GET /carts: the carts of my active sessions, newest first. */
export function useCarts() {
  return useQuery({
    queryKey: cartKeys.list(),
    queryFn: ({ signal }) => cartsApi.list(signal).then((body) => newestCartsFirst(body.carts)),
    staleTime: 0,
  });
}

/** GET /carts/history: the carts of my ended sessions, newest first. */
export function useCartHistory() {
  return useQuery({
    queryKey: cartKeys.history(),
    queryFn: ({ signal }) => cartsApi.history(signal).then((body) => newestCartsFirst(body.carts)),
    staleTime: 0,
  });
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

/** GET /sessions/:id/summary: items, the server's per-member split and the totals. */
export function useSessionSummary(sessionId: string) {
  return useQuery({
    queryKey: cartKeys.summary(sessionId),
    queryFn: ({ signal }) => cartsApi.summary(sessionId, signal),
    staleTime: 0,
  });
}

/**
 * Members see each other's changes: whenever the 5 s session sync reports a different version (or
 * a session appears, ends or goes away), the cart queries are refetched. Skipped while a line
 * change of ours is on its way; that change refetches when it settles. (While the live socket is
 * up, its cart.updated events refetch at once and the sync only changes after other events.)
 */
export function useRefetchCartsOnSync(): void {
  const client = useQueryClient();
  const sync = useSessionSync();
  const fingerprint = useMemo(() => {
    if (!sync.data) return null;
    const sessions = sync.data.sessions
      .map((session) => `${session._id}:${session.version}:${session.status}`)
      .sort()
      .join("|");
    return `${sync.data.version ?? ""}#${sessions}`;
  }, [sync.data]);
  const previous = useRef<string | null>(null);

  useEffect(() => {
    if (fingerprint === null) return;
    const changed = previous.current !== null && previous.current !== fingerprint;
    previous.current = fingerprint;
    if (changed && client.isMutating({ mutationKey: cartMutationKeys.lines }) === 0) {
      void client.invalidateQueries({ queryKey: cartKeys.all });
    }
  }, [client, fingerprint]);
}

function patchListedCart(client: QueryClient, cartId: string, update: (cart: Cart) => Cart) {
  client.setQueryData<Cart[]>(cartKeys.list(), (carts) =>
    carts?.map((cart) => (cart._id === cartId ? update(cart) : cart)),
  );
}

/** After a change: the server's cart replaces ours, and anything showing totals refetches. */
function settle(client: QueryClient, cart: Cart | undefined) {
  if (cart) patchListedCart(client, cart._id, () => cart);
  void client.invalidateQueries({ queryKey: cartKeys.all });
  void client.invalidateQueries({ queryKey: sessionKeys.all });
}

interface LineChange {
  cart: Cart;
  line: CartLine;
  change: 1 | -1;
}

interface LineRemoval {
  cart: Cart;
  line: CartLine;
}

/**
 * +1, -1 and remove on a line, applied to the screen at once and rolled back (with a toast saying
 * why) when the server refuses, e.g. "Only 3 in stock". Always names the line (lineId): the
 * creator may change anyone's; the server refuses anyone else's for other roles.
 */
export function useCartLineActions(announce: (message: string) => void) {
  const client = useQueryClient();

  /** The only line change still on its way: safe to show the server's answer and refetch. */
  const lastInFlight = () => client.isMutating({ mutationKey: cartMutationKeys.lines }) <= 1;

  async function snapshot() {
    await client.cancelQueries({ queryKey: cartKeys.list() });
    return { previous: client.getQueryData<Cart[]>(cartKeys.list()) };
  }

  function rollBack(context: { previous: Cart[] | undefined } | undefined) {
    if (context?.previous) client.setQueryData(cartKeys.list(), context.previous);
  }

  const changeQuantity = useMutation({
    mutationKey: cartMutationKeys.lines,
    mutationFn: ({ cart, line, change }: LineChange) =>
      cartsApi.changeQuantity(cart._id, {
        productId: line.productId._id,
        change,
        lineId: line._id,
      }),
    onMutate: async ({ cart, line, change }) => {
      const context = await snapshot();
      patchListedCart(client, cart._id, (current) => withQuantityChange(current, line._id, change));
      const quantity = Math.max(1, line.quantity + change);
      announce(`${line.productId.name}: quantity ${quantity}.`);
      return context;
    },
    onError: (error, { line }, context) => {
      rollBack(context);
      console.error("Quantity change failed:", error);
      failureToast(`Could not change the quantity of ${line.productId.name}.`, error);
      announce(`${line.productId.name}: quantity ${line.quantity}.`);
    },
    onSuccess: (body) => {
      if (lastInFlight()) patchListedCart(client, body.cart._id, () => body.cart);
    },
    onSettled: () => {
      if (lastInFlight()) settle(client, undefined);
    },
  });

  const removeLine = useMutation({
    mutationKey: cartMutationKeys.lines,
    mutationFn: ({ cart, line }: LineRemoval) =>
      cartsApi.removeLine(cart._id, line.productId._id, line._id),
    onMutate: async ({ cart, line }) => {
      const context = await snapshot();
      patchListedCart(client, cart._id, (current) => withoutLine(current, line._id));
      announce(`${line.productId.name} removed from ${sessionNameOf(cart)}.`);
      return context;
    },
    onError: (error, { line }, context) => {
      rollBack(context);
      console.error("Remove failed:", error);
      failureToast(`Could not remove ${line.productId.name}.`, error);
      announce(`${line.productId.name} is back in the cart.`);
    },
    onSuccess: (body) => {
      if (lastInFlight()) patchListedCart(client, body.cart._id, () => body.cart);
    },
    onSettled: () => {
      if (lastInFlight()) settle(client, undefined);
    },
  });

  return { changeQuantity, removeLine };
}

/** Clear Cart and delete-cart (creator only), with SPEC's toasts. */
export function useCartActions() {
  const client = useQueryClient();

  const clear = useMutation({
    mutationFn: (cart: Cart) => cartsApi.clear(cart._id),
    onSuccess: (body) => {
      successToast(CLEARED_MESSAGE);
      settle(client, body.cart);
    },
    onError: (error) => failureToast(CLEAR_FAILED_MESSAGE, error),
  });

  const remove = useMutation({
    mutationFn: (cart: Cart) => cartsApi.remove(cart._id),
    onSuccess: (_body, cart) => {
      successToast(DELETED_MESSAGE);
      // Deleting ends the session: its cart leaves the active list and moves to history.
      client.setQueryData<Cart[]>(cartKeys.list(), (carts) =>
        carts?.filter((item) => item._id !== cart._id),
      );
      if (cart.sessionId?._id) dropFromActiveSessions(client, cart.sessionId._id);
      settle(client, undefined);
    },
    onError: (error) => failureToast(DELETE_FAILED_MESSAGE, error),
  });

  return { clear, remove };
}
