import { useEffect, useId, useState, type FormEvent, type ReactNode } from "react";
import { toast } from "../../lib/toast.ts";
import { Copy, Eye, Link2, QrCode, Share2, Trash2 } from "lucide-react";
import type { InviteLink } from "@cartner/contract";
import {
  useCreateInviteLink,
  useInviteLinks,
  useRevokeInviteLink,
} from "../../api/invite-links.ts";
import {
  Badge,
  Button,
  InlineLoadError,
  InlineLoading,
  Label,
  NativeSelect,
} from "../../components/ui/index.ts";
import { errorMessage } from "../../lib/api.ts";
import { formatDateTime } from "../../lib/format.ts";

const EXPIRIES = [
  { hours: 1, label: "1 hour" },
  { hours: 24, label: "1 day" },
  { hours: 168, label: "7 days" },
  { hours: 720, label: "30 days" },
];
const USES = [1, 5, 10, 25, 100];

/** Why a link is off, or null while it works. */
export function linkState(link: InviteLink, now = Date.now()): string | null {
  if (link.revoked) return "Revoked";
  if (Date.parse(link.expiresAt) <= now) return "Expired";
  if (link.maxUses !== null && link.uses >= link.maxUses) return "Used up";
  return null;
}

/**
 * Invite links for the creator: whoever opens one joins with its
 * role, no approval; each has an expiry and a use limit, a QR code for across the table, copy and
 * share, and can be revoked. A look-only link joins nobody: it shows the list to someone without
 * an account (the one doing the shop), until it expires or is revoked.
 */
export function InviteLinksCard({ sessionId }: { sessionId: string }) {
  const titleId = useId();
  const [kind, setKind] = useState<"join" | "look">("join");
  const [role, setRole] = useState<"participant" | "viewer">("participant");
  const [hours, setHours] = useState(24);
  const [maxUses, setMaxUses] = useState(5);
  const links = useInviteLinks(sessionId);
  const lookOnly = kind === "look";
  const create = useCreateInviteLink(
    sessionId,
    () =>
      lookOnly
        ? { lookOnly: true, expiresInHours: hours }
        : { role, expiresInHours: hours, maxUses },
    {
      onSuccess: () => {
        toast.success(
          lookOnly
            ? "Look-only link ready: whoever opens it sees the list, without an account."
            : "Invite link ready: share it or show its QR code.",
        );
      },
      onError: (error) => toast.error(errorMessage(error, "We couldn't make a link. Try again.")),
    },
  );

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    create.mutate();
  }

  return (
    <section
      aria-labelledby={titleId}
      className="flex flex-col gap-4 rounded-card bg-surface p-5 shadow-soft ring-1 ring-slate-900/5 sm:p-6"
    >
      <div className="flex items-center gap-2">
        <Link2 aria-hidden="true" className="size-5 text-primary-600" />
        <h2 id={titleId} className="text-lg font-bold sm:text-xl">
          Invite links
        </h2>
      </div>
      <p className="text-sm text-slate-600">
        Anyone with a link joins with its role, without a code or your approval. A look-only link
        lets someone without an account see the list, for example whoever does the shop for you.
      </p>
      <form onSubmit={onSubmit} className="grid grid-cols-2 gap-3" aria-label="New invite link">
        <Choice
          label="Kind of link"
          value={kind}
          onChange={(v) => setKind(v === "look" ? "look" : "join")}
          wide
        >
          <option value="join">Joins the session</option>
          <option value="look">Look only: shows the list, no account</option>
        </Choice>
        {lookOnly ? (
          <p className="col-span-2 text-sm text-slate-600" data-testid="look-only-help">
            Whoever opens it sees each item, its quantity, picture and note, and the total, as they
            change. No names, emails or shares. Revoke it to end the view at once.
          </p>
        ) : (
          <Choice
            label="Role"
            value={role}
            onChange={(v) => setRole(v === "viewer" ? "viewer" : "participant")}
          >
            <option value="participant">Participant</option>
            <option value="viewer">Viewer</option>
          </Choice>
        )}
        <Choice label="Works for" value={String(hours)} onChange={(v) => setHours(Number(v))}>
          {EXPIRIES.map((e) => (
            <option key={e.hours} value={e.hours}>
              {e.label}
            </option>
          ))}
        </Choice>
        {!lookOnly && (
          <Choice label="Uses" value={String(maxUses)} onChange={(v) => setMaxUses(Number(v))}>
            {USES.map((n) => (
              <option key={n} value={n}>
                {n === 1 ? "1 person" : `${n} people`}
              </option>
            ))}
          </Choice>
        )}
        <Button type="submit" loading={create.isPending} className="col-span-2">
          {!create.isPending &&
            (lookOnly ? (
              <Eye aria-hidden="true" className="size-4" />
            ) : (
              <Link2 aria-hidden="true" className="size-4" />
            ))}
          {lookOnly ? "Create look-only link" : "Create invite link"}
        </Button>
      </form>
      {links.isPending ? (
        <InlineLoading>Loading invite links…</InlineLoading>
      ) : links.isError ? (
        <InlineLoadError
          message={errorMessage(links.error, "We couldn't load the links.")}
          onRetry={() => void links.refetch()}
        />
      ) : links.data.length === 0 ? (
        <p className="text-sm text-slate-500">No invite links yet.</p>
      ) : (
        <ul aria-label="Invite links" className="flex flex-col gap-3">
          {links.data.map((link) => (
            <LinkRow key={link._id} link={link} sessionId={sessionId} />
          ))}
        </ul>
      )}
    </section>
  );
}

function Choice({
  label,
  value,
  onChange,
  children,
  wide = false,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  children: ReactNode;
  wide?: boolean;
}) {
  const id = useId();
  return (
    <div className={wide ? "col-span-2 flex flex-col gap-1.5" : "flex flex-col gap-1.5"}>
      <Label htmlFor={id}>{label}</Label>
      <NativeSelect id={id} value={value} onChange={(event) => onChange(event.target.value)}>
        {children}
      </NativeSelect>
    </div>
  );
}

function LinkRow({ link, sessionId }: { link: InviteLink; sessionId: string }) {
  const [showQr, setShowQr] = useState(false);
  const off = linkState(link);
  const revoke = useRevokeInviteLink(sessionId, link._id, {
    onSuccess: () => {
      toast.success(
        link.lookOnly
          ? "Look-only link revoked: the list is no longer shown to anyone with it."
          : "Invite link revoked: it no longer works.",
      );
    },
    onError: (error) => toast.error(errorMessage(error, "We couldn't revoke the link.")),
  });
  const canShare = typeof navigator !== "undefined" && typeof navigator.share === "function";

  async function copy() {
    try {
      await navigator.clipboard.writeText(link.url);
      toast.success("Invite link copied", { autoClose: 3000 });
    } catch {
      toast.error("Could not copy the link", { autoClose: 6000 });
    }
  }

  async function share() {
    try {
      await navigator.share({
        title: link.lookOnly ? "Our shopping list on Cartner" : "Join my Cartner session",
        url: link.url,
      });
    } catch {
      // Cancelled by the user: nothing to say.
    }
  }

  return (
    <li
      data-testid="invite-link"
      className="flex flex-col gap-2 rounded-2xl bg-slate-50 p-3 ring-1 ring-slate-200 ring-inset"
    >
      <div className="flex flex-wrap items-center gap-2 text-sm">
        {link.lookOnly ? (
          <Badge tone="accent">Look only</Badge>
        ) : (
          <>
            <Badge tone={link.role === "viewer" ? "neutral" : "primary"}>
              {link.role === "viewer" ? "Viewer" : "Participant"}
            </Badge>
            <span className="text-slate-600">
              {link.uses} of {link.maxUses} used
            </span>
          </>
        )}
        {off ? (
          <Badge tone="danger">{off}</Badge>
        ) : (
          <span className="text-slate-600">until {formatDateTime(link.expiresAt)}</span>
        )}
      </div>
      <p className="font-mono text-xs break-all text-slate-700">{link.url}</p>
      {!off && (
        <div className="flex flex-wrap gap-2">
          <Button size="sm" variant="secondary" onClick={() => void copy()}>
            <Copy aria-hidden="true" className="size-4" />
            Copy link
          </Button>
          {canShare && (
            <Button size="sm" variant="secondary" onClick={() => void share()}>
              <Share2 aria-hidden="true" className="size-4" />
              Share
            </Button>
          )}
          <Button
            size="sm"
            variant="secondary"
            aria-expanded={showQr}
            onClick={() => setShowQr((v) => !v)}
          >
            <QrCode aria-hidden="true" className="size-4" />
            {showQr ? "Hide QR code" : "Show QR code"}
          </Button>
          <Button
            size="sm"
            variant="secondary"
            loading={revoke.isPending}
            onClick={() => revoke.mutate()}
          >
            {!revoke.isPending && <Trash2 aria-hidden="true" className="size-4" />}
            Revoke
          </Button>
        </div>
      )}
      {showQr && !off && <LinkQrCode url={link.url} />}
    </li>
  );
}

/** The link as a QR code, drawn in the browser by the qrcode library (loaded when first shown). */
function LinkQrCode({ url }: { url: string }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void import("qrcode").then(async (QRCode) => {
      const data = await QRCode.toDataURL(url, {
        margin: 2,
        width: 240,
        errorCorrectionLevel: "M",
      });
      if (live) setSrc(data);
    });
    return () => {
      live = false;
    };
  }, [url]);
  if (!src) return <InlineLoading>Drawing the QR code…</InlineLoading>;
  return (
    <img
      src={src}
      width={240}
      height={240}
      alt="QR code of the link"
      data-testid="invite-qr"
      className="self-center rounded-xl bg-white ring-1 ring-slate-200"
    />
  );
}
