import { AlertTriangle, Check } from "lucide-react";
import type { CartLine } from "@cartner/contract";
import { useAcknowledgePrice } from "../../api/carts.ts";
import { formatMoney } from "../../lib/format.ts";
import { failureToast } from "../../shared/cart-toasts.tsx";

export const WAS_PREFIX = "was";

/**
 * A line's price: what it costs now, and while the catalog's price changed since the members last
 * saw it, the price they last saw beside it ("was 2.99": the one last acknowledged, else the one
 * it was added at), with a button for a member who pays (`cartId`) to say they have seen it.
 */
export function LinePrice({ line, cartId }: { line: CartLine; cartId?: string | undefined }) {
  return (
    <span className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-slate-500">
      <span>{formatMoney(line.productId.price)} each</span>
      {line.priceChanged && (
        <>
          <span className="font-medium text-accent-800">
            {WAS_PREFIX} <s>{formatMoney(line.seenPrice)}</s>
          </span>
          {cartId && <AcknowledgePrice cartId={cartId} line={line} />}
        </>
      )}
    </span>
  );
}

function AcknowledgePrice({ cartId, line }: { cartId: string; line: CartLine }) {
  const name = line.productId.name;
  const acknowledge = useAcknowledgePrice(cartId, {
    onError: (error) => failureToast(`Could not update ${name}`, error),
  });
  return (
    <button
      type="button"
      className="inline-flex min-h-6 items-center gap-1 rounded-full px-2.5 py-1 font-medium text-primary-700 ring-1 ring-primary-200 ring-inset hover:bg-primary-50 disabled:opacity-40"
      aria-label={`OK, new price of ${name} seen`}
      disabled={acknowledge.isPending}
      onClick={() => acknowledge.mutate(line._id)}
    >
      <Check aria-hidden="true" className="size-3" />
      OK
    </button>
  );
}

/** What checkout will do about a line: left out (no longer available), or short of stock. */
export function stockText(line: CartLine): string | null {
  if (!line.available) return "No longer available: left out at checkout";
  if (line.stockShort > 0) {
    const left = line.quantity - line.stockShort;
    return left === 0 ? "Out of stock" : `Only ${left} left in stock`;
  }
  return null;
}

export function StockFlag({ line }: { line: CartLine }) {
  const text = stockText(line);
  if (!text) return null;
  return (
    <span className="inline-flex w-fit items-center gap-1 rounded-full bg-danger-50 px-2 py-0.5 text-xs font-medium text-danger-700 ring-1 ring-danger-200 ring-inset">
      <AlertTriangle aria-hidden="true" className="size-3" />
      {text}
    </span>
  );
}
