/**
 * The checkout mail to each sharer, as jobs on the mail queue: sent inside the checkout's
 * transaction, sent by the "order" mail handler (registered in src/services.ts), and sent again
 * by the payee when one failed.
 */
import type { Order } from "@cartner/contract";
import { and, eq, inArray, ne } from "drizzle-orm";
import type { Tx } from "../../../db/client.ts";
import { orders, orderShares, users } from "../../../db/schema.ts";
import { access } from "../access.ts";
import type { OrderDeps } from "../deps.ts";
import { orderSeenBy } from "../reading/private.ts";
import { loadOrder, viewOf } from "../reading/view.ts";
import { peopleOf, type OrderRow, type ShareRow } from "../rows.ts";
import { orderMail } from "./mail.ts";

/** Tells the order's people (payee and sharers) that its mails' state changed. */
function announce(deps: Pick<OrderDeps, "events">, row: OrderRow, shares: ShareRow[]) {
  deps.events.publish({
    event: { type: "order.updated", sessionId: row.sessionId, orderId: row.id },
    users: peopleOf(row, shares),
  });
}

/**
 * Takes the order's row before its shares: a share's update moves the order's version
 * (order_part_touch), and every other writer of an order locks its row first, so taking them the
 * other way round could deadlock with an adjustment.
 */
async function lockOrder(tx: Tx, orderId: string): Promise<void> {
  await tx.select({ id: orders.id }).from(orders).where(eq(orders.id, orderId)).for("update");
}

/** Inside the checkout's transaction: one mail job per share. */
export async function mailShares(
  deps: Pick<OrderDeps, "mails">,
  tx: Tx,
  orderId: string,
  userIds: string[],
): Promise<void> {
  for (const userId of userIds) await deps.mails.send("order", { orderId, userId }, { tx });
}

/**
 * The checkout mail to one member (a "mail.send" job). Its share records whether it went: a
 * failure marks it "failed", so the payee sees it and may send it again, and throws, so the
 * queue tries again later; a success marks it "sent", and a job finding it sent does nothing.
 */
export async function sendOrderMail(
  deps: Pick<OrderDeps, "db" | "events" | "media" | "mailer" | "currency">,
  { orderId, userId }: { orderId: string; userId: string },
): Promise<void> {
  const { db } = deps;
  const found = await loadOrder(db, orderId);
  const share = found?.shares.find((s) => s.userId === userId);
  if (!found || !share || share.mail === "sent") return;
  const [to] = await db
    .select({
      userId: users.id,
      name: users.name,
      email: users.email,
      deletedAt: users.deletedAt,
    })
    .from(users)
    .where(eq(users.id, userId));
  // Nobody is left to read it.
  if (!to || to.deletedAt) return;
  const mark = async (mail: "sent" | "failed") => {
    await db.transaction(async (tx) => {
      await lockOrder(tx, orderId);
      await tx
        .update(orderShares)
        .set({ mail })
        .where(
          and(
            eq(orderShares.orderId, orderId),
            eq(orderShares.userId, userId),
            ne(orderShares.mail, "sent"),
          ),
        );
    });
    const fresh = await loadOrder(db, orderId);
    if (fresh) announce(deps, fresh.row, fresh.shares);
  };
  // As the member sees it: a line hidden from them is not in their mail.
  const order = orderSeenBy(viewOf(found), userId);
  try {
    await deps.mailer.send(orderMail(order, to, deps.media.orderPage(orderId), deps.currency));
  } catch (error) {
    await mark("failed");
    throw error;
  }
  await mark("sent");
}

/**
 * Sends the checkout mail again to every share whose mail failed (payee): a new job each, at
 * once (the failed job's own retries may still come; whichever sends first marks it sent).
 */
export async function resendMail(
  deps: Pick<OrderDeps, "db" | "mails">,
  orderId: string,
  payeeId: string,
): Promise<Order> {
  const { db } = deps;
  const { shares } = await access(deps, orderId, payeeId, "order.mail");
  const failed = shares.filter((s) => s.mail === "failed").map((s) => s.userId);
  if (failed.length > 0) {
    await db.transaction(async (tx) => {
      await lockOrder(tx, orderId);
      await tx
        .update(orderShares)
        .set({ mail: "pending" })
        .where(
          and(
            eq(orderShares.orderId, orderId),
            inArray(orderShares.userId, failed),
            eq(orderShares.mail, "failed"),
          ),
        );
      await mailShares(deps, tx, orderId, failed);
    });
    deps.mails.wake();
  }
  return viewOf((await loadOrder(db, orderId))!);
}
