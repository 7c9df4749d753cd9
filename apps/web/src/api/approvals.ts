import { useMutation, useQueryClient } from "@tanstack/react-query";
import { call } from "../lib/call.ts";
import type { Answer, Reactions } from "../lib/mutation-reactions.ts";
import { settle } from "./carts.ts";

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
