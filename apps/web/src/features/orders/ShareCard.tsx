/** One share on the order page: its amount and status, what changed, and what the reader may do. */
import { CircleCheck, Mail, UserX } from "lucide-react";
import { creditOwedBy, isSettled, toCents, type Order, type OrderShare } from "@cartner/contract";
import { Badge, Button } from "../../components/ui/index.ts";
import { formatMoney } from "../../lib/format.ts";
import {
  DELETED_USER,
  PAID_BUTTON,
  canSayPaid,
  owesOnlyCredits,
  shareChange,
  shareStatusLabel,
  shareTone,
} from "./order-model.ts";
import { useOrderAction } from "../../api/orders.ts";
import { RecordTransferButton } from "./RecordTransfer.tsx";
import { SettleActions } from "./SettleActions.tsx";

export function ShareCard({
  order,
  share,
  isMe,
  isPayee,
  viewerId,
}: {
  order: Order;
  share: OrderShare;
  isMe: boolean;
  isPayee: boolean;
  viewerId: string | undefined;
}) {
  const action = useOrderAction(order._id);
  /** What the reader owes this share's member back (a credit on the reader's part), in cents. */
  const owedBack = centsOf(order, share.userId, viewerId, "credit");
  /**
   * What paying it back takes in one transfer: the transfer route settles everything between the
   * two on this order at once, so the reader's own part owed to the member goes with it, less
   * what the member still owes the reader here.
   */
  const payBackCents =
    owedBack +
    centsOf(order, viewerId, share.userId, "open") -
    centsOf(order, share.userId, viewerId, "open");
  const payeeShare = share.userId === order.payee._id;
  /** What this member owes the reader (a payer), and what of it they say they paid. */
  const owedToMe = centsOf(order, share.userId, viewerId, "open");
  const claimedToMe = centsOf(order, share.userId, viewerId, "claimed");
  const owedInAll = order.parts
    .filter((p) => p.debtor === share.userId)
    .reduce((a, p) => a + toCents(p.open), 0);
  return (
    <li
      data-testid="order-share"
      className="flex flex-col gap-3 rounded-2xl bg-slate-50 p-4 ring-1 ring-slate-200 ring-inset"
    >
      <div className="flex items-baseline justify-between gap-3">
        <p className="min-w-0 font-semibold break-words text-ink">
          {share.name}
          {isMe && <span className="font-normal text-slate-500"> (you)</span>}
          {payeeShare && <span className="font-normal text-slate-500"> · payee</span>}
        </p>
        <p className="font-display text-lg font-bold text-ink tabular-nums">
          <span className="sr-only">Share </span>
          {formatMoney(share.total)}
        </p>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <Badge tone={shareTone(share)}>
          {isSettled(share) && <CircleCheck aria-hidden="true" className="size-3.5" />}
          {(payeeShare || order.payers.some((p) => p.user._id === share.userId)) &&
          share.status === "confirmed" &&
          share.settledAs === null
            ? "Paid the shop"
            : share.status === "unpaid" && owesOnlyCredits(order, share.userId)
              ? "Owes a credit back"
              : shareStatusLabel(share)}
        </Badge>
        {share.accountDeleted && (
          <Badge tone="neutral">
            <UserX aria-hidden="true" className="size-3.5" />
            {DELETED_USER}
          </Badge>
        )}
        {share.credit > 0 && <Badge tone="accent">Credit {formatMoney(share.credit)}</Badge>}
        {isPayee && share.mail === "failed" && (
          <Badge tone="danger">
            <Mail aria-hidden="true" className="size-3.5" />
            Email not delivered
          </Badge>
        )}
      </div>
      {/* Your own change is said at the top of the page. */}
      {(!payeeShare || share.credit > 0) &&
        !isMe &&
        shareChange(share, creditOwedBy(order, share.userId), false) && (
          <p className="text-sm text-slate-600">
            {shareChange(share, creditOwedBy(order, share.userId), false)}
          </p>
        )}
      {isMe && !payeeShare && canSayPaid(share) && (
        <Button
          size="sm"
          loading={action.isPending}
          onClick={() => action.mutate({ kind: "paid" })}
        >
          {PAID_BUTTON}
        </Button>
      )}
      {owedBack > 0 && payBackCents > 0 && (
        <RecordTransferButton
          to={{ _id: share.userId, name: share.name }}
          amount={payBackCents / 100}
          label="Paid back"
          variant="secondary"
          ariaLabel={`Paid back ${formatMoney(payBackCents / 100)} to ${share.name}`}
          title={`Record that you paid ${share.name} ${formatMoney(payBackCents / 100)}${payBackCents === owedBack ? " back" : ""}?`}
          description={
            payBackCents === owedBack
              ? `Say so once the money is on its way to ${share.name}. It is recorded as a transfer to them, which settles what you owe them back, oldest order first.`
              : `${formatMoney(owedBack / 100)} back, with what else is open between you on this order: one transfer settles it all. Say so once the money is on its way to ${share.name}.`
          }
        />
      )}
      <SettleActions
        action={action}
        person={share}
        owedToMe={owedToMe}
        claimedToMe={claimedToMe}
        owedInAll={owedInAll}
        hasShare
      />
      {isPayee && share.mail === "failed" && (
        <Button
          size="sm"
          variant="secondary"
          loading={action.isPending}
          onClick={() => action.mutate({ kind: "mail" })}
          aria-label={`Resend email to ${share.name}`}
        >
          Resend email
        </Button>
      )}
    </li>
  );
}

/** The cents of `field` over this order's parts that `debtor` owes `payer`. */
function centsOf(
  order: Order,
  debtor: string | undefined,
  payer: string | undefined,
  field: "open" | "credit" | "claimed",
): number {
  return order.parts
    .filter((p) => p.debtor === debtor && p.payer === payer)
    .reduce((a, p) => a + toCents(p[field]), 0);
}
