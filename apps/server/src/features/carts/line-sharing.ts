import { ErrorCode, SHARE_CARRYING_ROLES, type Cart, type User } from "@cartner/contract";
import { inArray, sql } from "drizzle-orm";
import { executeRows } from "../../db/client.ts";
import { sessionMembers } from "../../db/schema.ts";
import { AppError } from "../../lib/errors.ts";
import type { CartDeps } from "./deps.ts";
import { writeLineSetting, type SettingDeps } from "./line-setting.ts";
import { cartChanged } from "./events.ts";
import { accessCart } from "./reads.ts";
import { cartOf } from "./view.ts";
import { tellCartChange } from "../notifications/index.ts";
import { uniqueIds } from "./hiding-rules.ts";

/**
 * Who shares a line in equal parts: its adder or the creator picks creators and participants of
 * the session; [] gives the line back to the session's policy. A session write
 * (sessions/write.ts): the cart row, then the session row, are locked first, as by every cart
 * change and by checkout, so a change racing a checkout either lands before its snapshot or finds
 * the cart completed and changes nothing; one `item.shared` entry, one version step.
 */
export async function setSharedWith(
  deps: SettingDeps & Pick<CartDeps, "notices">,
  cartId: string,
  user: User,
  lineId: string,
  userIds: string[],
): Promise<Cart> {
  await writeLineSetting(
    deps,
    { cartId, user, lineId },
    async ({ tx, session, now }) => {
      const unique = uniqueIds(userIds);
      const payers = await executeRows<{ userId: string }>(
        tx,
        sql`select user_id as "userId" from ${sessionMembers}
          where session_id = ${session.id} and ${inArray(sessionMembers.role, [...SHARE_CARRYING_ROLES])}`,
      );
      const paying = new Set(payers.map((p) => p.userId));
      if (unique.some((id) => !paying.has(id))) {
        throw new AppError(
          400,
          ErrorCode.VALIDATION,
          "Invalid userIds: a line is shared by the session's creator and participants",
          { fields: { userIds: "Only the creator and participants can share a line" } },
        );
      }
      const sharers = `{${unique.join(",")}}`;
      const [shared] = await executeRows<{
        productId: string | null;
        product: string;
        with: string[];
        marked: boolean;
      }>(
        tx,
        sql`with line as (
            update cart_lines set shared_with = ${sharers}::uuid[], updated_at = ${now}
            where id = ${lineId} and cart_id = ${cartId}
            returning product_id, name)
          select p.id as "productId", coalesce(p.name, line.name) as product,
            (select coalesce(jsonb_agg(su.name order by su.name), '[]'::jsonb)
             from users su where su.id = any(${sharers}::uuid[])) as with,
            exists (select 1 from ${sessionMembers}
              where ${sessionMembers.sessionId} = ${session.id} and ${sessionMembers.ready}) as marked
          from line left join products p on p.id = line.product_id`,
      );
      // The line was there under the session's lock, and the gate found the cart open.
      if (!shared) throw new Error(`line ${lineId} went missing under its session's lock`);
      const { marked, ...details } = shared;
      return { result: marked, activity: { type: "item.shared", details } };
    },
    (marked, session, lockedCartId) =>
      cartChanged(session.id, lockedCartId, session.version, marked),
  );
  const view = await accessCart(deps, { cartId }, user._id);
  if (deps.notices) tellCartChange(deps.notices, view, user._id);
  return cartOf(view, user._id, deps.media, deps.clock.now());
}
