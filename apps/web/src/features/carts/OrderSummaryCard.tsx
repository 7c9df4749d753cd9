import { useId } from "react";
import { useNavigate } from "../../lib/router.tsx";
import { ArrowRight } from "lucide-react";
import { FEE_RATE_PERCENT, TAX_RATE_PERCENT } from "@cartner/contract";
import { Button } from "../../components/ui/index.ts";
import { cn } from "../../lib/cn.ts";
import { formatMoney } from "../../lib/format.ts";
import { cartOrderSummary, unsentNote } from "./cart-model.ts";

export const SESSION_ID_MISSING = "Session ID is missing.";

export function summaryPath(sessionId: string): string {
  return `/session-summary/${encodeURIComponent(sessionId)}`;
}

/** Subtotal, fees, tax and total as a definition list (two decimals, Intl). */
export function TotalsList({
  totals,
  className,
}: {
  totals: { subtotal: number; fees: number; tax: number; total: number };
  className?: string;
}) {
  const rows = [
    { label: "Subtotal", value: totals.subtotal },
    { label: `Fees (${FEE_RATE_PERCENT}%)`, value: totals.fees },
    { label: `Tax (${TAX_RATE_PERCENT}%)`, value: totals.tax },
  ];
  return (
    <dl className={cn("flex flex-col gap-2 text-sm", className)}>
      {rows.map((row) => (
        <div key={row.label} className="flex items-baseline justify-between gap-3">
          <dt className="text-slate-600">{row.label}</dt>
          <dd className="font-medium text-ink tabular-nums">{formatMoney(row.value)}</dd>
        </div>
      ))}
      <div className="mt-1 flex items-baseline justify-between gap-3 border-t border-slate-200 pt-3">
        <dt className="font-semibold text-ink">Total</dt>
        <dd className="font-display text-lg font-bold text-ink tabular-nums">
          {formatMoney(totals.total)}
        </dd>
      </div>
    </dl>
  );
}

/** The order summary card, with Proceed to Checkout (to the session summary). */
export function OrderSummaryCard({
  totalPrice,
  unsent = 0,
  sessionId,
  sessionName,
}: {
  totalPrice: number;
  /** The user's changes drawn into the total that the server has not confirmed yet. */
  unsent?: number;
  sessionId: string | undefined;
  sessionName: string;
}) {
  const navigate = useNavigate();
  const titleId = useId();
  const totals = cartOrderSummary(totalPrice);

  function checkout() {
    if (!sessionId) {
      window.alert(SESSION_ID_MISSING);
      return;
    }
    navigate(summaryPath(sessionId));
  }

  return (
    <section
      aria-labelledby={titleId}
      className="flex flex-col gap-4 self-start rounded-2xl bg-slate-50 p-4 ring-1 ring-slate-200 ring-inset sm:p-5"
    >
      <h3 id={titleId} className="text-base font-bold">
        Order Summary <span className="sr-only">for {sessionName}</span>
      </h3>
      <TotalsList totals={totals} />
      {unsent > 0 && <p className="text-xs text-slate-500">{unsentNote(unsent)}</p>}
      <Button fullWidth onClick={checkout}>
        Proceed to Checkout <span className="sr-only">for {sessionName}</span>
        <ArrowRight aria-hidden="true" className="size-4" />
      </Button>
      <p className="text-xs text-slate-500">
        Next: everyone&apos;s fair share of the total, as the session splits it.
      </p>
    </section>
  );
}
