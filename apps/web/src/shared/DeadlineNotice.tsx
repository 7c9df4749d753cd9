import { useEffect, useId, useState } from "react";
import { Clock, Lock } from "lucide-react";
import { can, type Deadline, type Role } from "@cartner/contract";
import { useSaveDeadline } from "../api/sessions.ts";
import { Button, ButtonLink, FieldError, Input } from "../components/ui/index.ts";
import { cn } from "../lib/cn.ts";
import { failureToast, successToast } from "./cart-toasts.tsx";
import {
  autoCheckoutText,
  closedText,
  closesInText,
  closesText,
  formatDeadline,
  fromLocalInput,
  isClosed,
  isPast,
  localTimeZone,
  toLocalInput,
} from "./deadline-text.ts";

/** setTimeout's longest wait; a deadline further away is checked again after it. */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * This device's time, renewed every 30 s (for "closes in 3 h") and at the deadline itself, so a
 * page left open shows the cart closed the moment it closes, before the server's event arrives.
 */
export function useDeadlineNow(deadline: Deadline | null | undefined): number {
  const [now, setNow] = useState(() => Date.now());
  const closesAt = deadline?.closesAt;
  useEffect(() => {
    if (!closesAt) return;
    const tick = () => setNow(Date.now());
    const interval = setInterval(tick, 30_000);
    const left = new Date(closesAt).getTime() - Date.now();
    const atDeadline = left > 0 ? setTimeout(tick, Math.min(left + 50, MAX_TIMER_MS)) : undefined;
    return () => {
      clearInterval(interval);
      clearTimeout(atDeadline);
    };
  }, [closesAt]);
  return now;
}

/**
 * A session's deadline for everyone, in the reader's own time zone: when the cart closes and how
 * long is left; once closed, "The cart closed at …", and the creator's next steps (check out, or
 * reopen until a new time).
 */
export function DeadlineNotice({
  deadline,
  sessionId,
  role,
  creatorName,
  className,
}: {
  deadline: Deadline;
  sessionId: string;
  role: Role | null;
  creatorName?: string | undefined;
  className?: string;
}) {
  const now = useDeadlineNow(deadline);
  const closed = isClosed(deadline, now);
  const creator = can(role, "session.deadline");
  if (!closed) {
    return (
      <div
        data-testid="deadline-notice"
        className={cn(
          "flex items-start gap-2 rounded-xl bg-primary-50 px-4 py-3 text-sm text-primary-900 ring-1 ring-primary-100 ring-inset",
          className,
        )}
      >
        <Clock aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-primary-700" />
        <p>
          <span className="font-semibold">{closesText(deadline.closesAt)}</span>{" "}
          <span className="text-primary-800">({closesInText(deadline.closesAt, now)})</span>
          {deadline.autoCheckout && (
            <span className="block text-primary-800">It is checked out automatically then.</span>
          )}
        </p>
      </div>
    );
  }
  return (
    <div
      data-testid="deadline-notice"
      role="status"
      className={cn(
        "flex flex-col gap-3 rounded-xl bg-accent-50 px-4 py-3 text-sm text-accent-900 ring-1 ring-accent-200 ring-inset",
        className,
      )}
    >
      <div className="flex items-start gap-2">
        <Lock aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-accent-700" />
        <p>
          <span className="font-semibold">{closedText(deadline.closesAt)}</span>{" "}
          {creator
            ? deadline.autoCheckout
              ? "It is being checked out as you chose; if it was empty, reopen it or end the session."
              : "Nothing can be added or changed: check out, or reopen it until a new time."
            : deadline.autoCheckout
              ? autoCheckoutText(deadline.closesAt)
              : `Nothing can be added or changed. ${creatorName ?? "The creator"} checks out or reopens it.`}
        </p>
      </div>
      {creator && (
        <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
          <ButtonLink
            to={`/session-summary/${encodeURIComponent(sessionId)}`}
            size="sm"
            className="self-start sm:self-auto"
          >
            Check out
          </ButtonLink>
          <ReopenForm sessionId={sessionId} />
        </div>
      )}
    </div>
  );
}

/** The creator reopens a closed cart until a new time, read in their zone. */
export function ReopenForm({ sessionId }: { sessionId: string }) {
  const inputId = useId();
  const errorId = useId();
  // The earliest time the input offers: when the form was opened; it starts an hour later.
  const [openedAt] = useState(() => Date.now());
  const [value, setValue] = useState(() => toLocalInput(openedAt + 60 * 60_000));
  const [error, setError] = useState<string | undefined>();
  const reopen = useSaveDeadline(sessionId, {
    onSuccess: (answer) => {
      const closesAt = answer.session.deadline?.closesAt;
      successToast(closesAt ? `Reopened until ${formatDeadline(closesAt)}.` : "Reopened.");
    },
    onError: (failure) => failureToast("Could not reopen the cart", failure),
  });
  return (
    <form
      className="flex flex-wrap items-end gap-2"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const closesAt = fromLocalInput(value);
        if (!closesAt || isPast(closesAt)) {
          setError("Pick a time in the future.");
          return;
        }
        setError(undefined);
        reopen.mutate({ reopen: closesAt });
      }}
    >
      <div className="flex flex-col gap-1">
        <label htmlFor={inputId} className="text-xs font-semibold text-ink">
          Reopen until ({localTimeZone()})
        </label>
        <Input
          id={inputId}
          type="datetime-local"
          className="h-9 w-auto"
          value={value}
          min={toLocalInput(openedAt)}
          aria-invalid={error ? true : undefined}
          aria-describedby={errorId}
          onChange={(event) => setValue(event.target.value)}
        />
      </div>
      <Button type="submit" size="sm" variant="secondary" loading={reopen.isPending}>
        Reopen
      </Button>
      <FieldError id={errorId} message={error} />
    </form>
  );
}
