import { Pin, PinOff } from "lucide-react";
import type { CartLine } from "@cartner/contract";
import { useStapleLine } from "../../api/carts.ts";
import { cn } from "../../lib/cn.ts";
import { failureToast, successToast } from "../../shared/cart-toasts.tsx";

export const STAPLE_HINT = "Keep for next week";

/**
 * A line's staple mark: a pressed pin keeps the line for the series' next session, at that day's
 * price. Its adder or the creator toggles it.
 */
export function StapleToggle({ cartId, line }: { cartId: string; line: CartLine }) {
  const name = line.productId.name;
  const toggle = useStapleLine(cartId, {
    onSuccess: (_, { staple }) =>
      successToast(
        staple
          ? `${name} will be carried into the next session.`
          : `${name} will not be carried into the next session.`,
      ),
    onError: (error) => failureToast(`Could not change ${name}`, error),
  });
  const Icon = line.staple ? PinOff : Pin;
  return (
    <button
      type="button"
      aria-pressed={line.staple}
      aria-label={`${STAPLE_HINT}: ${name}`}
      title={line.staple ? "Kept for next week: click to stop" : STAPLE_HINT}
      disabled={toggle.isPending}
      onClick={() => toggle.mutate({ lineId: line._id, staple: !line.staple })}
      className={cn(
        "inline-flex size-9 items-center justify-center rounded-lg transition-colors",
        "disabled:cursor-not-allowed disabled:opacity-40",
        line.staple
          ? "bg-primary-50 text-primary-700 ring-1 ring-primary-200 ring-inset hover:bg-primary-100"
          : "text-slate-600 hover:bg-slate-100 hover:text-ink",
      )}
    >
      <Icon aria-hidden="true" className="size-4" />
    </button>
  );
}

/** The badge a staple line shows wherever it is listed. */
export function StapleBadge() {
  return (
    <span className="inline-flex w-fit items-center gap-1 rounded-full bg-primary-50 px-2 py-0.5 text-xs font-medium text-primary-700 ring-1 ring-primary-200 ring-inset">
      <Pin aria-hidden="true" className="size-3" />
      Staple
    </span>
  );
}
