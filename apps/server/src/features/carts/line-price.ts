import type { Cart, User } from "@cartner/contract";
import { sql } from "drizzle-orm";
import { executeRows } from "../../db/client.ts";
import { notFound } from "../../lib/errors.ts";
import { writeSession } from "../sessions/index.ts";
import { sessionOfCart, type SettingDeps } from "./line-setting.ts";
import { cartChanged } from "./events.ts";
import { accessCart } from "./reads.ts";
import { cartOf } from "./view.ts";

/**
 * A member who pays has seen a line's changed price: the line stops showing the old one (the split
 * already uses the new price). A session write (the cart's lock, the gate: open cart, a member who
 * pays); it leaves no activity entry, since it changes no amount. Acknowledging a price already
 * seen changes nothing.
 */
export async function acknowledgePrice(
  deps: SettingDeps,
  cartId: string,
  user: User,
  lineId: string,
): Promise<Cart> {
  await writeSession(deps.db, deps, {
    sessionId: await sessionOfCart(deps, cartId),
    userId: user._id,
    action: "cart.acknowledgePrice",
    notFound: "Cart not found",
    change: async ({ tx, now }) => {
      const [line] = await executeRows<{ seen: boolean }>(
        tx,
        sql`select coalesce(l.acknowledged_price_cents, l.added_price_cents) = p.price_cents
              as seen
            from cart_lines l join products p on p.id = l.product_id
            where l.id = ${lineId} and l.cart_id = ${cartId}`,
      );
      if (!line) throw notFound("That item is not in the cart.");
      if (line.seen) return { result: false, version: "unchanged" };
      await tx.execute(
        sql`update cart_lines l set acknowledged_price_cents = p.price_cents, updated_at = ${now}
            from products p where l.id = ${lineId} and p.id = l.product_id`,
      );
      return { result: true };
    },
    events: (changed, session, lockedCartId) =>
      changed ? cartChanged(session.id, lockedCartId, session.version, false) : [],
  });
  const view = await accessCart(deps, { cartId }, user._id);
  return cartOf(view, user._id, deps.media, deps.clock.now());
}
