import { useEffect, useMemo, useRef } from "react";
import { useMutation, useMutationState, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Cart, CartLine } from "@cartner/contract";
import { dropFromActiveSessions, useSessionSync } from "../../shared/sessions-queries.ts";
import { cartKeys, cartMutationKeys, cartsApi } from "../../api/carts-api.ts";
import { failureToast, successToast } from "../../shared/cart-toasts.tsx";
import {
  lineWrite,
  pendingWrites,
  settle,
  type CartWrite,
  useCartWrites,
} from "../../shared/cart-writes.ts";
import { newestCartsFirst, sessionNameOf, type PendingWrite } from "./cart-model.ts";

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
    if (changed && pendingWrites(client) === 0) {
      void client.invalidateQueries({ queryKey: cartKeys.all });
    }
  }, [client, fingerprint]);
}

/**
 * +1, -1 and remove on a line. Each is a cart write (shared/cart-writes.ts): the cart page draws
 * it at once on top of the server's cart (`withPendingWrites`), it waits in the queue while
 * offline, and when the server refuses it (e.g. "Only 3 in stock") it disappears with a toast
 * that says why. Always names the line (lineId): the creator may change anyone's; the server
 * refuses anyone else's for other roles.
 */
export function useCartLineActions(announce: (message: string) => void) {
  const mutate = useCartWrites();

  function changeQuantity(cart: Cart, line: CartLine, change: 1 | -1) {
    const quantity = Math.max(1, line.quantity + change);
    announce(`${line.productId.name}: quantity ${quantity}.`);
    mutate(lineWrite(cart, line, change), {
      onError: () => announce(`${line.productId.name}: quantity ${line.quantity}.`),
    });
  }

  function removeLine(cart: Cart, line: CartLine) {
    announce(`${line.productId.name} removed from ${sessionNameOf(cart)}.`);
    mutate(lineWrite(cart, line, "remove"), {
      onError: () => announce(`${line.productId.name} is back in the cart.`),
    });
  }

  return { changeQuantity, removeLine };
}

/** The cart writes not yet confirmed, oldest first, and whether they wait for a connection. */
export function usePendingWrites(): PendingWrite[] {
  return useMutationState({
    filters: { mutationKey: cartMutationKeys.writes, status: "pending" },
    select: (m) => ({
      write: m.state.variables as CartWrite,
      waiting: m.state.isPaused,
    }),
  });
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
