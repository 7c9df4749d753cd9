/**
 * A payer without a share who owes the reader on the order (the payee at weight 0 who paid the
 * shop with others and was paid beyond their part): what they owe the reader, and the settle
 * actions of a share card for a reader who may settle (canSettle). Shown only while they owe the
 * reader something.
 */
import { Badge } from "../../components/ui/index.ts";
import type { Order } from "@cartner/contract";
import { formatMoney } from "../../lib/format.ts";
import { useOrderAction } from "../../api/orders.ts";
import { STATUS_LABEL, canSettle, type OwedWithoutShare } from "./order-model.ts";
import { PersonCard } from "./PersonCard.tsx";
import { SettleActions } from "./SettleActions.tsx";

export function PayerOwesCard({
  order,
  owing,
  viewerId,
}: {
  order: Order;
  owing: OwedWithoutShare;
  viewerId: string | undefined;
}) {
  const action = useOrderAction(order._id);
  const amount = formatMoney(owing.owed / 100);
  return (
    <PersonCard
      testId="order-payer-owes"
      name={owing.name}
      note={owing.userId === order.payee._id ? " · payee" : " · payer"}
      amountLabel="Owes you"
      amount={amount}
      badges={
        <>
          <Badge tone="neutral">No share</Badge>
          {owing.claimed > 0 && <Badge tone="accent">{STATUS_LABEL.paid}</Badge>}
        </>
      }
    >
      <p className="text-sm text-slate-600">
        {owing.name} paid the shop and has no share in this order: they owe you {amount}
        {owing.back ? " back" : ""}.
      </p>
      {canSettle(order, viewerId) && (
        <SettleActions
          action={action}
          person={owing}
          owedToMe={owing.owed}
          claimedToMe={owing.claimed}
          owedInAll={owing.inAll}
          ofShare={false}
        />
      )}
    </PersonCard>
  );
}
