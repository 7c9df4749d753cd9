import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { toast } from "../../lib/toast.ts";
import type { Order, SettlementKind } from "@cartner/contract";
import { cartKeys } from "../../api/carts-api.ts";
import { orderKeys, ordersApi } from "../../api/orders-api.ts";
import { sessionKeys } from "../../api/sessions-api.ts";
import { errorMessage, isNotFound } from "../../lib/api.ts";
import { saveFile } from "../../lib/download.ts";
import { receiptFileName } from "./order-model.ts";

export function useOrders() {
  return useQuery({
    queryKey: orderKeys.list(),
    queryFn: ({ signal }) => ordersApi.list(signal),
    select: (body) => body.orders,
  });
}

export function useOrder(id: string) {
  return useQuery({
    queryKey: orderKeys.detail(id),
    queryFn: ({ signal }) => ordersApi.get(id, signal),
    select: (body) => body.order,
    retry: (count, error) => count < 2 && !isNotFound(error),
  });
}

export function useBalances() {
  return useQuery({
    queryKey: orderKeys.balances(),
    queryFn: ({ signal }) => ordersApi.balances(signal),
    select: (body) => body.balances,
  });
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
        ? ordersApi.markPaid(orderId)
        : action.kind === "confirm"
          ? ordersApi.confirm(orderId, action.userId, action.how)
          : ordersApi.resendMail(orderId),
    onSuccess: (body, action) => {
      client.setQueryData(orderKeys.detail(orderId), body);
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

const SETTLED_TOAST: Record<SettlementKind, string> = {
  transfer: "Payment confirmed.",
  cash: "Recorded as paid in cash.",
  written_off: "Share written off.",
};

export function useCheckout(sessionId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => ordersApi.checkout(sessionId),
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
      saveFile(await ordersApi.receipt(order._id), receiptFileName(order));
    },
    onError: (error) => {
      toast.error(errorMessage(error, "We couldn't download the receipt. Try again."));
    },
  });
}
