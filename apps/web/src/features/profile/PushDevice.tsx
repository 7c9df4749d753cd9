import { useId } from "react";
import { BellOff, BellRing } from "lucide-react";
import {
  pushFailureMessage,
  useTurnOffPush,
  useTurnOnPush,
  usePushDevice,
  type PushDeviceState,
} from "../../api/push.ts";
import { Badge, Button, Card, InlineLoadError, InlineLoading } from "../../components/ui/index.ts";
import { errorMessage } from "../../lib/api.ts";
import { toast } from "../../lib/toast.ts";

const SAID: Record<PushDeviceState, string> = {
  on: "Notifications are on for this device.",
  off: "Notifications are off for this device.",
  blocked: "Notifications are blocked in the browser settings.",
  unsupported: "This browser cannot show notifications from Cartner.",
};

/**
 * "Notifications on this device": Web Push for the browser in hand. Turning it on asks the
 * browser's permission and subscribes this device; turning it off unsubscribes it. A browser
 * that blocked notifications says where to allow them again.
 */
export function PushDeviceCard() {
  const titleId = useId();
  const device = usePushDevice();
  const reactions = (failed: string) => ({
    onSuccess: (state: PushDeviceState) => toast.success(SAID[state]),
    onError: (error: Error) => toast.error(pushFailureMessage(error, failed)),
  });
  const turnOn = useTurnOnPush(
    reactions("Your browser couldn't turn on notifications for this device. Try again later."),
  );
  const turnOff = useTurnOffPush(
    reactions("We couldn't turn off notifications for this device. Try again."),
  );
  const busy = turnOn.isPending || turnOff.isPending;

  return (
    <Card role="region" aria-labelledby={titleId} className="flex flex-col gap-4 p-5 sm:p-6">
      <h2 id={titleId} className="text-lg font-bold sm:text-xl">
        Notifications on this device
      </h2>
      {device.isPending ? (
        <InlineLoading>Checking this device…</InlineLoading>
      ) : device.isError ? (
        <InlineLoadError
          message={errorMessage(device.error, "We couldn't check notifications on this device.")}
          onRetry={() => void device.refetch()}
        />
      ) : device.data === "on" ? (
        <div className="flex flex-wrap items-center gap-3">
          <BellRing aria-hidden="true" className="size-5 text-primary-600" />
          <p className="flex-1 text-slate-700">
            <Badge tone="success">On for this device</Badge>{" "}
            <span className="text-sm">
              Reminders, checkouts and changes by others reach you here.
            </span>
          </p>
          <Button size="sm" variant="secondary" loading={busy} onClick={() => turnOff.mutate()}>
            Turn off
          </Button>
        </div>
      ) : device.data === "off" ? (
        <div className="flex flex-wrap items-center gap-3">
          <BellOff aria-hidden="true" className="size-5 text-slate-500" />
          <p className="flex-1 text-sm text-slate-700">
            Get reminders, checkouts and changes by others here, even when Cartner is closed.
          </p>
          <Button size="sm" loading={busy} onClick={() => turnOn.mutate()}>
            Turn on
          </Button>
        </div>
      ) : (
        <p role="status" className="flex items-center gap-3 text-sm text-slate-700">
          <BellOff aria-hidden="true" className="size-5 shrink-0 text-slate-500" />
          {device.data === "blocked"
            ? "Blocked in the browser settings: allow notifications for this site there, then reload this page."
            : "This browser cannot show notifications from Cartner. Mail still reaches you."}
        </p>
      )}
    </Card>
  );
}
