import { useId, useState } from "react";
import { Hourglass } from "lucide-react";
import { APPROVAL_MESSAGE_MAX_LENGTH, type Cart, type CartLine } from "@cartner/contract";
import { useDecideLine, type LineDecision } from "../../api/approvals.ts";
import { failureToast, successToast } from "../../shared/cart-toasts.tsx";
import { DecisionButtons } from "../../shared/DecisionButtons.tsx";

export const WAITING_TEXT = "Waiting for approval";

/**
 * May this member approve or decline waiting lines in this cart: the creator, and the members the
 * creator named as approvers (the permissions table's `cart.approve`, opened by `approver`).
 */
export function canApprove(cart: Cart, userId: string | null | undefined): boolean {
  if (!userId) return false;
  if (cart.sessionId.creator._id === userId) return true;
  const member = cart.sessionId.invitedUsers.find((m) => m.userId === userId);
  return (
    member !== undefined &&
    member.role !== "pending" &&
    (cart.sessionId.approvers ?? []).includes(userId)
  );
}

/** "Waiting for approval": the line is not in the totals until the creator or an approver says. */
export function WaitingBadge() {
  return (
    <span className="inline-flex w-fit items-center gap-1 rounded-full bg-accent-50 px-2 py-0.5 text-xs font-medium text-accent-800 ring-1 ring-accent-200 ring-inset">
      <Hourglass aria-hidden="true" className="size-3" />
      {WAITING_TEXT}
    </span>
  );
}

/** Approve or Decline a waiting line, with an optional message to whoever added it. */
export function ApprovalControls({ cartId, line }: { cartId: string; line: CartLine }) {
  const [message, setMessage] = useState("");
  const inputId = useId();
  const name = line.productId.name;
  const decide = useDecideLine(cartId, {
    onSuccess: (_cart, { decision }) =>
      successToast(decision === "approve" ? `${name} approved` : `${name} declined`),
    onError: (error) => failureToast(`Could not decide on ${name}`, error),
  });
  const send = (decision: LineDecision) => decide.mutate({ lineId: line._id, decision, message });
  return (
    <div className="mt-1 flex flex-wrap items-center gap-2">
      <label htmlFor={inputId} className="sr-only">
        Message to {line.addedBy.name} about {name} (optional)
      </label>
      <input
        id={inputId}
        type="text"
        value={message}
        maxLength={APPROVAL_MESSAGE_MAX_LENGTH}
        placeholder="Message (optional)"
        onChange={(event) => setMessage(event.target.value)}
        className="min-h-8 w-44 rounded-lg px-2 text-xs ring-1 ring-slate-300 ring-inset"
      />
      <DecisionButtons
        size="sm"
        labelOf={(label) => `${label} ${name}`}
        pending={decide.isPending}
        onDecide={send}
      />
    </div>
  );
}
