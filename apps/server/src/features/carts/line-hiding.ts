import type { Cart, User } from "@cartner/contract";
import { sql } from "drizzle-orm";
import { executeRows } from "../../db/client.ts";
import { sessionMembers } from "../../db/schema.ts";
import { hidingRefusal, hidingRefused, membersOf, uniqueIds } from "./hiding-rules.ts";
import { writeLineSetting, type SettingDeps } from "./line-setting.ts";
import { cartChanged } from "./events.ts";
import { accessCart } from "./reads.ts";
import { cartOf } from "./view.ts";

/**
 * Hide a line from chosen members (a present): its adder or the creator picks them; [] shows it
 * to everyone again. For those members the line, and every activity entry about it, no longer
 * exists; its cost stays in the totals and the shares. A session write with the same locks and
 * checks as sharing a line (`cart.hideLine` for the adder, `cart.seePrivate` on another's line);
 * one version step, and no activity entry: the entry would itself tell who the line is for.
 */
export async function setHiddenFrom(
  deps: SettingDeps,
  cartId: string,
  user: User,
  lineId: string,
  userIds: string[],
): Promise<Cart> {
  await writeLineSetting(
    deps,
    { cartId, user, lineId, actions: { own: "cart.hideLine", any: "cart.seePrivate" } },
    async ({ tx, session, now }) => {
      const unique = uniqueIds(userIds);
      const [members, [line]] = await Promise.all([
        membersOf(tx, session.id),
        executeRows<{ addedBy: string }>(
          tx,
          sql`select added_by as "addedBy" from cart_lines where id = ${lineId}`,
        ),
      ]);
      const why = hidingRefusal(unique, members, user._id, line!.addedBy);
      if (why) throw hidingRefused(why);
      const hidden = `{${unique.join(",")}}`;
      const [marked] = await executeRows<{ marked: boolean }>(
        tx,
        sql`with line as (
            update cart_lines set hidden_from = ${hidden}::uuid[], updated_at = ${now}
            where id = ${lineId} and cart_id = ${cartId} returning id),
          entries as (
            update activity set hidden_from = ${hidden}::uuid[]
            where session_id = ${session.id} and line_id = ${lineId} returning seq)
          select exists (select 1 from ${sessionMembers}
            where ${sessionMembers.sessionId} = ${session.id} and ${sessionMembers.ready}) as marked
          from line`,
      );
      return { result: marked!.marked };
    },
    (marked, session, lockedCartId) =>
      cartChanged(session.id, lockedCartId, session.version, marked),
  );
  const view = await accessCart(deps, { cartId }, user._id);
  return cartOf(view, user._id, deps.media, deps.clock.now());
}
