import type { Cart, User } from "@cartner/contract";
import { sql } from "drizzle-orm";
import { executeRows, type Database, type Db } from "../../db/client.ts";
import { carts } from "../../db/schema.ts";
import type { Clock } from "../../lib/clock.ts";
import { notFound } from "../../lib/errors.ts";
import type { Media } from "../../lib/media.ts";
import { requireAllowed } from "../../lib/permissions.ts";
import type { EventBus } from "../realtime/index.ts";
import { writeSession } from "../sessions/index.ts";
import { cartChanged, endedError, orderOfCart } from "./line-writes.ts";
import type { CartReads } from "./reads.ts";
import { cartOf } from "./view.ts";

/**
 * A staple line is carried into the series' next session at that day's price. Its adder or the
 * creator marks it; a session write (sessions/write.ts) with the same locks and checks as sharing
 * a line: one `item.staple` entry, one version step. Marking a line as it already is changes
 * nothing.
 */
export function createLineStaple(deps: {
  db: Db;
  rows: Database["rows"];
  clock: Clock;
  events: Pick<EventBus, "publish">;
  reads: Pick<CartReads, "access">;
  media: Media;
}) {
  const { db, rows, reads, media } = deps;

  async function setStaple(
    cartId: string,
    user: User,
    lineId: string,
    staple: boolean,
  ): Promise<Cart> {
    const [cart] = await rows<{ sessionId: string }>(
      sql`select ${carts.sessionId} as "sessionId" from ${carts} where ${carts.id} = ${cartId}`,
    );
    if (!cart) throw notFound("Cart not found");
    await writeSession(db, deps, {
      sessionId: cart.sessionId,
      userId: user._id,
      action: "cart.changeOwnLine",
      notFound: "Cart not found",
      // Checked below, after the line's own checks, as for sharing a line.
      active: false,
      change: async ({ tx, session, role, now }) => {
        const [line] = await executeRows<{
          addedBy: string;
          staple: boolean;
          productId: string;
          product: string;
          lineOf: string;
        }>(
          tx,
          sql`select l.added_by as "addedBy", l.staple, p.id as "productId", p.name as product,
                u.name as "lineOf"
              from cart_lines l join products p on p.id = l.product_id
                join users u on u.id = l.added_by
              where l.id = ${lineId} and l.cart_id = ${cartId}`,
        );
        if (!line) throw notFound("That item is not in the cart.");
        if (line.addedBy !== user._id) requireAllowed(role, "cart.changeAnyLine", "Cart not found");
        if (session.status !== "active") {
          throw endedError((await executeRows<{ number: number }>(tx, orderOfCart(cartId)))[0]);
        }
        if (line.staple === staple) return { result: false, version: "unchanged" };
        await tx.execute(
          sql`update cart_lines set staple = ${staple}, updated_at = ${now} where id = ${lineId}`,
        );
        const { productId, product, lineOf } = line;
        return {
          result: true,
          activity: { type: "item.staple", details: { productId, product, staple, lineOf } },
        };
      },
      events: (changed, session, lockedCartId) =>
        changed ? cartChanged(session.id, lockedCartId, session.version, false) : [],
    });
    return cartOf(await reads.access({ cartId }, user._id), user._id, media);
  }

  return { setStaple };
}
