// Settling up across orders: the fewest transfers that settle the caller's balances, and a
// transfer made outside the app. Both live under the orders' keys, so one invalidation covers them.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { call } from "../lib/call.ts";
import { toast } from "../lib/toast.ts";
import { errorMessage } from "../lib/api.ts";
import { orderKeys } from "./orders.ts";

export function fetchSettlePlan(signal?: AbortSignal) {
  return call("GET /api/balances/settle-plan", { query: {} }, { signal });
}

/** The caller paid `to` this much outside the app. */
export function recordTransfer(to: string, amount: number) {
  return call("POST /api/balances/transfers", { body: { to, amount } });
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
