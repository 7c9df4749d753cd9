import { useId, useState } from "react";
import { ArrowLeft, ArrowRight, Repeat } from "lucide-react";
import { can, WEEKDAYS, type Role, type Session } from "@cartner/contract";
import { useSaveSeries } from "../../api/sessions.ts";
import { Button, ButtonLink, Input, NativeSelect } from "../../components/ui/index.ts";
import { failureToast, successToast } from "../../shared/cart-toasts.tsx";
import {
  WEEKDAY_NAMES,
  draftOf,
  localTimeZone,
  ruleOf,
  seriesSentence,
  type SeriesDraft,
} from "./series-model.ts";

/**
 * Whether the session repeats: everyone reads the rule and the next start, and can go to the
 * session before or after this one; the creator sets it (off, weekly on a day, every N days, at a
 * time in their own time zone) or ends the series.
 */
export function SeriesCard({ session, role }: { session: Session; role: Role | null }) {
  const titleId = useId();
  const editable = session.status === "active" && can(role, "session.series");
  const { series, previousSessionId, nextSessionId } = session;
  if (!editable && !series && !previousSessionId && !nextSessionId) return null;
  return (
    <section
      aria-labelledby={titleId}
      data-testid="series"
      className="flex flex-col gap-4 rounded-card bg-surface p-5 shadow-soft ring-1 ring-slate-900/5 sm:p-6"
    >
      <div className="flex items-center gap-2">
        <Repeat aria-hidden="true" className="size-5 text-primary-600" />
        <h2 id={titleId} className="text-lg font-bold sm:text-xl">
          Repeat
        </h2>
      </div>
      <p className="text-sm text-slate-600" data-testid="series-sentence">
        {series ? seriesSentence(series) : "This session does not repeat."}
        {series && <span className="text-slate-500"> ({series.timeZone})</span>}
      </p>
      {(previousSessionId || nextSessionId) && (
        <div className="flex flex-wrap gap-2">
          {previousSessionId && (
            <ButtonLink to={`/session/${previousSessionId}`} variant="secondary" size="sm">
              <ArrowLeft aria-hidden="true" className="size-4" />
              Previous session
            </ButtonLink>
          )}
          {nextSessionId && (
            <ButtonLink to={`/session/${nextSessionId}`} variant="secondary" size="sm">
              Next session
              <ArrowRight aria-hidden="true" className="size-4" />
            </ButtonLink>
          )}
        </div>
      )}
      {/* A series saved elsewhere (another tab, a refetch after a restored copy) starts the
          form over from it: the form always shows what it would send. */}
      {editable && (
        <SeriesEditor
          key={series ? `${series.rule} ${series.timeZone}` : "off"}
          session={session}
        />
      )}
    </section>
  );
}

function SeriesEditor({ session }: { session: Session }) {
  const [draft, setDraft] = useState<SeriesDraft>(() => draftOf(session.series));
  const ids = { mode: useId(), weekday: useId(), time: useId(), days: useId() };
  const timeZone = session.series?.timeZone ?? localTimeZone();
  const save = useSaveSeries(session._id, {
    onSuccess: ({ session: saved }) =>
      successToast(saved.series ? seriesSentence(saved.series) : "The series has ended."),
    onError: (error) => failureToast("Could not save the repeat", error),
  });
  const set = (change: Partial<SeriesDraft>) => setDraft((now) => ({ ...now, ...change }));
  const rule = ruleOf(draft);

  return (
    <form
      className="flex flex-col gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate(rule ? { rule, timeZone } : null);
      }}
    >
      <fieldset className="flex flex-col gap-2">
        <legend className="text-sm font-semibold text-ink">Start the next session</legend>
        {(
          [
            ["off", "Off"],
            ["weekly", "Every week"],
            ["daily", "Every few days"],
          ] as const
        ).map(([value, label]) => (
          <label key={value} className="flex items-center gap-2 text-sm">
            <input
              type="radio"
              name={ids.mode}
              value={value}
              checked={draft.mode === value}
              onChange={() => set({ mode: value })}
              className="size-4 accent-primary-600"
            />
            <span className="font-medium text-ink">{label}</span>
          </label>
        ))}
      </fieldset>
      {draft.mode !== "off" && (
        <div className="flex flex-wrap items-end gap-3">
          {draft.mode === "weekly" ? (
            <div className="flex flex-col gap-1.5">
              <label htmlFor={ids.weekday} className="text-sm font-semibold text-ink">
                On
              </label>
              <NativeSelect
                id={ids.weekday}
                value={draft.weekday}
                onChange={(e) => set({ weekday: e.target.value as SeriesDraft["weekday"] })}
              >
                {WEEKDAYS.map((d) => (
                  <option key={d} value={d}>
                    {WEEKDAY_NAMES[d]}
                  </option>
                ))}
              </NativeSelect>
            </div>
          ) : (
            <div className="flex flex-col gap-1.5">
              <label htmlFor={ids.days} className="text-sm font-semibold text-ink">
                Every how many days
              </label>
              <Input
                id={ids.days}
                type="number"
                min={1}
                max={52}
                className="w-24"
                value={draft.days}
                onChange={(e) =>
                  set({ days: Math.min(52, Math.max(1, Number(e.target.value) || 1)) })
                }
              />
            </div>
          )}
          <div className="flex flex-col gap-1.5">
            <label htmlFor={ids.time} className="text-sm font-semibold text-ink">
              At
            </label>
            <Input
              id={ids.time}
              type="time"
              required
              className="w-32"
              value={draft.time}
              onChange={(e) => set({ time: e.target.value })}
            />
          </div>
          <p className="pb-2 text-sm text-slate-500">Time zone: {timeZone}</p>
        </div>
      )}
      <p className="text-sm text-slate-500">
        The next session starts as soon as this one is checked out, or at the time above if it is
        not: same members, roles, budgets and split, with the lines kept for next week.
      </p>
      <div className="flex flex-wrap gap-2">
        <Button
          type="submit"
          size="sm"
          loading={save.isPending}
          disabled={!rule && !session.series}
        >
          Save
        </Button>
        {session.series && (
          <Button
            type="button"
            variant="secondary"
            size="sm"
            disabled={save.isPending}
            onClick={() => save.mutate(null)}
          >
            End series
          </Button>
        )}
      </div>
    </form>
  );
}
