import { MEMBER_ROLES, type Role } from "@cartner/contract";
import type { Published } from "../live/index.ts";

/** Who hears a session's event: named users, or the session's members read when it is delivered. */
export type Audience = Pick<Published, "users" | "members">;

/**
 * The most members an event names itself (a NOTIFY payload holds at most 8,000 bytes, a user id
 * 39 of them as JSON); a larger session's members are read when it is delivered.
 */
export const NAMED_MEMBERS_MAX = 64;

/**
 * Who hears of a committed change: the members (not pending requesters) that the change's own
 * statement read with it, named in the event, so delivering it reads nothing more. A member who
 * left after the change committed may still hear of that change, none after; a member who joined
 * after it reads the cart as it is then. Without that list, or beyond NAMED_MEMBERS_MAX, the
 * session's members when the event is delivered.
 */
export function audienceOf(
  sessionId: string,
  members?: ReadonlyArray<{ userId: string; role: Role }>,
): Audience {
  if (!members) return { members: sessionId };
  const ids = members
    .filter((m) => (MEMBER_ROLES as readonly Role[]).includes(m.role))
    .map((m) => m.userId);
  return ids.length <= NAMED_MEMBERS_MAX ? { users: ids } : { members: sessionId };
}

/**
 * The live events of a committed cart change: cart.updated, and session.updated too while a
 * member's ready mark is set (`marked`), since the change may have moved their share's total and
 * so cleared their mark. `to`: who hears them (audienceOf()), the session's members by default.
 */
export function cartChanged(
  sessionId: string,
  cartId: string,
  version: number,
  marked: boolean,
  to: Audience = { members: sessionId },
): Published[] {
  const types = marked
    ? (["cart.updated", "session.updated"] as const)
    : (["cart.updated"] as const);
  return types.map((type) => ({ event: { type, sessionId, cartId, version }, ...to }));
}
