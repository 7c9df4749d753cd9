import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { AdjustmentBody, Order, SetPayersBody, SettlementKind } from "@cartner/contract";
import { call } from "../lib/call.ts";
import { toast } from "../lib/toast.ts";
import { errorMessage, isNotFound } from "../lib/api.ts";
import { saveFile } from "../lib/download.ts";
import { cartKeys } from "./carts.ts";
import { sessionKeys } from "./sessions-calls.ts";

// Checkout, orders, settling up, receipts and balances.

/** Checks out; `payers`: who pays the shop (absent: the creator, the payee, pays it all). */
export function checkout(sessionId: string, payers?: SetPayersBody["payers"]) {
  return call("POST /api/sessions/:id/checkout", {
    params: { id: sessionId },
    body: payers ? { payers } : undefined,
  });
}

export function fetchOrders(signal?: AbortSignal) {
  return call("GET /api/orders", {}, { signal });
}

export function fetchOrder(id: string, signal?: AbortSignal) {
  return call("GET /api/orders/:id", { params: { id } }, { signal });
}

/** The order's book, oldest first (the page's history; a few dozen entries). */
export function fetchOrderEntries(id: string, signal?: AbortSignal) {
  return call("GET /api/orders/:id/entries", { params: { id }, query: { limit: 200 } }, { signal });
}

export function markOrderPaid(id: string) {
  return call("POST /api/orders/:id/paid", { params: { id } });
}

/** Settles a member's share (payee): a confirmed transfer, or cash, or written off. */
export function confirmShare(id: string, userId: string, how: SettlementKind = "transfer") {
  return call("POST /api/orders/:id/confirm/:userId", { params: { id, userId }, body: { how } });
}

export function resendOrderMail(id: string) {
  return call("POST /api/orders/:id/mail", { params: { id } });
}

/** Records what the shop delivered and charged (payee); the answer is the re-split order. */
export function adjustOrder(id: string, body: AdjustmentBody) {
  return call("POST /api/orders/:id/adjustments", { params: { id }, body });
}

export function disputeAdjustment(id: string, adjId: string, comment: string) {
  return call("POST /api/orders/:id/adjustments/:adjId/dispute", {
    params: { id, adjId },
    body: { comment },
  });
}

export function fetchBalances(signal?: AbortSignal) {
  return call("GET /api/balances", {}, { signal });
}

/** Who paid the shop (payee): amounts adding up to the total. */
export function setPayers(id: string, body: SetPayersBody) {
  return call("PUT /api/orders/:id/payers", { params: { id }, body });
}

export function fetchSettlePlan(signal?: AbortSignal) {
  return call("GET /api/balances/settle-plan", { query: {} }, { signal });
}

/** The caller paid `to` this much outside the app. */
export function recordTransfer(to: string, amount: number) {
  return call("POST /api/balances/transfers", { body: { to, amount } });
}

/** The receipt as a file (the route needs the bearer token, so a plain link cannot fetch it). */
export function fetchReceipt(id: string) {
  return call(
    "GET /api/orders/:id/receipt.pdf",
    { params: { id } },
    { responseType: "blob" },
  ) as unknown as Promise<Blob>;
}

/** Everything order-related lives under ["orders"], so one invalidation covers it. */
export const orderKeys = {
  all: ["orders"] as const,
  list: () => ["orders", "list"] as const,
  detail: (id: string) => ["orders", "detail", id] as const,
  /** Under the order's key: whatever refreshes the order refreshes its book. */
  entries: (id: string) => ["orders", "detail", id, "entries"] as const,
  balances: () => ["orders", "balances"] as const,
  settlePlan: () => ["orders", "balances", "plan"] as const,
};

export function receiptFileName(order: Pick<Order, "number">): string {
  return `cartner-${order.number}.pdf`;
}

// What the order hooks read; also for prefetching and for reading the cache outside React.

export function ordersQuery() {
  return queryOptions({
    queryKey: orderKeys.list(),
    queryFn: ({ signal }) => fetchOrders(signal),
  });
}

export function orderQuery(id: string) {
  return queryOptions({
    queryKey: orderKeys.detail(id),
    queryFn: ({ signal }) => fetchOrder(id, signal),
    retry: (count, error) => count < 2 && !isNotFound(error),
  });
}

export function orderEntriesQuery(id: string) {
  return queryOptions({
    queryKey: orderKeys.entries(id),
    queryFn: ({ signal }) => fetchOrderEntries(id, signal).then((body) => body.entries),
  });
}

export function balancesQuery() {
  return queryOptions({
    queryKey: orderKeys.balances(),
    queryFn: ({ signal }) => fetchBalances(signal),
  });
}

export function useSettlePlan() {
  return useQuery({
    queryKey: orderKeys.settlePlan(),
    queryFn: ({ signal }) => fetchSettlePlan(signal),
    select: (body) => body.transfers,
  });
}

/** Records a transfer the user made; shares, balances and the plan follow. */
export function useRecordTransfer() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ to, amount }: { to: string; amount: number }) => recordTransfer(to, amount),
    onSuccess: (body) => {
      void client.invalidateQueries({ queryKey: orderKeys.all });
      const count = body.settled.length;
      toast.success(`Transfer recorded: ${count} ${count === 1 ? "order" : "orders"} settled.`);
    },
    onError: (error) => {
      toast.error(errorMessage(error, "That did not work. Try again."));
    },
  });
}

/** The payee says who paid the shop; the answer is the new order. */
export function useSetPayers(orderId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: SetPayersBody) => setPayers(orderId, body),
    onSuccess: (body) => {
      client.setQueryData(orderKeys.detail(orderId), body);
      void client.invalidateQueries({ queryKey: orderKeys.entries(orderId) });
      void client.invalidateQueries({ queryKey: orderKeys.list() });
      void client.invalidateQueries({ queryKey: orderKeys.balances() });
      toast.success("Payers saved.");
    },
  });
}

export function useOrders() {
  return useQuery({ ...ordersQuery(), select: (body) => body.orders });
}

/** How many orders the user has (the same query as the list). */
export function useOrderCount() {
  return useQuery({ ...ordersQuery(), select: (body) => body.orders.length });
}

export function useOrder(id: string) {
  return useQuery({ ...orderQuery(id), select: (body) => body.order });
}

/** The order's book, for its history (refreshed with the order). */
export function useOrderEntries(id: string) {
  return useQuery(orderEntriesQuery(id));
}

export function useBalances() {
  return useQuery({ ...balancesQuery(), select: (body) => body.balances });
}

/** The order a session's checkout became, once there is one. */
export function useSessionOrder(sessionId: string) {
  const orders = useOrders();
  return orders.data?.find((order) => order.sessionId === sessionId);
}

/** Settlement changes: the answer is the new order; balances and lists follow. */
export function useOrderAction(orderId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (
      action:
        | { kind: "paid" }
        | { kind: "confirm"; userId: string; how?: SettlementKind }
        | { kind: "mail" },
    ) =>
      action.kind === "paid"
        ? markOrderPaid(orderId)
        : action.kind === "confirm"
          ? confirmShare(orderId, action.userId, action.how)
          : resendOrderMail(orderId),
    onSuccess: (body, action) => {
      client.setQueryData(orderKeys.detail(orderId), body);
      void client.invalidateQueries({ queryKey: orderKeys.entries(orderId) });
      void client.invalidateQueries({ queryKey: orderKeys.list() });
      void client.invalidateQueries({ queryKey: orderKeys.balances() });
      if (action.kind === "paid") toast.success("Marked as paid. The payee will confirm it.");
      if (action.kind === "confirm") toast.success(SETTLED_TOAST[action.how ?? "transfer"]);
      if (action.kind === "mail") toast.success("Sending the email again.");
    },
    onError: (error) => {
      toast.error(errorMessage(error, "That did not work. Try again."));
    },
  });
}

/**
 * Adjustments and disputes: the answer is the new order; lists and balances follow. Errors stay
 * with the form that sent them (a 400 names the field).
 */
export function useAdjustmentAction(orderId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (
      action:
        | { kind: "adjust"; body: AdjustmentBody }
        | { kind: "dispute"; adjId: string; comment: string },
    ) =>
      action.kind === "adjust"
        ? adjustOrder(orderId, action.body)
        : disputeAdjustment(orderId, action.adjId, action.comment),
    onSuccess: (body, action) => {
      client.setQueryData(orderKeys.detail(orderId), body);
      void client.invalidateQueries({ queryKey: orderKeys.entries(orderId) });
      void client.invalidateQueries({ queryKey: orderKeys.list() });
      void client.invalidateQueries({ queryKey: orderKeys.balances() });
      toast.success(
        action.kind === "adjust"
          ? "Change recorded: the shares are re-split."
          : "Dispute sent to the payee.",
      );
    },
  });
}

const SETTLED_TOAST: Record<SettlementKind, string> = {
  transfer: "Payment confirmed.",
  cash: "Recorded as paid in cash.",
  written_off: "Share written off.",
};

export function useCheckout(sessionId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (payers?: SetPayersBody["payers"]) => checkout(sessionId, payers),
    onSuccess: (body) => {
      client.setQueryData(orderKeys.detail(body.order._id), body);
      void client.invalidateQueries({ queryKey: orderKeys.all });
      void client.invalidateQueries({ queryKey: cartKeys.all });
      void client.invalidateQueries({ queryKey: sessionKeys.all });
    },
  });
}

/** Downloads the receipt PDF; progress is the caller's pending state. */
export function useReceiptDownload() {
  return useMutation({
    mutationFn: async (order: Pick<Order, "_id" | "number">) => {
      saveFile(await fetchReceipt(order._id), receiptFileName(order));
    },
    onError: (error) => {
      toast.error(errorMessage(error, "We couldn't download the receipt. Try again."));
    },
  });
}
