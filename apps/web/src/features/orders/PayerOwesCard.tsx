/**
 * A payer without a share who owes the reader on the order (the payee at weight 0 who paid the
 * shop with others and was paid beyond their part): what they owe the reader, and the settle
 * actions of a share card. Shown only while they owe the reader something.
 */
import { Badge } from "../../components/ui/index.ts";
import type { Order } from "@cartner/contract";
import { formatMoney } from "../../lib/format.ts";
import { useOrderAction } from "../../api/orders.ts";
import { STATUS_LABEL, type OwedWithoutShare } from "./order-model.ts";
import { SettleActions } from "./SettleActions.tsx";

export function PayerOwesCard({ order, owing }: { order: Order; owing: OwedWithoutShare }) {
  const action = useOrderAction(order._id);
  const amount = formatMoney(owing.owed / 100);
  return (
    <li
      data-testid="order-payer-owes"
      className="flex flex-col gap-3 rounded-2xl bg-slate-50 p-4 ring-1 ring-slate-200 ring-inset"
    >
      <div className="flex items-baseline justify-between gap-3">
        <p className="min-w-0 font-semibold break-words text-ink">
          {owing.name}
          <span className="font-normal text-slate-500">
            {owing.userId === order.payee._id ? " · payee" : " · payer"}
          </span>
        </p>
        <p className="font-display text-lg font-bold text-ink tabular-nums">
          <span className="sr-only">Owes you </span>
          {amount}
        </p>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <Badge tone="neutral">No share</Badge>
        {owing.claimed > 0 && <Badge tone="accent">{STATUS_LABEL.paid}</Badge>}
      </div>
      <p className="text-sm text-slate-600">
        {owing.name} paid the shop and has no share in this order: they owe you {amount}
        {owing.back ? " back" : ""}.
      </p>
      <SettleActions
        action={action}
        person={owing}
        owedToMe={owing.owed}
        claimedToMe={owing.claimed}
        owedInAll={owing.inAll}
        hasShare={false}
      />
    </li>
  );
}
