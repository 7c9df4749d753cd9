/**
 * Who acts on an order, and the one check of their part in it: the permissions table's orders
 * callers (payee, payer, sharer, stranger), read from the order as loaded.
 */
import type { OrderCaller, User } from "@cartner/contract";
import { requireAllowed } from "../../lib/permissions.ts";
import type { OrderDeps } from "./deps.ts";
import { loadOrder, type LoadedOrder } from "./reading/view.ts";

/** Who acts, and the request's Idempotency-Key (kept with the entries). */
export interface Actor {
  user: Pick<User, "_id" | "name">;
  key?: string | null | undefined;
}

/**
 * The caller's part in the order for this action. The payee runs the order, so is "payee" to every
 * action but settling: only those who paid the shop settle what is owed to them, and a payee who
 * named other payers and not themself paid nothing, so to `order.confirm` they are a member with a
 * share (refused as the table refuses one).
 */
const roleIn = (found: LoadedOrder, userId: string, action: OrderAction): OrderCaller => {
  const paid = found.payers.some((p) => p.userId === userId);
  if (found.row.payeeId === userId) {
    const paidNothing = found.payers.length > 0 && !paid;
    return action === "order.confirm" && paidNothing ? "sharer" : "payee";
  }
  if (paid) return "payer";
  return found.shares.some((s) => s.userId === userId) ? "sharer" : "stranger";
};

type OrderAction =
  | "order.read"
  | "order.pay"
  | "order.confirm"
  | "order.mail"
  | "order.adjust"
  | "order.dispute"
  | "order.payers"
  | "order.reveal";

/** The order and the caller's part in it; anyone without one gets 404 (ids reveal nothing). */
export async function access(
  deps: Pick<OrderDeps, "db">,
  orderId: string,
  userId: string,
  action: OrderAction,
): Promise<LoadedOrder> {
  const found = await loadOrder(deps.db, orderId);
  requireAllowed(found ? roleIn(found, userId, action) : null, action, "Order not found");
  return found!;
}
