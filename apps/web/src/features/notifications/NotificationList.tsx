import { BellOff } from "lucide-react";
import type { Notification } from "@cartner/contract";
import { InlineEmpty, InlineLoadError, InlineLoading } from "../../components/ui/index.ts";
import { useDecideFromNotification } from "../../api/approvals.ts";
import { useMarkRead, useNotifications } from "../../api/notifications.ts";
import { errorMessage } from "../../lib/api.ts";
import { cn } from "../../lib/cn.ts";
import { Link } from "../../lib/router.tsx";
import { failureToast, successToast } from "../../shared/cart-toasts.tsx";
import { DecisionButtons } from "../../shared/DecisionButtons.tsx";
import { timeAgo } from "../activity/index.ts";

/**
 * The reader's notifications, newest first; each opens what it is about and is read then. A
 * request for approval of a line is decided right there while the line still waits.
 */
export function NotificationList({
  limit,
  onOpen,
}: {
  /** At most this many (the bell's panel); all loaded otherwise. */
  limit?: number;
  /** After following a notification's link (the panel closes). */
  onOpen?: () => void;
}) {
  const list = useNotifications();
  const markRead = useMarkRead();
  if (list.isPending) return <InlineLoading>Loading notifications…</InlineLoading>;
  if (list.isError) {
    return (
      <InlineLoadError
        message={errorMessage(list.error, "We couldn't load your notifications.")}
        onRetry={() => void list.refetch()}
      />
    );
  }
  const shown = limit ? list.data.notifications.slice(0, limit) : list.data.notifications;
  if (shown.length === 0) {
    return (
      <InlineEmpty icon={<BellOff aria-hidden="true" className="size-4" />}>
        Nothing yet. Changes by others, checkouts, payments and invites show up here.
      </InlineEmpty>
    );
  }
  return (
    <ul aria-label="Notifications" className="flex flex-col divide-y divide-slate-100">
      {shown.map((n) => (
        <NotificationItem
          key={n._id}
          notification={n}
          onOpen={() => {
            if (!n.readAt) markRead.mutate({ ids: [n._id] });
            onOpen?.();
          }}
        />
      ))}
    </ul>
  );
}

function NotificationItem({
  notification: n,
  onOpen,
}: {
  notification: Notification;
  onOpen: () => void;
}) {
  const unread = !n.readAt;
  return (
    <li className="flex flex-col">
      <Link
        to={n.url}
        onClick={onOpen}
        data-unread={unread || undefined}
        className={cn(
          "flex gap-3 rounded-lg px-2 py-3 transition-colors hover:bg-slate-50",
          unread && "bg-primary-50/60 hover:bg-primary-50",
        )}
      >
        <span
          aria-hidden="true"
          className={cn(
            "mt-1.5 size-2 shrink-0 rounded-full",
            unread ? "bg-primary-600" : "bg-transparent",
          )}
        />
        <span className="flex min-w-0 flex-1 flex-col">
          <span className={cn("text-sm text-ink", unread ? "font-bold" : "font-semibold")}>
            {unread && <span className="sr-only">Unread: </span>}
            {n.title}
          </span>
          <span className="text-sm break-words text-slate-600">{n.body}</span>
          <time dateTime={n.createdAt} className="text-xs text-slate-500">
            {timeAgo(n.createdAt)}
          </time>
        </span>
      </Link>
      {n.approval && <ApprovalButtons notification={n} approval={n.approval} />}
    </li>
  );
}

/**
 * Approve or Decline the line a request is about, while it waits (the server's gate decides who
 * may: the creator and the approvers, never the line's own adder); "Decided" once it does not.
 */
function ApprovalButtons({
  notification: n,
  approval,
}: {
  notification: Notification;
  approval: NonNullable<Notification["approval"]>;
}) {
  const decide = useDecideFromNotification({
    onSuccess: (_answer, { decision }) =>
      successToast(decision === "approve" ? "Approved." : "Declined."),
    onError: (error) => failureToast(`Could not decide: ${n.title}`, error),
  });
  if (!approval.waiting) {
    return <p className="pb-3 pl-7 text-xs font-medium text-slate-500">Decided</p>;
  }
  return (
    <div className="flex flex-wrap gap-2 pb-3 pl-7">
      <DecisionButtons
        size="md"
        labelOf={(label) => `${label}: ${n.title}`}
        pending={decide.isPending}
        onDecide={(decision) =>
          decide.mutate({ cartId: approval.cartId, lineId: approval.lineId, decision })
        }
      />
    </div>
  );
}

/** "Mark all read", shown while something is unread. */
export function MarkAllRead({ className }: { className?: string }) {
  const list = useNotifications();
  const markRead = useMarkRead();
  if (!list.data || list.data.unread === 0) return null;
  return (
    <button
      type="button"
      className={cn(
        "rounded-md text-sm font-semibold text-primary-700 underline-offset-4 hover:underline",
        className,
      )}
      onClick={() => markRead.mutate({ all: true })}
    >
      Mark all read
    </button>
  );
}
