/**
 * What a creditor (the payee, or another payer) may do about what someone owes them on the order:
 * confirm a transfer they say they made, or record cash or write it off (asked first). The same
 * actions for a member's share or a credit they owe the reader back (ShareCard), and for a payer
 * without a share who owes the reader back (PayerOwesCard); only the words differ.
 */
import { useState } from "react";
import { Banknote } from "lucide-react";
import type { SettlementKind } from "@cartner/contract";
import { Button, ConfirmDialog } from "../../components/ui/index.ts";
import { formatMoney } from "../../lib/format.ts";
import { CASH_BUTTON, CONFIRM_BUTTON, WRITE_OFF_BUTTON } from "./order-model.ts";
import type { useOrderAction } from "../../api/orders.ts";

export function SettleActions({
  action,
  person,
  owedToMe,
  claimedToMe,
  owedInAll,
  ofShare,
}: {
  /** The card's order action, so that every button of the card shows the same pending state. */
  action: ReturnType<typeof useOrderAction>;
  person: { userId: string; name: string };
  /** Cents the person owes the reader on the order, and what of it they say they paid. */
  owedToMe: number;
  claimedToMe: number;
  /** Cents the person owes everyone on the order (the reader's part and the other payers'). */
  owedInAll: number;
  /**
   * What is settled is the person's share, or part of it ("Ben's share"); or else what they owe
   * the reader otherwise ("what Ben owes you"): a payer without a share, or a payer with one who
   * owes the reader a credit back.
   */
  ofShare: boolean;
}) {
  const { name } = person;
  /** A creditor settling what the person owes them without a transfer: asked first. */
  const [settling, setSettling] = useState<Exclude<SettlementKind, "transfer"> | null>(null);
  const amount = formatMoney(owedToMe / 100);
  /** "of the $40.82 they owe": said when others are owed a part of it too. */
  const ofAll =
    owedInAll > owedToMe
      ? ` (of ${formatMoney(owedInAll / 100)} ${ofShare ? "open on the share" : "they owe on this order"})`
      : "";
  /** Only what the person owes the reader is settled: said in full unless it is their whole share. */
  const part = ofAll !== "" || !ofShare;
  const others = ofAll ? "; what they owe the other payers stays open" : "";
  const what = ofShare ? `${name}'s share` : `What ${name} owes you`;
  const pendingHow =
    action.isPending && action.variables?.kind === "confirm" ? action.variables.how : undefined;
  return (
    <>
      {claimedToMe > 0 && (
        <Button
          size="sm"
          loading={action.isPending}
          onClick={() => action.mutate({ kind: "confirm", userId: person.userId })}
          aria-label={`${CONFIRM_BUTTON} from ${name}`}
        >
          {CONFIRM_BUTTON}
        </Button>
      )}
      {owedToMe > 0 && claimedToMe === 0 && (
        <div className="flex flex-wrap gap-2">
          <Button
            size="sm"
            variant="secondary"
            loading={pendingHow === "cash"}
            disabled={action.isPending}
            onClick={() => setSettling("cash")}
            aria-label={`${what}: ${CASH_BUTTON}`}
          >
            <Banknote aria-hidden="true" className="size-4" />
            {CASH_BUTTON}
          </Button>
          <Button
            size="sm"
            variant="secondary"
            loading={pendingHow === "written_off"}
            disabled={action.isPending}
            onClick={() => setSettling("written_off")}
            aria-label={`${what}: ${WRITE_OFF_BUTTON}`}
          >
            {WRITE_OFF_BUTTON}
          </Button>
        </div>
      )}
      <ConfirmDialog
        open={settling !== null}
        tone={settling === "cash" ? "primary" : "danger"}
        title={
          settling === "cash"
            ? part
              ? `Record ${name}'s ${amount} to you as paid in cash?`
              : `Record ${name}'s share as paid in cash?`
            : part
              ? `Write off what ${name} owes you?`
              : `Write off ${name}'s share?`
        }
        description={
          settling === "cash"
            ? `Say so once ${name} has handed you ${amount}${ofAll}. ${part ? `What they owe you is settled and leaves your balances${others}.` : "The share is settled and leaves your balances."}`
            : `${name} will no longer owe you ${amount}${ofAll}: ${part ? `it is written off and leaves your balances${others}` : "the share is settled as written off and leaves your balances"}. This cannot be undone.`
        }
        confirmLabel={settling === "cash" ? "Record cash payment" : "Write it off"}
        onCancel={() => setSettling(null)}
        onConfirm={() => {
          const how = settling;
          setSettling(null);
          if (how) action.mutate({ kind: "confirm", userId: person.userId, how });
        }}
      />
    </>
  );
}
