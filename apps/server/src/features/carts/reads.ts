import type { Action, Cart, Role, SessionStatus, SessionSummary } from "@cartner/contract";
import { and, eq, sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import type { Clock } from "../../lib/clock.ts";
import { carts, sessionMembers, sessions } from "../../db/schema.ts";
import type { Media } from "../../lib/media.ts";
import { isMemberRole, requireAllowed } from "../../lib/permissions.ts";
import { cartOf, summaryOf, type CartView } from "./view.ts";

/** The cart reads: each one statement, built from cart_view() (decision 004). */
export function createCartReads(deps: { rows: Database["rows"]; media: Media; clock: Clock }) {
  const { rows, media, clock } = deps;

  /**
   * The cart (by its id or its session's) with the caller's role, in one query. Anyone not a
   * member (pending included) gets 404; a member without the needed role gets 403.
   */
  async function access(
    where: { cartId: string } | { sessionId: string },
    userId: string,
    action: Action = "session.read",
  ): Promise<CartView> {
    const [row] = await rows<{ role: Role | null; view: CartView }>(sql`
      select ${sessionMembers.role} as role,
        case when ${isMemberRole(sessionMembers.role)} then cart_view(${carts.id}) end as view
      from ${carts}
      left join ${sessionMembers}
        on ${sessionMembers.sessionId} = ${carts.sessionId} and ${sessionMembers.userId} = ${userId}
      where ${"cartId" in where ? eq(carts.id, where.cartId) : eq(carts.sessionId, where.sessionId)}`);
    requireAllowed(row?.role, action, "cartId" in where ? "Cart not found" : "Session not found");
    return row!.view;
  }

  async function list(userId: string, status: SessionStatus): Promise<Cart[]> {
    const views = await rows<{ view: CartView }>(sql`
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
    return views.map((r) => cartOf(r.view, userId, media, clock.now()));
  }

  async function get(cartId: string, userId: string): Promise<Cart> {
    return cartOf(await access({ cartId }, userId), userId, media, clock.now());
  }

  async function getBySession(sessionId: string, userId: string): Promise<Cart> {
    return cartOf(await access({ sessionId }, userId), userId, media, clock.now());
  }

  async function summary(sessionId: string, userId: string): Promise<SessionSummary> {
    return summaryOf(await access({ sessionId }, userId), media);
  }

  return { access, list, get, getBySession, summary };
}

export type CartReads = ReturnType<typeof createCartReads>;
