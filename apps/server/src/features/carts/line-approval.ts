/**
 * "Ask first" budgets: a line that took its adder's share over their budget waits for approval
 * (cart_write_core() marks it, out of the totals and the split). The creator or an approver
 * (the permissions table's `cart.approve`, opened to the session's `approvers`) approves it, and
 * it counts, or declines it, and it goes; each with an optional message to the adder. A session
 * write (the cart row locked first, as by every cart change and by checkout), so approving,
 * declining and the adder's removal of the line end in exactly one outcome, and a checkout takes
 * the line as approved or not at all.
 */
import type { Cart, LineDecisionBody, User } from "@cartner/contract";
import { sql } from "drizzle-orm";
import { executeRows } from "../../db/client.ts";
import { conflict, forbidden, notFound } from "../../lib/errors.ts";
import { later, markLineRead, type NotificationDeps } from "../notifications/index.ts";
import { writeSession } from "../sessions/index.ts";
import type { CartDeps } from "./deps.ts";
import { approvalAudience, lineEvent } from "./approval-events.ts";
import { cartChanged } from "./events.ts";
import { sessionOfCart } from "./line-setting.ts";
import { accessCart } from "./reads.ts";
import { cartOf } from "./view.ts";

type ApprovalDeps = Pick<CartDeps, "db" | "rows" | "clock" | "events" | "media" | "notices">;

/** Approve or decline a waiting line; answers the cart as the caller now sees it. */
export async function decideLine(
  deps: ApprovalDeps,
  target: { cartId: string; lineId: string; user: User },
  decision: "approve" | "decline",
  body: LineDecisionBody,
): Promise<Cart> {
  const { cartId, lineId, user } = target;
  const message = body?.message?.trim() || undefined;
  const { result, session } = await writeSession(deps.db, deps, {
    sessionId: await sessionOfCart(deps, cartId),
    userId: user._id,
    action: "cart.approve",
    notFound: "Cart not found",
    change: async ({ tx, role, now }) => {
      const [line] = await executeRows<{
        waiting: boolean;
        addedBy: string;
        productId: string | null;
        product: string;
        quantity: number;
        lineOf: string;
        hiddenFrom: string[];
      }>(
        tx,
        sql`select l.pending_at is not null as waiting, l.added_by as "addedBy",
              p.id as "productId", coalesce(p.name, l.name) as product, l.quantity,
              u.name as "lineOf", l.hidden_from as "hiddenFrom"
            from cart_lines l left join products p on p.id = l.product_id
              join users u on u.id = l.added_by
            where l.id = ${lineId} and l.cart_id = ${cartId}`,
      );
      // A line hidden from the caller (an approver) does not exist for them.
      if (!line || line.hiddenFrom.includes(user._id)) {
        throw notFound("That item is not in the cart.");
      }
      if (!line.waiting) {
        throw conflict(`${line.product} is not waiting for approval: there is nothing to decide.`);
      }
      // An approver's own line waits for someone else, or the budget would ask nobody. The
      // creator's budget never asks: a waiting line of theirs was given to them by a member who
      // left, and they decide it like any other.
      if (decision === "approve" && line.addedBy === user._id && role !== "creator") {
        throw forbidden(`You added ${line.product}: the creator or another approver approves it.`);
      }
      if (decision === "approve") {
        await tx.execute(
          sql`update cart_lines set pending_at = null, updated_at = ${now} where id = ${lineId}`,
        );
      } else {
        await tx.execute(sql`delete from cart_lines where id = ${lineId}`);
      }
      const { waiting: _waiting, addedBy, hiddenFrom, ...details } = line;
      return {
        result: { addedBy, product: line.product, hiddenFrom },
        // About a private line: hidden from the same members (a declined line is gone by then).
        activity: {
          type: decision === "approve" ? "item.approved" : "item.declined",
          details: { ...details, ...(message ? { message } : {}) },
          lineId,
          hiddenFrom,
        },
      };
    },
    events: (decided, session, lockedCartId) => [
      ...cartChanged(session.id, lockedCartId, session.version, true),
      lineEvent(
        decision === "approve" ? "line.approved" : "line.declined",
        { sessionId: session.id, cartId: lockedCartId, lineId, version: session.version },
        approvalAudience(session, decided.addedBy, decided.hiddenFrom),
        message,
      ),
    ],
  });
  if (deps.notices) tellDecision(deps.notices, user, result, decision, message, session.id);
  // Whoever decided has answered their request for approval of it: it is read.
  await markLineRead(deps, user._id, lineId);
  const view = await accessCart(deps, { cartId }, user._id);
  return cartOf(view, user._id, deps.media, deps.clock.now());
}

/** The adder hears that their line was approved or declined, with the message. */
function tellDecision(
  notices: NotificationDeps,
  by: User,
  line: { addedBy: string; product: string },
  decision: "approve" | "decline",
  message: string | undefined,
  sessionId: string,
): void {
  const done = decision === "approve" ? "approved" : "declined";
  later(notices, {
    kind: "changes",
    userIds: [line.addedBy],
    actorId: by._id,
    // Not with the session's id: its "changes" would fold this into the cart's running notice.
    title: `${line.product} ${done}`,
    body: `${by.name} ${done} ${line.product}${message ? `: "${message}"` : "."}`,
    url: `/cart/${sessionId}`,
  });
}
