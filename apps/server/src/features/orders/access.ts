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

const roleIn = (found: LoadedOrder, userId: string): OrderCaller =>
  found.row.payeeId === userId
    ? "payee"
    : found.payers.some((p) => p.userId === userId)
      ? "payer"
      : found.shares.some((s) => s.userId === userId)
        ? "sharer"
        : "stranger";

/** The order and the caller's part in it; anyone without one gets 404 (ids reveal nothing). */
export async function access(
  deps: Pick<OrderDeps, "db">,
  orderId: string,
  userId: string,
  action:
    | "order.read"
    | "order.pay"
    | "order.confirm"
    | "order.mail"
    | "order.adjust"
    | "order.dispute"
    | "order.payers"
    | "order.reveal",
): Promise<LoadedOrder> {
  const found = await loadOrder(deps.db, orderId);
  requireAllowed(found ? roleIn(found, userId) : null, action, "Order not found");
  return found!;
}
