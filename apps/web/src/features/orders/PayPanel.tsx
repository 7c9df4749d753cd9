import { useEffect, useState } from "react";
import { Copy, ExternalLink, Landmark } from "lucide-react";
import type { Order, PayInfo } from "@cartner/contract";
import {
  Button,
  InlineLoadError,
  InlineLoading,
  Panel,
  buttonClasses,
} from "../../components/ui/index.ts";
import { usePayInfo } from "../../api/payments.ts";
import { errorMessage } from "../../lib/api.ts";
import { formatMoney } from "../../lib/format.ts";
import { toast } from "../../lib/toast.ts";

/** "DE89370400440532013000" -> "DE89 3704 0044 0532 0130 00", as banks print it. */
export const groupedIban = (iban: string): string => iban.replace(/(.{4})(?=.)/g, "$1 ");

/** Copies a value, saying so in a toast (or how to copy by hand when the browser refuses). */
async function copy(label: string, value: string) {
  try {
    await navigator.clipboard.writeText(value);
    toast.success(`${label} copied.`);
  } catch {
    toast.error(`We couldn't copy the ${label.toLowerCase()}: select it and copy it yourself.`);
  }
}

/**
 * "Pay Ann": for a member who still owes on the order, the payee's payment details with copy
 * buttons, their pay link, and in EUR the EPC QR code a banking app scans to fill the transfer.
 */
export function PayPanel({ order }: { order: Order }) {
  const info = usePayInfo(order._id, true);
  return (
    <Panel
      title={`Pay ${order.payee.name}`}
      icon={Landmark}
      description="Copy the details into your bank or payment app, then say you've paid."
    >
      {info.isPending ? (
        <InlineLoading>Loading {order.payee.name}'s payment details…</InlineLoading>
      ) : info.isError ? (
        <InlineLoadError
          message={errorMessage(info.error, "We couldn't load the payment details.")}
          onRetry={() => void info.refetch()}
        />
      ) : (
        <PayDetails info={info.data} />
      )}
    </Panel>
  );
}

function PayDetails({ info }: { info: PayInfo }) {
  const { details } = info;
  // Settled meanwhile (or only a credit is left): the server no longer gives the details.
  if (info.amount === 0) {
    return (
      <p role="status" className="text-sm text-slate-700">
        You have nothing left to pay {info.payee.name} on this order.
      </p>
    );
  }
  const nothingSaid = !details.iban && !details.accountName && !details.payLink && !details.note;
  return (
    <div className="flex flex-col gap-4">
      <dl className="flex flex-col gap-3">
        <CopyRow label="Amount" shown={formatMoney(info.amount)} value={info.amount.toFixed(2)} />
        <CopyRow label="Reference" shown={info.reference} value={info.reference} />
        {details.iban && (
          <CopyRow label="IBAN" shown={groupedIban(details.iban)} value={details.iban} />
        )}
        {details.accountName && (
          <CopyRow label="Account name" shown={details.accountName} value={details.accountName} />
        )}
      </dl>
      {details.note && (
        <p className="rounded-xl bg-slate-50 p-3 text-sm break-words whitespace-pre-line text-slate-700 ring-1 ring-slate-200 ring-inset">
          <span className="font-semibold">{info.payee.name} says: </span>
          {details.note}
        </p>
      )}
      {nothingSaid && (
        <p className="text-sm text-slate-600">
          {info.payee.name} hasn't said how they like to be paid yet. Ask them, or pay as you
          usually do.
        </p>
      )}
      {details.payLink && (
        <a
          href={details.payLink}
          target="_blank"
          rel="noopener noreferrer"
          className={buttonClasses({ variant: "secondary", fullWidth: true })}
        >
          <ExternalLink aria-hidden="true" className="size-4" />
          Pay with {linkHost(details.payLink)}
          <span className="sr-only"> (opens in a new tab)</span>
        </a>
      )}
      {info.epcQr && <EpcQrCode payload={info.epcQr} info={info} />}
    </div>
  );
}

/** "paypal.me" from "https://paypal.me/ann": what the button names. */
function linkHost(link: string): string {
  try {
    return new URL(link).hostname.replace(/^www\./, "");
  } catch {
    return "the link";
  }
}

function CopyRow({ label, shown, value }: { label: string; shown: string; value: string }) {
  return (
    // A group of a description list holds only its term and descriptions: the Copy button is a
    // description of its own, beside the two text lines.
    <div className="grid grid-cols-[minmax(0,1fr)_auto] content-center items-center gap-x-3">
      <dt className="col-start-1 row-start-1 text-xs font-semibold tracking-wide text-slate-500 uppercase">
        {label}
      </dt>
      <dd className="col-start-1 row-start-2 font-semibold break-all text-ink tabular-nums">
        {shown}
      </dd>
      <dd className="col-start-2 row-span-2 row-start-1">
        <Button
          type="button"
          variant="secondary"
          size="sm"
          onClick={() => void copy(label, value)}
          aria-label={`Copy the ${label.toLowerCase()}`}
        >
          <Copy aria-hidden="true" className="size-4" />
          Copy
        </Button>
      </dd>
    </div>
  );
}

/**
 * The EPC (SEPA credit transfer) QR code, drawn in the browser by the qrcode library the invite
 * links use (loaded when first shown). The EPC guidelines ask for error correction level M.
 */
function EpcQrCode({ payload, info }: { payload: string; info: PayInfo }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void import("qrcode").then(async (QRCode) => {
      const data = await QRCode.toDataURL(payload, {
        margin: 4,
        width: 240,
        errorCorrectionLevel: "M",
      });
      if (live) setSrc(data);
    });
    return () => {
      live = false;
    };
  }, [payload]);
  return (
    <figure className="flex flex-col items-center gap-2">
      {src ? (
        <img
          src={src}
          width={240}
          height={240}
          alt={`QR code for your banking app: ${formatMoney(info.amount)} to ${info.payee.name}, reference ${info.reference}`}
          data-testid="epc-qr"
          className="rounded-xl bg-white ring-1 ring-slate-200"
        />
      ) : (
        <InlineLoading>Drawing the QR code…</InlineLoading>
      )}
      <figcaption className="text-center text-sm text-slate-600">
        Scan with your banking app to fill in the transfer.
      </figcaption>
    </figure>
  );
}
