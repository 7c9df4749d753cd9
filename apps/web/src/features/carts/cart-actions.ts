import type { Cart, CartLine } from "@cartner/contract";
import { useClearCart } from "../../api/carts.ts";
import {
  useCancelUnsent,
  lineWrite,
  restoreWrite,
  type CartWrite,
  useCartWrites,
} from "../../api/cart-writes.ts";
import { failureToast, successToast, undoToast } from "../../shared/cart-toasts.tsx";
import { toast } from "../../lib/toast.ts";
import { removedText, sessionNameOf } from "./cart-model.ts";

/*
 * The cart page's actions: the cart data hooks (api/carts.ts) with the page's messages, undo and
 * screen-reader announcements.
 */

export const CLEAR_CONFIRM = "Clear all products from this cart?";
export const CLEARED_MESSAGE = "Cart cleared successfully.";
export const CLEAR_FAILED_MESSAGE = "Failed to clear cart.";

/**
 * +1, -1 and remove on a line. Each is a cart write (api/cart-writes.ts): the cart page draws
 * it at once on top of the server's cart (`withPendingWrites`), it waits in the queue while
 * offline, and when the server refuses it (e.g. "Only 3 in stock") it disappears with a toast
 * that says why. Always names the line (lineId): the creator may change anyone's; the server
 * refuses anyone else's for other roles. Every removal offers Undo for a few seconds.
 */
export function useCartLineActions(
  announce: (message: string) => void,
  userId: string | null | undefined,
) {
  const cancelUnsent = useCancelUnsent();
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
    if (cancelUnsent(removal.key)) {
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

/** Clear Cart (creator only), with its success and failure toasts. */
export function useCartActions() {
  const clear = useClearCart({
    onSuccess: () => successToast(CLEARED_MESSAGE),
    onError: (error) => failureToast(CLEAR_FAILED_MESSAGE, error),
  });
  return { clear };
}
