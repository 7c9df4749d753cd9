import { useId, useState, type FormEvent } from "react";
import { Link, useNavigate } from "../../lib/router.tsx";
import { toast } from "../../lib/toast.ts";
import { Download, LaptopMinimal, LogOut, ShieldAlert, Smartphone, Trash2 } from "lucide-react";
import UAParser from "ua-parser-js";
import type { UnsettledShare } from "@cartner/contract";
import { useDevices, useSignOutDevice } from "../../api/auth.ts";
import { useDeleteAccount, useExportData } from "../../api/profile.ts";
import {
  Badge,
  Button,
  Card,
  ConfirmDialog,
  FormAlert,
  InlineLoadError,
  InlineLoading,
  TextField,
} from "../../components/ui/index.ts";
import { ApiError, errorMessage } from "../../lib/api.ts";
import { signOutLocally } from "../../lib/auth-store.ts";
import { formatDateTime } from "../../lib/format.ts";
import { unsettledSentence, unsettledSharesOf } from "./profile-model.ts";

export const ACCOUNT_DELETED_MESSAGE = "Your account was deleted.";

/** "Firefox on Windows", from the user agent the browser sent at sign-in (ua-parser-js). */
export function describeDevice(userAgent: string): { name: string; mobile: boolean } {
  if (!userAgent) return { name: "Unknown device", mobile: false };
  const parsed = new UAParser(userAgent).getResult();
  const browser = parsed.browser.name ?? "A browser";
  const os = parsed.os.name;
  return {
    name: os ? `${browser} on ${os}` : browser,
    mobile: parsed.device.type === "mobile" || parsed.device.type === "tablet",
  };
}

/** Signed-in devices, with sign-out for each. */
export function DevicesCard() {
  const titleId = useId();
  const devices = useDevices();
  const signOut = useSignOutDevice({
    onSuccess: (_, device) => {
      toast.success(`${describeDevice(device.userAgent).name} was signed out.`);
    },
    onError: (error) => toast.error(errorMessage(error, "We couldn't sign that device out.")),
  });
  return (
    <Card role="region" aria-labelledby={titleId} className="flex flex-col gap-4 p-5 sm:p-6">
      <h2 id={titleId} className="text-lg font-bold sm:text-xl">
        Devices
      </h2>
      {devices.isPending ? (
        <InlineLoading>Loading your devices…</InlineLoading>
      ) : devices.isError ? (
        <InlineLoadError
          message={errorMessage(devices.error, "We couldn't load your devices.")}
          onRetry={() => void devices.refetch()}
        />
      ) : (
        <ul aria-label="Signed-in devices" className="flex flex-col divide-y divide-slate-100">
          {devices.data.map((device) => {
            const { name, mobile } = describeDevice(device.userAgent);
            const Icon = mobile ? Smartphone : LaptopMinimal;
            return (
              <li key={device._id} className="flex flex-wrap items-center gap-3 py-3">
                <Icon aria-hidden="true" className="size-5 text-slate-500" />
                <div className="flex min-w-0 flex-1 flex-col">
                  <span className="font-semibold text-ink">
                    {name} {device.current && <Badge tone="success">This device</Badge>}
                  </span>
                  <span className="text-sm text-slate-500">
                    Signed in {formatDateTime(device.createdAt)} · last seen{" "}
                    {formatDateTime(device.lastSeenAt)}
                  </span>
                </div>
                {!device.current && (
                  <Button
                    size="sm"
                    variant="secondary"
                    aria-label={`Sign out ${name}, last seen ${formatDateTime(device.lastSeenAt)}`}
                    loading={signOut.isPending && signOut.variables?._id === device._id}
                    onClick={() => signOut.mutate(device)}
                  >
                    <LogOut aria-hidden="true" className="size-4" />
                    Sign out
                  </Button>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </Card>
  );
}

/** The deletion's second question: the shares still open, each linking to its order. */
function UnsettledSharesDialog({
  shares,
  onConfirm,
  onCancel,
}: {
  shares: UnsettledShare[] | null;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const count = shares?.length ?? 0;
  return (
    <ConfirmDialog
      open={shares !== null}
      title={`You have ${count} unsettled ${count === 1 ? "share" : "shares"}`}
      description={
        <div className="flex flex-col gap-3">
          <ul aria-label="Unsettled shares" className="flex flex-col gap-1.5">
            {shares?.map((share) => (
              <li key={`${share.orderId}-${share.counterparty._id}`}>
                <Link
                  to={`/orders/${share.orderId}`}
                  className="font-semibold text-primary-700 hover:underline"
                >
                  {unsettledSentence(share).slice(0, -share.number.length)}
                  {/* "CRT-000012" never breaks at its hyphen. */}
                  <span className="whitespace-nowrap">{share.number}</span>
                </Link>
              </li>
            ))}
          </ul>
          <p>
            Settle up first, or delete anyway: what you owe stays on the orders for the payee to
            settle, and what you are owed is written off.
          </p>
        </div>
      }
      confirmLabel="Delete anyway"
      cancelLabel="Keep my account"
      onConfirm={onConfirm}
      onCancel={onCancel}
    />
  );
}

/** Download my data, and delete my account (password and a plain warning first). */
export function YourDataCard() {
  const titleId = useId();
  const navigate = useNavigate();
  const [deleting, setDeleting] = useState(false);
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  /** Shares the server listed when refusing: deleting anyway needs a second yes. */
  const [unsettled, setUnsettled] = useState<UnsettledShare[] | null>(null);
  const download = useExportData({
    onError: (failure) => toast.error(errorMessage(failure, "We couldn't prepare your data.")),
  });
  const remove = useDeleteAccount(password, {
    onSuccess: () => {
      signOutLocally();
      toast.success(ACCOUNT_DELETED_MESSAGE, { autoClose: 8000 });
      navigate("/", { replace: true });
    },
    onError: (failure) => {
      const shares = unsettledSharesOf(failure);
      if (shares) {
        setUnsettled(shares);
        return;
      }
      setError(
        failure instanceof ApiError && failure.status === 403
          ? "That password is not right."
          : errorMessage(failure, "We couldn't delete your account."),
      );
    },
  });

  function onDelete(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!password) {
      setError("Enter your password to confirm.");
      return;
    }
    setError(null);
    remove.mutate(false);
  }

  return (
    <Card role="region" aria-labelledby={titleId} className="flex flex-col gap-4 p-5 sm:p-6">
      <h2 id={titleId} className="text-lg font-bold sm:text-xl">
        Your data
      </h2>
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" loading={download.isPending} onClick={() => download.mutate()}>
          {!download.isPending && <Download aria-hidden="true" className="size-4" />}
          Download my data
        </Button>
        {!deleting && (
          <Button variant="danger" onClick={() => setDeleting(true)}>
            <Trash2 aria-hidden="true" className="size-4" />
            Delete my account
          </Button>
        )}
      </div>
      {deleting && (
        <form
          onSubmit={onDelete}
          aria-label="Delete my account"
          className="flex flex-col gap-4 rounded-2xl bg-danger-50 p-4 ring-1 ring-danger-100 ring-inset"
        >
          <p className="flex gap-2 text-sm text-danger-700">
            <ShieldAlert aria-hidden="true" className="size-5 shrink-0" />
            <span>
              This cannot be undone. Your profile, devices and memberships are erased, and your
              items leave carts not yet checked out. Sessions you created and still run end, their
              carts kept as history for the others: hand a session over in its lobby first to keep
              it going. Orders keep your name as it was, and what you owe on them stays for the
              payee to settle.
            </span>
          </p>
          <TextField
            label="Your password"
            name="password"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
          <FormAlert message={error} live />
          <div className="flex flex-wrap gap-2">
            <Button type="submit" variant="danger" loading={remove.isPending}>
              Delete my account for good
            </Button>
            <Button variant="secondary" onClick={() => setDeleting(false)}>
              Cancel
            </Button>
          </div>
        </form>
      )}
      <UnsettledSharesDialog
        shares={unsettled}
        onCancel={() => setUnsettled(null)}
        onConfirm={() => {
          setUnsettled(null);
          remove.mutate(true);
        }}
      />
    </Card>
  );
}
