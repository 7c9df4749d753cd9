import { useId, useState, type FormEvent } from "react";
import { Button, Card, FormAlert, Label } from "../../components/ui/index.ts";
import { useSetTimeZone } from "../../api/profile.ts";
import { ApiError, errorMessage } from "../../lib/api.ts";
import { browserTimeZone } from "../../lib/time-zones.ts";
import { toast } from "../../lib/toast.ts";
import { TimeZoneSelect } from "./TimeZoneSelect.tsx";

export const TIME_ZONE_SAVED = "Time zone saved.";

/**
 * "Your time zone": the zone mails, notifications, pushes and receipts state times in. It follows
 * the browser at each sign-in until chosen here; from then on it stays as chosen.
 */
export function TimeZoneCard({ current }: { current: string }) {
  const ids = useId();
  const [timeZone, setTimeZone] = useState(current);
  const [error, setError] = useState<string>();
  const here = browserTimeZone();
  const save = useSetTimeZone({
    onSuccess: (answer) => {
      setTimeZone(answer.timeZone);
      setError(undefined);
      toast.success(TIME_ZONE_SAVED);
    },
    onError: (failure) =>
      setError(
        failure instanceof ApiError && failure.fields?.timeZone
          ? failure.fields.timeZone
          : errorMessage(failure, "We couldn't save your time zone."),
      ),
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    save.mutate(timeZone);
  }

  return (
    <Card role="region" aria-labelledby={`${ids}-title`} className="flex flex-col gap-4 p-5 sm:p-6">
      <div className="flex flex-col gap-1">
        <h2 id={`${ids}-title`} className="text-lg font-bold sm:text-xl">
          Your time zone
        </h2>
        <p className="text-sm text-slate-600">
          Mails, notifications and receipts state times in it, with its name. Now:{" "}
          <strong className="font-semibold text-ink">{current.replaceAll("_", " ")}</strong>.
        </p>
      </div>
      <form onSubmit={submit} className="flex flex-col gap-3" noValidate aria-label="Time zone">
        <div className="flex flex-col gap-1.5">
          <Label htmlFor={`${ids}-zone`}>Time zone</Label>
          <TimeZoneSelect
            id={`${ids}-zone`}
            value={timeZone}
            onChange={setTimeZone}
            className="sm:max-w-xs"
          />
          {here !== timeZone && (
            <p className="text-xs text-slate-500">
              This browser is in {here.replaceAll("_", " ")}.{" "}
              <button
                type="button"
                className="font-semibold text-primary-700 underline underline-offset-2"
                onClick={() => setTimeZone(here)}
              >
                Use it
              </button>
            </p>
          )}
        </div>
        <FormAlert message={error} />
        <div className="flex justify-end">
          <Button type="submit" loading={save.isPending} disabled={timeZone === current}>
            Save time zone
          </Button>
        </div>
      </form>
    </Card>
  );
}
