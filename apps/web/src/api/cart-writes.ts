import {
  onlineManager,
  useMutation,
  useMutationState,
  useQueryClient,
  type QueryClient,
} from "@tanstack/react-query";
import type { Cart, CartLine, FreeLineBody, LinePatchBody, Product } from "@cartner/contract";
import { ApiError } from "../lib/api.ts";
import { getUser } from "../lib/storage.ts";
import { toast } from "../lib/toast.ts";
import { failureToast, successToast } from "../shared/cart-toasts.tsx";
import {
  addFreeLine,
  addToCart,
  cartKeys,
  cartMutationKeys,
  changeQuantity,
  editCartLine,
  pendingWrites,
  removeCartLine,
  restoreCartLine,
  settle,
  showServerCart,
} from "./carts.ts";

/*
 * Cart writes: adds (of a product or of something not in the catalog), quantity steps, removals,
 * restores and edits of a line's note and substitute, queued and replayed in order. Only the pages
 * that change carts (and the offline restore, once signed in) load this module.
 */

/** What adding to the cart tells the user. */
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
  /** `hiddenFrom`: private from the start, hidden from those members (none: seen by all). */
  | { op: "add"; key: string; cartId: string; product: ProductSnapshot; hiddenFrom?: string[] }
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
  | { op: "restore"; key: string; cartId: string; lineId: string; name: string; line: CartLine }
  /** Something not in the catalog, by name (`body` as the form checked it). */
  | { op: "freeLine"; key: string; cartId: string; body: FreeLineBody }
  /** A line's note and substitute (a free line's name and estimate too); `name` for the toasts. */
  | {
      op: "edit";
      key: string;
      cartId: string;
      lineId: string;
      name: string;
      body: LinePatchBody;
    };

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
  // A free line has no product: the server finds it by its line id alone.
  const base = { cartId: cart._id, lineId: line._id, productId: line.productId._id ?? line._id };
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
      return addToCart(
        write.cartId,
        {
          productId: write.product._id,
          quantity: 1,
          ...(write.hiddenFrom?.length ? { hiddenFrom: write.hiddenFrom } : {}),
        },
        write.key,
      );
    case "step":
      return changeQuantity(
        write.cartId,
        { productId: write.productId, change: write.change, lineId: write.lineId },
        write.key,
      );
    case "remove":
      return removeCartLine(write.cartId, write.productId, write.lineId, write.key);
    case "restore":
      return restoreCartLine(write.cartId, write.lineId, write.key);
    case "freeLine":
      return addFreeLine(write.cartId, write.body, write.key);
    case "edit":
      return editCartLine(write.cartId, write.lineId, write.body, write.key);
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
    case "freeLine":
      return `Could not add ${write.body.name}.`;
    case "edit":
      return `Could not save the note on ${write.name}.`;
  }
}

/** What a write says once the server has it; null: nothing (the line shows it). */
function doneMessage(write: CartWrite): string | null {
  switch (write.op) {
    case "add":
      return ADDED_MESSAGE;
    case "freeLine":
      return `${write.body.name} added to the cart.`;
    case "edit":
      return `Saved the note on ${write.name}.`;
    default:
      return null;
  }
}

const isNetworkError = (error: unknown) => error instanceof ApiError && error.status === 0;

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
      const done = doneMessage(write);
      if (done) successToast(done);
      if (write.op === "add" || write.op === "freeLine") {
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
