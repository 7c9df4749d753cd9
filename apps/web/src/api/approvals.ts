import { useMutation, useQueryClient } from "@tanstack/react-query";
import { call } from "../lib/call.ts";
import type { Answer, Reactions } from "../lib/mutation-reactions.ts";
import { cartKeys, settle } from "./carts.ts";
import { notificationKeys } from "./notifications.ts";

/** Approve or decline a line waiting for approval (the creator, an approver). */
export type LineDecision = "approve" | "decline";

/** POST /carts/:cartId/lines/:lineId/approve or /decline, with the approver's optional message. */
export function decideLine(
  cartId: string,
  lineId: string,
  decision: LineDecision,
  message?: string,
) {
  const body = message?.trim() ? { message: message.trim() } : {};
  const options = { params: { cartId, lineId }, body };
  return decision === "approve"
    ? call("POST /api/carts/:cartId/lines/:lineId/approve", options)
    : call("POST /api/carts/:cartId/lines/:lineId/decline", options);
}

/** Decides a waiting line; the server's cart replaces ours, and totals refetch. */
export function useDecideLine(
  cartId: string,
  reactions: Reactions<
    Answer<typeof decideLine>,
    { lineId: string; decision: LineDecision; message?: string }
  >,
) {
  const client = useQueryClient();
  return useMutation({
    ...reactions,
    mutationFn: ({ lineId, decision, message }) => decideLine(cartId, lineId, decision, message),
    onSuccess: async (...args) => {
      await reactions.onSuccess?.(...args);
      settle(client, args[0].cart);
    },
  });
}

/**
 * Decides a waiting line from its notification (the cart is wherever the notification says):
 * the server's cart replaces ours; the notifications and the carts are read again either way
 * (a line decided meanwhile answers 409, and the list then says so).
 */
export function useDecideFromNotification(
  reactions: Reactions<
    Answer<typeof decideLine>,
    { cartId: string; lineId: string; decision: LineDecision }
  >,
) {
  const client = useQueryClient();
  return useMutation({
    ...reactions,
    mutationFn: ({ cartId, lineId, decision }) => decideLine(cartId, lineId, decision),
    onSuccess: async (...args) => {
      await reactions.onSuccess?.(...args);
      settle(client, args[0].cart);
    },
    onSettled: async (...args) => {
      void client.invalidateQueries({ queryKey: notificationKeys.list() });
      void client.invalidateQueries({ queryKey: cartKeys.all });
      await reactions.onSettled?.(...args);
    },
  });
}
