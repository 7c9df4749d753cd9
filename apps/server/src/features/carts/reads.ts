import type {
  Action,
  Cart,
  PageQuery,
  Role,
  SessionStatus,
  SessionSummary,
} from "@cartner/contract";
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

/** The caller's carts of active sessions, the latest changed first (a handful: not paged). */
export async function listCarts(deps: ReadDeps, userId: string): Promise<Cart[]> {
  return (await cartsOf(deps, userId, "active")).map((r) =>
    cartOf(r.view, userId, deps.media, deps.clock.now()),
  );
}

/**
 * A page of the caller's carts of ended sessions, the latest changed first: only the page's
 * carts are viewed (cart_view() runs after the limit), whatever the history.
 */
export async function cartHistory(
  deps: ReadDeps,
  userId: string,
  page: PageQuery,
): Promise<{ carts: Cart[]; nextCursor: string | null }> {
  const rows = await cartsOf(deps, userId, "ended", page);
  const shown = rows.slice(0, page.limit);
  return {
    carts: shown.map((r) => cartOf(r.view, userId, deps.media, deps.clock.now())),
    nextCursor: rows.length > page.limit ? shown.at(-1)!.id : null,
  };
}

/** The caller's carts by their sessions' status; with a page, one more than it holds. */
async function cartsOf(
  deps: ReadDeps,
  userId: string,
  status: SessionStatus,
  page?: PageQuery,
): Promise<{ id: string; view: CartView }[]> {
  const after = page?.cursor
    ? sql`and (${carts.updatedAt}, ${carts.id}) < (select c.updated_at, c.id from ${carts} c
        where c.id = ${page.cursor})`
    : sql``;
  return deps.rows<{ id: string; view: CartView }>(sql`
    select chosen.id, cart_view(chosen.id) as view from (
      select ${carts.id} as id, ${carts.updatedAt} as updated_at
      from ${sessionMembers}
      join ${sessions} on ${sessions.id} = ${sessionMembers.sessionId}
      join ${carts} on ${carts.sessionId} = ${sessions.id}
      where ${and(
        eq(sessionMembers.userId, userId),
        isMemberRole(sessionMembers.role),
        eq(sessions.status, status),
      )} ${after}
      order by ${carts.updatedAt} desc, ${carts.id} desc
      ${page ? sql`limit ${page.limit + 1}` : sql``}
    ) chosen
    order by chosen.updated_at desc, chosen.id desc`);
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
  return summaryOf(await accessCart(deps, { sessionId }, userId), userId, deps.media);
}
