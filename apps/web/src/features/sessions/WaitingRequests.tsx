import { useEffect, useId, useRef, useState } from "react";
import { Hourglass, Undo2 } from "lucide-react";
import { Badge, Button, Card } from "../../components/ui/index.ts";
import { errorMessage } from "../../lib/api.ts";
import { formatDateTime } from "../../lib/format.ts";
import { toast } from "../../lib/toast.ts";
import {
  WAITING_ANCHOR,
  useMyJoinRequests,
  useWithdrawJoinRequest,
} from "../../api/join-requests.ts";

export const WAITING_TITLE = "Waiting for approval";
export const REQUEST_WITHDRAWN = "Request withdrawn";
export const WITHDRAW_FAILED = "Failed to withdraw request";
export const NO_REQUESTS_WAITING = "No requests waiting.";

/**
 * My join requests the creators have not answered yet, each with Withdraw request (the leave
 * route withdraws a pending request). Shown only while there is one, or after a withdrawal on
 * this page: the card then stays, empty, so keyboard focus lands on its heading, not on nothing.
 */
export function WaitingRequests() {
  const requests = useMyJoinRequests();
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const [withdrawing, setWithdrawing] = useState<string | null>(null);
  const [withdrew, setWithdrew] = useState(false);

  const withdraw = useWithdrawJoinRequest({
    onMutate: (request) => setWithdrawing(request.sessionId),
    onSuccess: () => {
      toast.success(REQUEST_WITHDRAWN, { autoClose: 6000 });
      setWithdrew(true);
      heading.current?.focus();
    },
    onError: (error) => {
      toast.error(`${WITHDRAW_FAILED}: ${errorMessage(error, error.message)}`, {
        autoClose: 8000,
      });
    },
    onSettled: () => setWithdrawing(null),
  });

  const list = requests.data ?? [];
  const shown = list.length > 0;
  useEffect(() => {
    // Arrived by the link to this card: bring it into view (below the sticky header) and focus it.
    if (!shown || window.location.hash !== `#${WAITING_ANCHOR}`) return;
    heading.current?.scrollIntoView?.({ block: "start" });
    heading.current?.focus({ preventScroll: true });
  }, [shown]);
  if (!shown && !withdrew) return null;

  return (
    <Card id={WAITING_ANCHOR} aria-labelledby={headingId} role="region" className="p-5 sm:p-6">
      <div className="flex items-start gap-3">
        <span className="flex size-10 shrink-0 items-center justify-center rounded-xl bg-accent-100 text-accent-700">
          <Hourglass aria-hidden="true" className="size-5" />
        </span>
        <div className="min-w-0">
          <h2
            id={headingId}
            ref={heading}
            tabIndex={-1}
            className="scroll-mt-24 rounded-sm text-lg font-bold sm:text-xl"
          >
            {WAITING_TITLE}
          </h2>
          <p className="text-sm text-slate-600">
            Each session&apos;s creator lets you in. We&apos;ll tell you when they answer.
          </p>
        </div>
      </div>
      {list.length === 0 ? (
        <p className="mt-4 text-sm text-slate-500">{NO_REQUESTS_WAITING}</p>
      ) : (
        <ul aria-labelledby={headingId} className="mt-3 flex flex-col divide-y divide-slate-100">
          {list.map((request) => (
            <li
              key={request.sessionId}
              className="flex flex-col gap-3 py-3 last:pb-0 sm:flex-row sm:items-center"
            >
              <div className="min-w-0 flex-1">
                <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
                  <p className="line-clamp-2 font-semibold break-words text-ink">
                    {request.sessionName}
                  </p>
                  <Badge tone="accent">Waiting</Badge>
                </div>
                <p className="text-sm text-slate-600">
                  {request.creator.name}&apos;s session · asked{" "}
                  <time dateTime={request.requestedAt}>{formatDateTime(request.requestedAt)}</time>
                </p>
              </div>
              <Button
                size="sm"
                variant="secondary"
                className="shrink-0"
                loading={withdrawing === request.sessionId}
                disabled={withdrawing !== null}
                onClick={() => withdraw.mutate(request)}
                aria-label={`Withdraw request to join ${request.sessionName}`}
              >
                {withdrawing !== request.sessionId && (
                  <Undo2 aria-hidden="true" className="size-4" />
                )}
                Withdraw request
              </Button>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
