import { useId, useState } from "react";
import { AlarmClock } from "lucide-react";
import {
  DEADLINE_REMINDERS_MAX,
  DEFAULT_REMIND_AT,
  REMIND_CHOICES,
  can,
  type Role,
  type Session,
} from "@cartner/contract";
import { useSaveDeadline } from "../../api/sessions.ts";
import { Button, FieldError, Input } from "../../components/ui/index.ts";
import { failureToast, successToast } from "../../shared/cart-toasts.tsx";
import { DeadlineNotice, useDeadlineNow } from "../../shared/DeadlineNotice.tsx";
import {
  formatDeadline,
  fromLocalInput,
  isClosed,
  isPast,
  localTimeZone,
  reminderLabel,
  reminderStatus,
  toLocalInput,
} from "../../shared/deadline-text.ts";

export const SAVE_DEADLINE = "Save deadline";
export const REMOVE_DEADLINE = "Remove deadline";
export const AUTO_CHECKOUT_LABEL = "Check out automatically at the deadline";

/**
 * The session's deadline in the lobby: everyone sees when the cart closes, in their own time zone;
 * the creator sets it in theirs (its name shown), picks the reminders and whether the cart checks
 * out by itself then, moves or removes it, and reopens a closed cart.
 */
export function DeadlineCard({ session, role }: { session: Session; role: Role | null }) {
  const titleId = useId();
  const { deadline } = session;
  const now = useDeadlineNow(deadline);
  const active = session.status === "active";
  const creator = active && can(role, "session.deadline");
  const closed = isClosed(deadline, now);
  if (!deadline && !creator) return null;
  return (
    <section
      aria-labelledby={titleId}
      data-testid="deadline-card"
      className="flex flex-col gap-4 rounded-card bg-surface p-5 shadow-soft ring-1 ring-slate-900/5 sm:p-6"
    >
      <div className="flex items-center gap-2">
        <AlarmClock aria-hidden="true" className="size-5 text-primary-600" />
        <h2 id={titleId} className="text-lg font-bold sm:text-xl">
          Deadline
        </h2>
      </div>
      {deadline && active && (
        <DeadlineNotice
          deadline={deadline}
          sessionId={session._id}
          role={role}
          creatorName={session.creator.name}
        />
      )}
      {deadline && <ReminderStatus deadline={deadline} />}
      {creator && !closed && (
        // Drawn again from the saved deadline whenever it changes (here, or live from elsewhere).
        <DeadlineEditor key={JSON.stringify(deadline)} session={session} />
      )}
      {creator && closed && <RemoveDeadline sessionId={session._id} />}
    </section>
  );
}

/** Which reminders there are, which are still to come, and one sent at once when it was set. */
function ReminderStatus({ deadline }: { deadline: NonNullable<Session["deadline"]> }) {
  const { plan, sentAtOnce } = reminderStatus(deadline);
  return (
    <div className="flex flex-col gap-1 text-sm text-slate-600" data-testid="reminder-status">
      <p>{plan}</p>
      {sentAtOnce && <p>{sentAtOnce}</p>}
    </div>
  );
}

function DeadlineEditor({ session }: { session: Session }) {
  const { deadline } = session;
  const inputId = useId();
  const errorId = useId();
  const remindersId = useId();
  const zone = localTimeZone();
  // The earliest time the input offers: when the form was opened.
  const [openedAt] = useState(() => Date.now());
  const [closesAt, setClosesAt] = useState(() => (deadline ? toLocalInput(deadline.closesAt) : ""));
  const [remindAt, setRemindAt] = useState<number[]>(() =>
    deadline ? deadline.remindAt : [...DEFAULT_REMIND_AT],
  );
  const [autoCheckout, setAutoCheckout] = useState(deadline?.autoCheckout ?? false);
  const [error, setError] = useState<string | undefined>();
  // The choices, and any other reminder the deadline has (set through the API).
  const choices = [...new Set<number>([...REMIND_CHOICES, ...remindAt])].sort((a, b) => b - a);
  const full = remindAt.length >= DEADLINE_REMINDERS_MAX;
  const save = useSaveDeadline(session._id, {
    onSuccess: (answer, change) => {
      const saved = answer.session.deadline;
      successToast(
        change === null || !saved
          ? "Deadline removed: the cart stays open."
          : `Deadline saved: the cart closes ${formatDeadline(saved.closesAt)}.`,
      );
    },
    onError: (failure) => failureToast("Could not save the deadline", failure),
  });
  const instant = fromLocalInput(closesAt);

  return (
    <form
      className="flex flex-col gap-4"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (!instant) {
          setError("Pick the date and time the cart closes.");
          return;
        }
        if (isPast(instant)) {
          setError("Pick a time in the future.");
          return;
        }
        setError(undefined);
        save.mutate({ closesAt: instant, remindAt, autoCheckout });
      }}
    >
      <div className="flex flex-col gap-1.5">
        <label htmlFor={inputId} className="text-sm font-semibold text-ink">
          The cart closes at <span className="font-normal text-slate-600">({zone})</span>
        </label>
        <Input
          id={inputId}
          type="datetime-local"
          className="sm:max-w-xs"
          value={closesAt}
          min={toLocalInput(openedAt)}
          aria-invalid={error ? true : undefined}
          aria-describedby={errorId}
          onChange={(event) => setClosesAt(event.target.value)}
        />
        {instant && (
          <p className="text-xs text-slate-500">
            {formatDeadline(instant)} · members see it in their own time zone.
          </p>
        )}
        <FieldError id={errorId} message={error} />
      </div>
      <fieldset className="flex flex-col gap-2" aria-describedby={remindersId}>
        <legend className="text-sm font-semibold text-ink">Remind members before</legend>
        <p id={remindersId} className="text-xs text-slate-500">
          A mail to each member who has not marked themselves done; at most {DEADLINE_REMINDERS_MAX}
          .
        </p>
        <div className="flex flex-wrap gap-x-4 gap-y-2">
          {choices.map((minutes) => {
            const checked = remindAt.includes(minutes);
            return (
              <label key={minutes} className="flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  className="size-4 accent-primary-600"
                  checked={checked}
                  disabled={!checked && full}
                  onChange={() =>
                    setRemindAt((current) =>
                      checked ? current.filter((m) => m !== minutes) : [...current, minutes],
                    )
                  }
                />
                {reminderLabel(minutes)}
              </label>
            );
          })}
        </div>
      </fieldset>
      <label className="flex items-start gap-2 text-sm">
        <input
          type="checkbox"
          className="mt-0.5 size-4 accent-primary-600"
          checked={autoCheckout}
          onChange={(event) => setAutoCheckout(event.target.checked)}
        />
        <span>
          <span className="font-medium text-ink">{AUTO_CHECKOUT_LABEL}</span>
          <span className="block text-slate-500">
            Otherwise the cart closes and you check out by hand.
          </span>
        </span>
      </label>
      <div className="flex flex-wrap gap-2">
        <Button
          type="submit"
          loading={save.isPending && save.variables !== null}
          disabled={save.isPending}
        >
          {SAVE_DEADLINE}
        </Button>
        {deadline && (
          <Button
            type="button"
            variant="secondary"
            loading={save.isPending && save.variables === null}
            disabled={save.isPending}
            onClick={() => save.mutate(null)}
          >
            {REMOVE_DEADLINE}
          </Button>
        )}
      </div>
    </form>
  );
}

/** A closed cart's deadline removed: it opens again, with no deadline. */
function RemoveDeadline({ sessionId }: { sessionId: string }) {
  const remove = useSaveDeadline(sessionId, {
    onSuccess: () => successToast("Deadline removed: the cart is open again."),
    onError: (failure) => failureToast("Could not remove the deadline", failure),
  });
  return (
    <div>
      <Button
        variant="ghost"
        size="sm"
        loading={remove.isPending}
        onClick={() => remove.mutate(null)}
      >
        {REMOVE_DEADLINE}
      </Button>
    </div>
  );
}
