import { useEffect, useMemo, useRef } from "react";
import { useMutation, useMutationState, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Cart, CartLine } from "@cartner/contract";
import { useSessionSync } from "../../shared/sessions-queries.ts";
import { cartKeys, cartMutationKeys, cartsApi } from "../../api/carts-api.ts";
import { failureToast, successToast, undoToast } from "../../shared/cart-toasts.tsx";
import { toast } from "../../lib/toast.ts";
import {
  cancelUnsent,
  lineWrite,
  pendingWrites,
  restoreWrite,
  settle,
  type CartWrite,
  useCartWrites,
} from "../../shared/cart-writes.ts";
import { newestCartsFirst, removedText, sessionNameOf, type PendingWrite } from "./cart-model.ts";

export const CLEAR_CONFIRM = "Clear all products from this cart?";
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
 * refuses anyone else's for other roles. Every removal offers Undo for a few seconds.
 */
export function useCartLineActions(
  announce: (message: string) => void,
  userId: string | null | undefined,
) {
  const client = useQueryClient();
  const mutate = useCartWrites();

  function changeQuantity(cart: Cart, line: CartLine, change: 1 | -1) {
    const quantity = Math.max(1, line.quantity + change);
    announce(`${line.productId.name}: quantity ${quantity}.`);
    mutate(lineWrite(cart, line, change), {
      onError: () => announce(`${line.productId.name}: quantity ${line.quantity}.`),
    });
  }

  /**
   * Undo takes back a removal not sent yet (offline, or queued behind another change); one that
   * may have reached the server is followed by a restore, which the server applies after it and
   * which puts the line back as it was: same adder, quantity and sharers, so the same payers.
   */
  function undoRemoval(cart: Cart, line: CartLine, removal: CartWrite) {
    const back = `${line.productId.name} is back in the cart.`;
    if (cancelUnsent(client, removal.key)) {
      announce(back);
      return;
    }
    mutate(restoreWrite(cart, line), {
      onSuccess: () => announce(back),
    });
  }

  function removeLine(cart: Cart, line: CartLine) {
    const removal = lineWrite(cart, line, "remove");
    const toastId = `undo-${removal.key}`;
    announce(`${line.productId.name} removed from ${sessionNameOf(cart)}.`);
    mutate(removal, {
      onError: () => {
        // Refused: the line never left, so there is nothing to undo.
        toast.dismiss(toastId);
        announce(`${line.productId.name} is back in the cart.`);
      },
    });
    undoToast(removedText(line, userId), () => undoRemoval(cart, line, removal), toastId);
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

/** Clear Cart (creator only), with SPEC's toasts. */
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

  return { clear };
}
