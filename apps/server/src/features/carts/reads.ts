import type { Action, Cart, Role, SessionStatus, SessionSummary } from "@cartner/contract";
import { and, eq, sql } from "drizzle-orm";
import { carts, sessionMembers, sessions } from "../../db/schema.ts";
import { isMemberRole, requireAllowed } from "../../lib/permissions.ts";
import type { CartDeps } from "./deps.ts";
import { cartOf, summaryOf, type CartView } from "./view.ts";

// The cart reads: each one statement, built from cart_view() (decision 004).

type ReadDeps = Pick<CartDeps, "rows" | "media" | "clock">;

/**
 * The cart (by its id or its session's) with the caller's role, in one query. Anyone not a
 * member (pending included) gets 404; a member without the needed role gets 403.
 */
export async function accessCart(
  deps: Pick<CartDeps, "rows">,
  where: { cartId: string } | { sessionId: string },
  userId: string,
  action: Action = "session.read",
): Promise<CartView> {
  const [row] = await deps.rows<{ role: Role | null; view: CartView }>(sql`
    select ${sessionMembers.role} as role,
      case when ${isMemberRole(sessionMembers.role)} then cart_view(${carts.id}) end as view
    from ${carts}
    left join ${sessionMembers}
      on ${sessionMembers.sessionId} = ${carts.sessionId} and ${sessionMembers.userId} = ${userId}
    where ${"cartId" in where ? eq(carts.id, where.cartId) : eq(carts.sessionId, where.sessionId)}`);
  requireAllowed(row?.role, action, "cartId" in where ? "Cart not found" : "Session not found");
  return row!.view;
}

/** The caller's carts whose sessions are `status` (active or ended), the latest changed first. */
export async function listCarts(
  deps: ReadDeps,
  userId: string,
  status: SessionStatus,
): Promise<Cart[]> {
  const views = await deps.rows<{ view: CartView }>(sql`
    select cart_view(${carts.id}) as view
    from ${sessionMembers}
    join ${sessions} on ${sessions.id} = ${sessionMembers.sessionId}
    join ${carts} on ${carts.sessionId} = ${sessions.id}
    where ${and(
      eq(sessionMembers.userId, userId),
      isMemberRole(sessionMembers.role),
      eq(sessions.status, status),
    )}
    order by ${carts.updatedAt} desc`);
  return views.map((r) => cartOf(r.view, userId, deps.media, deps.clock.now()));
}

export async function getCart(deps: ReadDeps, cartId: string, userId: string): Promise<Cart> {
  return cartOf(await accessCart(deps, { cartId }, userId), userId, deps.media, deps.clock.now());
}

export async function getCartBySession(
  deps: ReadDeps,
  sessionId: string,
  userId: string,
): Promise<Cart> {
  return cartOf(
    await accessCart(deps, { sessionId }, userId),
    userId,
    deps.media,
    deps.clock.now(),
  );
}

/** The session's summary: its split, totals and members' shares. */
export async function cartSummary(
  deps: Pick<CartDeps, "rows" | "media">,
  sessionId: string,
  userId: string,
): Promise<SessionSummary> {
  return summaryOf(await accessCart(deps, { sessionId }, userId), deps.media);
}
