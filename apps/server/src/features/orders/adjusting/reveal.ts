/**
 * The payee shows the order's private lines to every member (docs/decisions/049-private-lines.md):
 * the lines' `hiddenFrom` cleared in the order, on the ended cart's lines, and on the activity
 * entries about them, in one session write; an `order.revealed` entry, and `order.updated` to the
 * order's people and `cart.updated` to the session's members (their pages refetch). An order with
 * no private line is answered as it is: nothing written.
 */
import { orderNumber, type Order, type User } from "@cartner/contract";
import { eq, sql } from "drizzle-orm";
import { orders } from "../../../db/schema.ts";
import { writeSession } from "../../sessions/index.ts";
import { access } from "../access.ts";
import type { OrderDeps } from "../deps.ts";
import { loadOrder, viewOf } from "../reading/view.ts";
import { peopleOf } from "../rows.ts";

export async function reveal(
  deps: Pick<OrderDeps, "db" | "clock" | "events">,
  orderId: string,
  user: Pick<User, "_id" | "name">,
): Promise<Order> {
  const found = await access(deps, orderId, user._id, "order.reveal");
  if (found.row.lines.some((l) => l.hiddenFrom?.length)) {
    await writeSession(deps.db, deps, {
      sessionId: found.row.sessionId,
      userId: user._id,
      // access() checked the caller is the payee.
      action: null,
      active: false,
      change: async ({ tx }) => {
        const [row] = await tx.select().from(orders).where(eq(orders.id, orderId)).for("update");
        const hidden = row!.lines.filter((l) => l.hiddenFrom?.length);
        // Revealed meanwhile: nothing to do.
        if (hidden.length === 0) return { result: false, version: "unchanged" as const };
        const lines = row!.lines.map(({ hiddenFrom: _h, lineId: _l, ...l }) => l);
        await tx.update(orders).set({ lines }).where(eq(orders.id, orderId));
        const lineIds = JSON.stringify(hidden.flatMap((l) => (l.lineId ? [l.lineId] : [])));
        const ids = sql`(select json_array_elements_text(${lineIds}::json)::uuid)`;
        await tx.execute(sql`update cart_lines set hidden_from = '{}'
          where cart_id = ${row!.cartId} and id in ${ids}`);
        await tx.execute(sql`update activity set hidden_from = '{}'
          where session_id = ${row!.sessionId} and line_id in ${ids}
            and hidden_from <> '{}'`);
        return {
          result: true,
          activity: {
            type: "order.revealed" as const,
            details: {
              orderId,
              number: orderNumber(row!.number),
              count: hidden.length,
            },
          },
        };
      },
      events: (revealed, session, cartId) =>
        revealed
          ? [
              {
                event: { type: "order.updated", sessionId: session.id, orderId },
                users: peopleOf(found.row, found.shares),
              },
              {
                event: {
                  type: "cart.updated",
                  sessionId: session.id,
                  cartId,
                  version: session.version,
                },
                members: session.id,
              },
            ]
          : [],
    });
  }
  return viewOf((await loadOrder(deps.db, orderId))!);
}
