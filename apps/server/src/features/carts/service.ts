import type { User } from "@cartner/contract";
import { endSession } from "../sessions/index.ts";
import type { CartDeps } from "./deps.ts";
import { accessCart } from "./reads.ts";

/*
 * The carts feature as plain functions taking CartDeps (deps.ts): reads and the summary
 * (reads.ts, view.ts), line writes by cart_write() (line-writes.ts, through the group-commit
 * queue of write-queue.ts), who shares a line (line-sharing.ts), staple lines (line-staple.ts),
 * and deleting a cart (here), which ends its session.
 */

/** Deleting a cart ends its session: the cart is kept as history (a session's history is never deleted). */
export async function deleteCart(
  deps: Pick<CartDeps, "rows" | "db" | "clock" | "events">,
  cartId: string,
  user: User,
): Promise<{ message: string }> {
  const { session } = await accessCart(deps, { cartId }, user._id, "cart.delete");
  await endSession(deps, session.id, user._id);
  return { message: "Cart deleted; the session has ended." };
}
