import { useEffect, useId, useState } from "react";
import {
  Activity as ActivityIcon,
  AlarmClock,
  Check,
  Lock,
  LockOpen,
  Minus,
  Pin,
  Plus,
  ReceiptText,
  Repeat,
  Settings2,
  Share2,
  Trash2,
  Undo2,
  UserMinus,
  UserPlus,
  X,
  type LucideIcon,
} from "lucide-react";
import type { Activity, ActivityType } from "@cartner/contract";
import { Button, Spinner } from "../../components/ui/index.ts";
import { useAuth } from "../../lib/auth-store.ts";
import { cn } from "../../lib/cn.ts";
import { describeActivity, timeAgo } from "./activity-model.ts";
import { useActivity } from "../../api/sessions.ts";

const ICONS: Record<ActivityType, LucideIcon> = {
  "item.added": Plus,
  "item.quantity": Plus,
  "item.removed": Trash2,
  "item.restored": Undo2,
  "item.approved": Check,
  "item.declined": X,
  "item.shared": Share2,
  "item.given": Share2,
  "cart.cleared": Trash2,
  "member.joined": UserPlus,
  "member.left": UserMinus,
  "member.removed": UserMinus,
  "member.role": Settings2,
  "session.updated": Settings2,
  "split.policy": Settings2,
  "order.placed": ReceiptText,
  "order.paid": ReceiptText,
  "order.confirmed": ReceiptText,
  "order.adjusted": ReceiptText,
  "order.disputed": ReceiptText,
  "order.revealed": ReceiptText,
  "order.payers": ReceiptText,
  "order.transfer": ReceiptText,
  "item.staple": Pin,
  "item.edited": Settings2,
  "series.updated": Repeat,
  "series.started": Repeat,
  "series.continued": Repeat,
  "deadline.set": AlarmClock,
  "deadline.cleared": AlarmClock,
  "deadline.locked": Lock,
  "deadline.reopened": LockOpen,
  "deadline.checkout_skipped": Lock,
};

function iconOf(entry: Activity): LucideIcon {
  if (entry.type === "item.quantity" && entry.change < 0) {
    return Minus;
  }
  return ICONS[entry.type];
}

/** Re-renders every minute so "2 min ago" stays true. */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/**
 * Who did what in the session, newest first. The lobby shows the
 * full feed; the cart a compact one with the last few entries.
 */
export function ActivityFeed({
  sessionId,
  compact = false,
  className,
}: {
  sessionId: string;
  compact?: boolean;
  className?: string;
}) {
  const headingId = useId();
  const { user } = useAuth();
  const now = useNow();
  const activity = useActivity(sessionId);
  const step = compact ? 5 : 15;
  const [shown, setShown] = useState(step);
  const entries = activity.data ?? [];
  const newestFirst = entries.slice(-shown).reverse();
  const hidden = entries.length - newestFirst.length;

  return (
    <section
      aria-labelledby={headingId}
      className={cn(
        "flex flex-col gap-3",
        !compact &&
          "self-start rounded-card bg-surface p-5 shadow-soft ring-1 ring-slate-900/5 sm:p-6",
        className,
      )}
    >
      <div className="flex items-center gap-2">
        <ActivityIcon
          aria-hidden="true"
          className={cn("text-primary-600", compact ? "size-4" : "size-5")}
        />
        <h2
          id={headingId}
          className={cn("font-bold", compact ? "text-sm text-ink" : "text-lg sm:text-xl")}
        >
          {compact ? "Recent activity" : "Activity"}
        </h2>
      </div>
      {activity.isPending ? (
        <p role="status" className="flex items-center gap-2 text-sm text-slate-500">
          <Spinner className="size-4" /> Loading activity…
        </p>
      ) : activity.isError && entries.length === 0 ? (
        <p className="text-sm text-slate-500">
          Activity could not be loaded.{" "}
          <button
            type="button"
            className="font-semibold text-primary-700 underline"
            onClick={() => void activity.refetch()}
          >
            Try again
          </button>
        </p>
      ) : entries.length === 0 ? (
        <p className="text-sm text-slate-500">Nothing has happened here yet.</p>
      ) : (
        <ol aria-labelledby={headingId} className="flex flex-col gap-2" data-testid="activity-feed">
          {newestFirst.map((entry) => {
            const Icon = iconOf(entry);
            return (
              <li key={entry.seq} className="flex items-start gap-2.5 text-sm">
                <span
                  aria-hidden="true"
                  className="mt-0.5 flex size-6 shrink-0 items-center justify-center rounded-full bg-slate-100 text-slate-600"
                >
                  <Icon className="size-3.5" />
                </span>
                <span className="min-w-0 flex-1 break-words text-slate-700">
                  {describeActivity(entry, user?._id)}
                  <span className="text-slate-500">
                    {" · "}
                    <time dateTime={entry.at} title={new Date(entry.at).toLocaleString()}>
                      {timeAgo(entry.at, now)}
                    </time>
                  </span>
                </span>
              </li>
            );
          })}
        </ol>
      )}
      {hidden > 0 && (
        <Button
          variant="link"
          size="sm"
          className="self-start"
          onClick={() => setShown((count) => count + step * 3)}
        >
          Show earlier activity
        </Button>
      )}
    </section>
  );
}
