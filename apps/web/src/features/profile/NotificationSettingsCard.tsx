import { useId, useState, type FormEvent } from "react";
import {
  NOTIFICATION_CHANNELS,
  NOTIFICATION_KINDS,
  type NotificationChannel,
  type NotificationKind,
  type NotificationPreferences,
} from "@cartner/contract";
import {
  Button,
  Card,
  FormAlert,
  InlineLoadError,
  InlineLoading,
  Input,
  Label,
} from "../../components/ui/index.ts";
import { useNotificationPreferences, useSavePreferences } from "../../api/notifications.ts";
import { ApiError, errorMessage } from "../../lib/api.ts";
import { browserTimeZone } from "../../lib/time-zones.ts";
import { toast } from "../../lib/toast.ts";
import { checkboxClasses } from "./CheckField.tsx";
import { TimeZoneSelect } from "./TimeZoneSelect.tsx";

export const KIND_LABELS: Record<NotificationKind, string> = {
  changes: "Changes by others",
  reminder: "Reminders",
  checkout: "Checkout",
  payment: "Payments",
  membership: "Membership",
};
const KIND_HINTS: Record<NotificationKind, string> = {
  changes: "Lines added, changed or removed in your carts",
  reminder: "Deadlines coming up",
  checkout: "Your share when a cart is checked out",
  payment: "Shares marked paid or settled",
  membership: "Invites, join requests and their answers",
};
export const CHANNEL_LABELS: Record<NotificationChannel, string> = {
  inApp: "In app",
  push: "Push",
  email: "Email",
};

/**
 * "Notification settings": what to hear about on which channel (kinds × channels), and quiet hours that
 * hold push and email. Saved with one button.
 */
export function NotificationSettingsCard() {
  const titleId = useId();
  const preferences = useNotificationPreferences();
  return (
    <Card
      id="notification-settings"
      role="region"
      aria-labelledby={titleId}
      className="flex flex-col gap-4 p-5 sm:p-6"
    >
      <h2 id={titleId} className="text-lg font-bold sm:text-xl">
        Notification settings
      </h2>
      {preferences.isPending ? (
        <InlineLoading>Loading your notification settings…</InlineLoading>
      ) : preferences.isError ? (
        <InlineLoadError
          message={errorMessage(preferences.error, "We couldn't load your notification settings.")}
          onRetry={() => void preferences.refetch()}
        />
      ) : (
        <PreferencesForm initial={preferences.data} />
      )}
    </Card>
  );
}

function PreferencesForm({ initial }: { initial: NotificationPreferences }) {
  const [kinds, setKinds] = useState(initial.kinds);
  const [quiet, setQuiet] = useState(initial.quietHours !== null);
  const [from, setFrom] = useState(initial.quietHours?.from ?? "22:00");
  const [to, setTo] = useState(initial.quietHours?.to ?? "07:00");
  const [timeZone, setTimeZone] = useState(initial.quietHours?.timeZone ?? browserTimeZone());
  const [error, setError] = useState<string>();
  const ids = useId();
  const save = useSavePreferences({
    onSuccess: () => {
      setError(undefined);
      toast.success("Notification settings saved.");
    },
    onError: (err) => {
      const field = err instanceof ApiError ? Object.values(err.fields ?? {})[0] : undefined;
      setError(field ?? errorMessage(err, "We couldn't save your notification settings."));
    },
  });

  function toggle(kind: NotificationKind, channel: NotificationChannel, on: boolean) {
    setKinds((old) => ({ ...old, [kind]: { ...old[kind], [channel]: on } }));
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (quiet && from === to) {
      setError("Quiet hours need a different start and end.");
      return;
    }
    save.mutate({ kinds, quietHours: quiet ? { from, to, timeZone } : null });
  }

  return (
    <form onSubmit={submit} className="flex flex-col gap-5" noValidate>
      <p className="text-sm text-slate-600">
        Nothing tells you about your own changes. Push and email wait while your quiet hours last;
        the list in the app never does.
      </p>
      <div className="overflow-x-auto">
        <table className="w-full min-w-[18rem] text-sm">
          <caption className="sr-only">What you hear about, and where</caption>
          <thead>
            <tr className="text-left text-slate-600">
              <th scope="col" className="py-2 pr-2 font-semibold">
                Kind
              </th>
              {NOTIFICATION_CHANNELS.map((channel) => (
                <th key={channel} scope="col" className="px-2 py-2 text-center font-semibold">
                  {CHANNEL_LABELS[channel]}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {NOTIFICATION_KINDS.map((kind) => (
              <tr key={kind}>
                <th scope="row" className="py-2.5 pr-2 text-left align-top font-normal">
                  <span className="block font-semibold text-ink">{KIND_LABELS[kind]}</span>
                  <span className="block text-xs text-slate-500">{KIND_HINTS[kind]}</span>
                </th>
                {NOTIFICATION_CHANNELS.map((channel) => (
                  <td key={channel} className="px-2 py-2.5 text-center align-top">
                    <input
                      type="checkbox"
                      aria-label={`${KIND_LABELS[kind]}: ${CHANNEL_LABELS[channel]}`}
                      checked={kinds[kind][channel]}
                      onChange={(event) => toggle(kind, channel, event.target.checked)}
                      className={checkboxClasses}
                    />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <fieldset className="flex flex-col gap-3">
        <legend className="sr-only">Quiet hours</legend>
        <label className="flex cursor-pointer items-center gap-2 text-sm font-semibold text-slate-800">
          <input
            type="checkbox"
            checked={quiet}
            onChange={(event) => setQuiet(event.target.checked)}
            className={checkboxClasses}
          />
          Quiet hours
        </label>
        {quiet && (
          <div className="grid gap-3 sm:grid-cols-[8rem_8rem_1fr]">
            <TimeField label="From" value={from} onChange={setFrom} />
            <TimeField label="To" value={to} onChange={setTo} />
            <div className="flex min-w-0 flex-col gap-1.5">
              <Label htmlFor={`${ids}-zone`}>Time zone</Label>
              <TimeZoneSelect id={`${ids}-zone`} value={timeZone} onChange={setTimeZone} />
            </div>
          </div>
        )}
      </fieldset>
      <FormAlert message={error} />
      <div>
        <Button type="submit" loading={save.isPending}>
          Save
        </Button>
      </div>
    </form>
  );
}

/** A labelled HH:MM input. */
function TimeField({
  label,
  value,
  onChange,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
}) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        type="time"
        value={value}
        required
        onChange={(event) => onChange(event.target.value)}
      />
    </div>
  );
}
