import { can, ErrorCode, MEMBER_ROLES, type Cart, type Role, type User } from "@cartner/contract";
import { inArray, sql } from "drizzle-orm";
import { executeRows } from "../../db/client.ts";
import { sessionMembers } from "../../db/schema.ts";
import { AppError } from "../../lib/errors.ts";
import { writeLineSetting, type SettingDeps } from "./line-setting.ts";
import { cartChanged } from "./events.ts";
import { uniqueIds } from "./line-sharing.ts";
import { accessCart } from "./reads.ts";
import { cartOf } from "./view.ts";

/** A 400 naming what is wrong with `userIds`, in the validation answer's shape. */
function refused(message: string): AppError {
  return new AppError(400, ErrorCode.VALIDATION, `Invalid userIds: ${message}`, {
    fields: { userIds: message },
  });
}

/**
 * Why these members cannot have the line hidden from them, or null: each must be a member
 * (creator, participant, viewer), and neither the caller, nor the line's adder, nor anyone who
 * sees every private line (the creator, `cart.seePrivate`).
 */
export function hidingRefusal(
  userIds: string[],
  members: { userId: string; role: Role }[],
  callerId: string,
  adderId: string,
): string | null {
  const roleOf = new Map(members.map((m) => [m.userId, m.role]));
  if (userIds.includes(callerId)) return "You cannot hide an item from yourself.";
  if (userIds.includes(adderId)) return "An item is never hidden from whoever added it.";
  if (userIds.some((id) => can(roleOf.get(id), "cart.seePrivate"))) {
    return "An item is never hidden from the session's creator.";
  }
  if (userIds.some((id) => !roleOf.has(id))) {
    return "An item is hidden only from members of the session.";
  }
  return null;
}

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
        executeRows<{ userId: string; role: Role }>(
          tx,
          sql`select user_id as "userId", role from ${sessionMembers}
            where session_id = ${session.id} and ${inArray(sessionMembers.role, [...MEMBER_ROLES])}`,
        ),
        executeRows<{ addedBy: string }>(
          tx,
          sql`select added_by as "addedBy" from cart_lines where id = ${lineId}`,
        ),
      ]);
      const why = hidingRefusal(unique, members, user._id, line!.addedBy);
      if (why) throw refused(why);
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
