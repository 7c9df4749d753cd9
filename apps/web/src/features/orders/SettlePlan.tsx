import { ArrowRightLeft } from "lucide-react";
import type { PlannedTransfer } from "@cartner/contract";
import { LoadError, Panel } from "../../components/ui/index.ts";
import { errorMessage } from "../../lib/api.ts";
import { useAuth } from "../../lib/auth-store.ts";
import { formatMoney } from "../../lib/format.ts";
import { useSettlePlan } from "../../api/settle-up.ts";
import { RecordTransferButton } from "./RecordTransfer.tsx";

/** "Ben pays Ann $12.40", naming the reader "you". */
export function transferSentence(t: PlannedTransfer, myId: string | undefined): string {
  const from = t.from._id === myId ? "You pay" : `${t.from.name} pays`;
  const to = t.to._id === myId ? "you" : t.to.name;
  return `${from} ${to} ${formatMoney(t.amount)}`;
}

/**
 * The fewest transfers that settle everyone in your orders. The one who pays records their
 * transfer here (asked first), which settles their oldest shares owed to that person.
 */
export function SettlePlan() {
  const { user } = useAuth();
  const plan = useSettlePlan();
  let body;
  if (plan.data) {
    body =
      plan.data.length === 0 ? (
        <p className="text-sm text-slate-600">Nothing to transfer: everyone is settled up.</p>
      ) : (
        <ul aria-label="Transfers that settle everyone" className="flex flex-col gap-2">
          {plan.data.map((t) => {
            const mine = t.from._id === user?._id;
            const sentence = transferSentence(t, user?._id);
            return (
              <li
                key={`${t.from._id}-${t.to._id}`}
                data-testid="planned-transfer"
                className="flex flex-wrap items-center justify-between gap-2 rounded-2xl bg-slate-50 p-3 ring-1 ring-slate-200 ring-inset"
              >
                <span className="font-semibold break-words text-ink">{sentence}</span>
                {mine && !t.recordable && (
                  <span className="text-sm text-slate-600">
                    It nets what others owe you, so it can't be recorded as one transfer: record
                    what you pay {t.to.name} from your balance with them below.
                  </span>
                )}
                {mine && t.recordable && <RecordTransferButton to={t.to} amount={t.amount} />}
              </li>
            );
          })}
        </ul>
      );
  } else if (plan.isError) {
    body = (
      <LoadError
        title="We couldn't work out the transfers."
        message={errorMessage(plan.error, "Check your connection and try again.")}
        onRetry={() => void plan.refetch()}
        retrying={plan.isFetching}
      />
    );
  } else {
    body = (
      <p className="text-sm text-slate-600" role="status">
        Working out the fewest transfers…
      </p>
    );
  }
  return (
    <Panel title="Settle up in fewest transfers" icon={ArrowRightLeft}>
      <div className="flex flex-col gap-3">
        <p className="text-sm text-slate-600">
          Everything open in your orders, netted: these transfers settle everyone.
        </p>
        {body}
      </div>
    </Panel>
  );
}
