import { useCallback, useMemo } from "react";
import { toast } from "../../lib/toast.ts";
import { can, type Product, type Session } from "@cartner/contract";
import { useAuth } from "../../lib/auth-store.ts";
import { roleIn } from "../../shared/roles.ts";
import {
  cartWrite,
  productSnapshot,
  useAddsInFlight,
  useCartWrites,
} from "../../api/cart-writes.ts";
import {
  pickActiveSession,
  readActiveSessionId,
  useActiveSession,
} from "../../shared/active-session.ts";
import { useReadSyncedSessions } from "../../api/session-sync.ts";

/** The add-to-cart toast when no session is selected. */
export const NO_ACTIVE_SESSION_MESSAGE = "Please select a session with a cart.";
export { ADDED_MESSAGE, ADD_FAILED_MESSAGE, OVER_BUDGET_MESSAGE } from "../../api/cart-writes.ts";
/** Why the add buttons are disabled (their title, so also their accessible description). */
export const VIEWER_REASON = "Viewers can't add items to this session's cart.";
export const ENDED_REASON = "This session has ended; its cart is read-only.";

/**
 * The one Add to Cart handler, used by the grid's cards and the product page. Call it with a
 * product; `blockedReason` says why adding is not allowed in the active session (the buttons are
 * then disabled), and `isAdding` tells whether a product's add is on its way.
 */

/** `hiddenFrom`: an add private from the start, hidden from those members of the session. */
export type AddOptions = { hiddenFrom?: string[] };

export type AddToCart = ((product: Product, options?: AddOptions) => void) & {
  blockedReason: string | null;
  isAdding: (productId: string) => boolean;
};

/** Why the signed-in user cannot add to this session's cart, or null when they can. */
export function addBlockedReason(
  session: Session | null,
  userId: string | null | undefined,
): string | null {
  if (!session) return null;
  if (session.status === "ended") return ENDED_REASON;
  const role = roleIn(session, userId);
  // A member who may see the cart but not add to it (a viewer).
  if (can(role, "session.read") && !can(role, "cart.add")) return VIEWER_REASON;
  return null;
}

export function useAddToCart(): AddToCart {
  const readSyncedSessions = useReadSyncedSessions();
  const { user } = useAuth();
  const userId = user?._id ?? null;
  const { session } = useActiveSession();
  const blockedReason = addBlockedReason(session, userId);

  // Sent and toasted as every cart write is (api/cart-writes.ts), queued while offline.
  const mutate = useCartWrites();

  // A spinner on the button while an add is on its way (not while it waits for a connection).
  const adding = useAddsInFlight();

  // The session is looked up when the button is pressed, not taken from this render: `add` then
  // stays the same function while the sessions load and refresh, which the buttons do not show,
  // and the memoised cards of the grid do not all re-render for it.
  const add = useCallback(
    async (product: Product, options?: AddOptions) => {
      // Clicked before the sessions arrived: wait for them rather than say there are none.
      const target = userId
        ? pickActiveSession(await readSyncedSessions(), readActiveSessionId(userId))
        : null;
      const cartId = target?.cartId;
      if (!target || !cartId) {
        toast.warning(NO_ACTIVE_SESSION_MESSAGE, { toastId: "add-to-cart-no-session" });
        return;
      }
      const reason = addBlockedReason(target, userId);
      if (reason) {
        toast.info(reason, { toastId: "add-to-cart-blocked" });
        return;
      }
      const hiddenFrom = options?.hiddenFrom ?? [];
      mutate(
        cartWrite({
          op: "add",
          cartId,
          product: productSnapshot(product),
          ...(hiddenFrom.length > 0 ? { hiddenFrom } : {}),
        }),
      );
    },
    [readSyncedSessions, userId, mutate],
  );

  // A new function whenever what the buttons show changes, so the cards re-render.
  return useMemo(
    () =>
      Object.assign((product: Product, options?: AddOptions) => void add(product, options), {
        blockedReason,
        isAdding: (productId: string) => adding.includes(productId),
      }),
    [add, blockedReason, adding],
  );
}
