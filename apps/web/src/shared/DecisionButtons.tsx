import { Check, X } from "lucide-react";
import type { LineDecision } from "../api/approvals.ts";
import { cn } from "../lib/cn.ts";

const DECISIONS = [
  {
    decision: "approve",
    label: "Approve",
    Icon: Check,
    tone: "text-primary-700 ring-primary-200 hover:bg-primary-50",
  },
  {
    decision: "decline",
    label: "Decline",
    Icon: X,
    tone: "text-danger-700 ring-danger-200 hover:bg-danger-50",
  },
] as const;

const SIZES = {
  /** Beside a cart line. */
  sm: { button: "min-h-8 text-xs", icon: "size-3" },
  /** Under a notification. */
  md: { button: "min-h-9 text-sm", icon: "size-4" },
};

/**
 * Approve and Decline for a line waiting for approval, the same wherever it is decided (the cart,
 * a notification); `labelOf` names each button for screen readers ("Approve Toy car").
 */
export function DecisionButtons({
  size,
  labelOf,
  pending,
  onDecide,
}: {
  size: keyof typeof SIZES;
  labelOf: (label: string) => string;
  pending: boolean;
  onDecide: (decision: LineDecision) => void;
}) {
  return DECISIONS.map(({ decision, label, Icon, tone }) => (
    <button
      key={decision}
      type="button"
      aria-label={labelOf(label)}
      disabled={pending}
      onClick={() => onDecide(decision)}
      className={cn(
        "inline-flex items-center gap-1 rounded-full px-3 py-1 font-medium ring-1 ring-inset focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary-600 disabled:opacity-40",
        SIZES[size].button,
        tone,
      )}
    >
      <Icon aria-hidden="true" className={SIZES[size].icon} />
      {label}
    </button>
  ));
}
