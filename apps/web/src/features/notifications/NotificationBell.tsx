import { useEffect, useId, useRef, useState } from "react";
import { Bell } from "lucide-react";
import { useUnreadCount } from "../../api/notifications.ts";
import { buttonClasses } from "../../components/ui/index.ts";
import { cn } from "../../lib/cn.ts";
import { Link, useLocation } from "../../lib/router.tsx";
import { MarkAllRead, NotificationList } from "./NotificationList.tsx";

/** "Notifications, 3 unread" (the bell's name for screen readers). */
export const bellLabel = (unread: number) =>
  `Notifications, ${unread === 0 ? "none" : unread} unread`;

/** How many the panel lists; the page lists them all. */
const PANEL_LIMIT = 8;

/**
 * The bell in the header: the unread count, and a panel of the newest notifications with
 * "Mark all read" and the way to the full list. Escape or a click outside closes it.
 */
export function NotificationBell() {
  const unread = useUnreadCount().data ?? 0;
  const { pathname } = useLocation();
  // Open for the path it was opened on: a route change (a notification followed) closes it.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;
  const setOpen = (value: boolean) => setOpenOn(value ? pathname : null);
  const panelId = useId();
  const titleId = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!open) return;
    const outside = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpenOn(null);
    };
    document.addEventListener("pointerdown", outside);
    return () => document.removeEventListener("pointerdown", outside);
  }, [open]);

  return (
    <div
      ref={root}
      className="relative"
      onKeyDown={(event) => {
        if (event.key === "Escape" && open) {
          event.stopPropagation();
          setOpen(false);
          button.current?.focus();
        }
      }}
    >
      <button
        ref={button}
        type="button"
        aria-label={bellLabel(unread)}
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen(!open)}
        className={buttonClasses({ variant: "ghost", size: "icon", className: "relative" })}
      >
        <Bell aria-hidden="true" className="size-5" />
        {unread > 0 && (
          <span
            aria-hidden="true"
            data-testid="unread-count"
            className="absolute -top-0.5 -right-0.5 inline-flex min-w-5 items-center justify-center rounded-full bg-accent-700 px-1 text-xs font-bold text-white tabular-nums"
          >
            {unread > 99 ? "99+" : unread}
          </span>
        )}
      </button>
      {open && (
        <div
          id={panelId}
          role="dialog"
          aria-labelledby={titleId}
          className={cn(
            "fixed inset-x-2 top-16 z-50 flex max-h-[70vh] flex-col rounded-card bg-white shadow-xl ring-1 ring-slate-200",
            "sm:absolute sm:inset-x-auto sm:top-12 sm:right-0 sm:w-96",
          )}
        >
          <div className="flex items-center justify-between gap-3 border-b border-slate-100 px-4 py-3">
            <h2 id={titleId} className="font-display text-base font-bold text-ink">
              Notifications
            </h2>
            <MarkAllRead />
          </div>
          <div className="overflow-y-auto px-2 py-1">
            <NotificationList limit={PANEL_LIMIT} onOpen={() => setOpen(false)} />
          </div>
          <div className="border-t border-slate-100 px-4 py-2.5 text-sm">
            <Link
              to="/notifications"
              className="font-semibold text-primary-700 underline-offset-4 hover:underline"
            >
              See all notifications
            </Link>
            <span className="text-slate-400"> · </span>
            <Link
              to="/notifications#notification-settings"
              className="font-semibold text-primary-700 underline-offset-4 hover:underline"
            >
              Settings
            </Link>
          </div>
        </div>
      )}
    </div>
  );
}
