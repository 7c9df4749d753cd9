/** One share on the order page: its amount and status, what changed, and what the reader may do. */
import { CircleCheck, Mail, UserX } from "lucide-react";
import { creditOwedBy, isSettled, toCents, type Order, type OrderShare } from "@cartner/contract";
import { Badge, Button } from "../../components/ui/index.ts";
import { formatMoney } from "../../lib/format.ts";
import {
  DELETED_USER,
  PAID_BUTTON,
  canSayPaid,
  canSettle,
  owesOnlyCredits,
  shareChange,
  type PartCents,
  shareStatusLabel,
  shareTone,
} from "./order-model.ts";
import { useOrderAction } from "../../api/orders.ts";
import { PersonCard } from "./PersonCard.tsx";
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
  /**
   * What this member owes the reader (a payer), and what of it they say they paid: their part
   * still open, or (a payer too) a credit they owe the reader back, the reader having paid them
   * beyond the reader's part. Between two people only one of the two is ever owed.
   */
  const owesMeBack = centsOf(order, viewerId, share.userId, "credit");
  const owedToMe = centsOf(order, share.userId, viewerId, "open") + owesMeBack;
  const claimedToMe =
    centsOf(order, share.userId, viewerId, "claimed") +
    centsOf(order, viewerId, share.userId, "claimedBack");
  /** What they owe everyone on the order: their parts open, and credits they owe back. */
  const owedInAll = order.parts.reduce(
    (a, p) =>
      a +
      (p.debtor === share.userId ? toCents(p.open) : 0) +
      (p.payer === share.userId ? toCents(p.credit) : 0),
    0,
  );
  return (
    <PersonCard
      testId="order-share"
      name={share.name}
      note={`${isMe ? " (you)" : ""}${payeeShare ? " · payee" : ""}`}
      amountLabel="Share"
      amount={formatMoney(share.total)}
      badges={
        <>
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
        </>
      }
    >
      {/* Your own change is said at the top of the page. */}
      {(!payeeShare || share.credit > 0) &&
        !isMe &&
        shareChange(share, creditOwedBy(order, share.userId), false) && (
          <p className="text-sm text-slate-600">
            {shareChange(share, creditOwedBy(order, share.userId), false)}
          </p>
        )}
      {/* A credit they owe the reader back is not their share: said, so the actions read right. */}
      {owesMeBack > 0 && (
        <p className="text-sm text-slate-600">
          {share.name} owes you {formatMoney(owesMeBack / 100)} back.
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
      {canSettle(order, viewerId) && (
        <SettleActions
          action={action}
          person={share}
          owedToMe={owedToMe}
          claimedToMe={claimedToMe}
          owedInAll={owedInAll}
          ofShare={owesMeBack === 0}
        />
      )}
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
    </PersonCard>
  );
}

/** The cents of `field` over this order's parts that `debtor` owes `payer`. */
function centsOf(
  order: Order,
  debtor: string | undefined,
  payer: string | undefined,
  field: PartCents,
): number {
  return order.parts
    .filter((p) => p.debtor === debtor && p.payer === payer)
    .reduce((a, p) => a + toCents(p[field]), 0);
}
