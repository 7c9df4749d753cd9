import type { Action, User } from "@cartner/contract";
import { sql } from "drizzle-orm";
import { executeRows } from "../../db/client.ts";
import { carts } from "../../db/schema.ts";
import { conflict, notFound } from "../../lib/errors.ts";
import { requireAllowed } from "../../lib/permissions.ts";
import { writeSession, type SessionWrite } from "../sessions/index.ts";
import type { CartDeps } from "./deps.ts";
import { ADDER_LEFT_MESSAGE } from "./line-writes.ts";

type Change<R> = SessionWrite<R>["change"];

/**
 * The actions a line's setting needs: `own` of the line's adder (the gate's), `any` of anyone
 * else (the creator's): by default changing a line.
 */
export interface LineActions {
  own: Action;
  any: Action;
}

/** What a change to a line's settings needs of the cart deps (the session write, then the view). */
export type SettingDeps = Pick<CartDeps, "db" | "rows" | "clock" | "events" | "media">;

/** The session a cart belongs to (404 for an unknown cart), which a session write locks. */
export async function sessionOfCart(deps: Pick<CartDeps, "rows">, cartId: string): Promise<string> {
  const [cart] = await deps.rows<{ sessionId: string }>(
    sql`select ${carts.sessionId} as "sessionId" from ${carts} where ${carts.id} = ${cartId}`,
  );
  if (!cart) throw notFound("Cart not found");
  return cart.sessionId;
}

/**
 * A change to one line's settings (who shares it, whether it is a staple) as a session write
 * (sessions/write.ts): the cart row, then the session row, are locked first, as by every cart
 * change and by checkout, so a change racing a checkout lands before its snapshot or is refused.
 * The line must be in the cart (404, even in an ended session), the caller its adder or allowed
 * to change any line, and the cart open (the gate's refusal otherwise: CART_LOCKED once checked
 * out or past the deadline); then `change` runs.
 */
export async function writeLineSetting<R>(
  deps: Pick<CartDeps, "db" | "rows" | "clock" | "events">,
  target: { cartId: string; user: User; lineId: string; actions?: LineActions },
  change: Change<R>,
  events: SessionWrite<R>["events"],
): Promise<void> {
  const { cartId, user, lineId } = target;
  const actions = target.actions ?? { own: "cart.changeOwnLine", any: "cart.changeAnyLine" };
  await writeSession(deps.db, deps, {
    sessionId: await sessionOfCart(deps, cartId),
    userId: user._id,
    action: actions.own,
    notFound: "Cart not found",
    // The gate's refusal for an ended or closed cart comes after the line's own checks (`closed`).
    active: false,
    change: async (ctx) => {
      const [line] = await executeRows<{ addedBy: string; adderIsMember: boolean }>(
        ctx.tx,
        sql`select l.added_by as "addedBy", exists (select 1 from session_members m
            where m.session_id = ${ctx.session.id} and m.user_id = l.added_by
              and m.role <> 'pending') as "adderIsMember"
          from cart_lines l where l.id = ${lineId} and l.cart_id = ${cartId}`,
      );
      if (!line) throw notFound("That item is not in the cart.");
      if (line.addedBy !== user._id) {
        requireAllowed(ctx.role, actions.any, "Cart not found");
      }
      if (!line.adderIsMember) throw conflict(ADDER_LEFT_MESSAGE);
      if (ctx.closed) throw ctx.closed;
      const changed = await change(ctx);
      // The entries are about this line: hidden from whomever the line is.
      const activity = [changed.activity ?? []].flat().map((e) => ({ lineId, ...e }));
      return { ...changed, activity };
    },
    ...(events ? { events } : {}),
  });
}
