import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import type { Order, PaymentDetails, PaymentDetailsBody } from "@cartner/contract";
import { call } from "../lib/call.ts";
import { errorMessage, isNotFound } from "../lib/api.ts";
import { saveFile } from "../lib/download.ts";
import { setCurrency } from "../lib/format.ts";
import type { Reactions } from "../lib/mutation-reactions.ts";
import { toast } from "../lib/toast.ts";

// The deployment's currency, payment details, what to pay, and the orders as CSV.

export function fetchConfig(signal?: AbortSignal) {
  return call("GET /api/config", {}, { signal, auth: false });
}

export function fetchPaymentDetails(signal?: AbortSignal) {
  return call("GET /api/users/me/payment-details", {}, { signal });
}

export function savePaymentDetails(body: PaymentDetailsBody) {
  return call("PUT /api/users/me/payment-details", { body });
}

export function fetchPayInfo(id: string, signal?: AbortSignal) {
  return call("GET /api/orders/:id/pay-info", { params: { id } }, { signal });
}

/** All of the caller's orders as CSV (the files need the bearer token: no plain link). */
export function fetchOrdersCsv() {
  return call(
    "GET /api/orders/export.csv",
    {},
    { responseType: "blob" },
  ) as unknown as Promise<Blob>;
}

export function fetchOrderCsv(id: string) {
  return call(
    "GET /api/orders/:id/export.csv",
    { params: { id } },
    { responseType: "blob" },
  ) as unknown as Promise<Blob>;
}

export const paymentKeys = {
  config: () => ["config"] as const,
  details: () => ["payment-details"] as const,
  /** Under ["orders"]: the order's live events and settlements refetch it with the order. */
  payInfo: (orderId: string) => ["orders", "pay-info", orderId] as const,
};

/**
 * Asks the server for its currency once per page load and formats every amount with it (the
 * layout redraws when it differs from the one remembered from the last visit).
 */
export function useDeploymentCurrency() {
  const query = useQuery({
    queryKey: paymentKeys.config(),
    queryFn: ({ signal }) => fetchConfig(signal),
    staleTime: Infinity,
    gcTime: Infinity,
  });
  const currency = query.data?.currency;
  useEffect(() => {
    if (currency) setCurrency(currency);
  }, [currency]);
}

export function usePaymentDetails() {
  return useQuery({
    queryKey: paymentKeys.details(),
    queryFn: ({ signal }) => fetchPaymentDetails(signal),
    select: (body) => body.details,
  });
}

export function useSavePaymentDetails(
  reactions: Reactions<{ details: PaymentDetails }, PaymentDetailsBody>,
) {
  const client = useQueryClient();
  return useMutation({
    ...reactions,
    mutationFn: savePaymentDetails,
    onSuccess: (answer, ...rest) => {
      client.setQueryData(paymentKeys.details(), answer);
      return reactions.onSuccess?.(answer, ...rest);
    },
  });
}

export function usePayInfo(orderId: string, enabled: boolean) {
  return useQuery({
    ...queryOptions({
      queryKey: paymentKeys.payInfo(orderId),
      queryFn: ({ signal }) => fetchPayInfo(orderId, signal),
      retry: (count, error) => count < 2 && !isNotFound(error),
    }),
    enabled,
  });
}

/** Downloads one order's CSV, or all of the caller's (no order). */
export function useCsvDownload() {
  return useMutation({
    mutationFn: async (order?: Pick<Order, "_id" | "number">) => {
      if (order) saveFile(await fetchOrderCsv(order._id), `cartner-${order.number}.csv`);
      else saveFile(await fetchOrdersCsv(), "cartner-orders.csv");
    },
    onError: (error) => {
      toast.error(errorMessage(error, "We couldn't prepare the CSV file. Try again."));
    },
  });
}
