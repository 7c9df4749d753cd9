import { History } from "lucide-react";
import type { Order } from "@cartner/contract";
import {
  Badge,
  InlineEmpty,
  InlineLoadError,
  InlineLoading,
  Panel,
} from "../../components/ui/index.ts";
import { errorMessage } from "../../lib/api.ts";
import { formatDateTime, formatMoney } from "../../lib/format.ts";
import { useOrderEntries } from "../../api/orders.ts";
import { entryText } from "./entry-text.ts";

/**
 * The order's book, oldest first: every debt, payment, settlement and correction between two of
 * its people, as every figure on the page is summed from it. Live with the order.
 */
export function OrderHistory({ order, className }: { order: Order; className?: string }) {
  const entries = useOrderEntries(order._id);
  let body;
  // A claim waits until an entry confirms or voids it.
  const settled = new Set(entries.data?.flatMap((e) => (e.ref ? [e.ref] : [])));
  if (entries.data && entries.data.length > 0) {
    body = (
      <ol aria-label="History" className="flex flex-col divide-y divide-slate-100">
        {entries.data.map((e) => (
          <li key={e._id} className="flex flex-wrap items-baseline justify-between gap-x-3 py-2">
            <span className="min-w-0 break-words text-slate-800">
              {entryText(e, order, formatMoney)}
              {e.note && <span className="text-slate-500"> · {e.note}</span>}
              {e.kind === "paid" && !settled.has(e._id) && (
                <Badge tone="neutral" className="ml-2">
                  waiting
                </Badge>
              )}
            </span>
            <span className="text-xs text-slate-500">
              {e.by.name} · {formatDateTime(e.at)}
            </span>
          </li>
        ))}
      </ol>
    );
  } else if (entries.data) {
    body = (
      <InlineEmpty icon={<History aria-hidden="true" className="size-4" />}>
        Nothing is owed on this order: the payee paid for everything they bought.
      </InlineEmpty>
    );
  } else if (entries.isError) {
    body = (
      <InlineLoadError
        message={errorMessage(entries.error, "We couldn't load the history.")}
        onRetry={() => void entries.refetch()}
        retrying={entries.isFetching}
      />
    );
  } else body = <InlineLoading>Loading the history…</InlineLoading>;
  return (
    <Panel
      title="History"
      icon={History}
      description="Every amount owed, paid and settled on this order, oldest first."
      className={className}
    >
      {body}
    </Panel>
  );
}
