import type { Cart, User } from "@cartner/contract";
import { sql } from "drizzle-orm";
import { executeRows } from "../../db/client.ts";
import { notFound } from "../../lib/errors.ts";
import { writeLineSetting, type SettingDeps } from "./line-setting.ts";
import { cartChanged } from "./events.ts";
import { accessCart } from "./reads.ts";
import { cartOf } from "./view.ts";

/**
 * A staple line is carried into the series' next session at that day's price. Its adder or the
 * creator marks it; a session write (sessions/write.ts) with the same locks and checks as sharing
 * a line: one `item.staple` entry, one version step. Marking a line as it already is changes
 * nothing.
 */
export async function setStaple(
  deps: SettingDeps,
  cartId: string,
  user: User,
  lineId: string,
  staple: boolean,
): Promise<Cart> {
  await writeLineSetting(
    deps,
    { cartId, user, lineId },
    async ({ tx, now }) => {
      const [line] = await executeRows<{
        staple: boolean;
        productId: string | null;
        product: string;
        lineOf: string;
      }>(
        tx,
        sql`select l.staple, p.id as "productId", coalesce(p.name, l.name) as product,
              u.name as "lineOf"
            from cart_lines l left join products p on p.id = l.product_id
              join users u on u.id = l.added_by
            where l.id = ${lineId}`,
      );
      if (!line) throw notFound("That item is not in the cart.");
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
    (changed, session, lockedCartId) =>
      changed ? cartChanged(session.id, lockedCartId, session.version, false) : [],
  );
  const view = await accessCart(deps, { cartId }, user._id);
  return cartOf(view, user._id, deps.media, deps.clock.now());
}
