import type { ReactNode } from "react";
import { Copy, Crown } from "lucide-react";
import { can, type Member, type Role, type Session } from "@cartner/contract";
import { Avatar, Badge, Container } from "../../components/ui/index.ts";
import { cn } from "../../lib/cn.ts";
import { toast } from "../../lib/toast.ts";
import { MemberControls } from "./ManageMembers.tsx";
import { roleLabels } from "./session-model.ts";

/* The lobby's parts: its detail tiles, copyable values, member lists and loading skeleton. */

export const NOT_AVAILABLE = "N/A";

/** Passcode text: hidden from viewers (the API omits it for them), 'N/A' when there is none. */
export function passcodeText(session: Session, role: Role | null): string {
  if (session.passcode) return session.passcode;
  if (session.hasPasscode && !can(role, "session.passcode")) return "Hidden";
  return NOT_AVAILABLE;
}

export function Detail({
  label,
  children,
  className,
}: {
  label: string;
  children: ReactNode;
  className?: string;
}) {
  return (
    <div
      className={cn(
        "flex min-w-0 flex-col gap-1 rounded-xl bg-slate-50 px-3 py-2.5 ring-1 ring-slate-200/70 ring-inset",
        className,
      )}
    >
      <dt className="text-xs font-medium text-slate-500">{label}</dt>
      <dd className="min-w-0 font-semibold text-ink">{children}</dd>
    </div>
  );
}

export function CopyValue({ value, what }: { value: string; what: string }) {
  const canCopy = value !== NOT_AVAILABLE && typeof navigator !== "undefined";
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      toast.success(`${what} copied`, { autoClose: 3000 });
    } catch {
      toast.error(`Could not copy the ${what.toLowerCase()}`, { autoClose: 6000 });
    }
  }
  return (
    <span className="flex items-center gap-1">
      <span className="truncate font-mono tracking-wider">{value}</span>
      {canCopy && (
        <button
          type="button"
          onClick={() => void copy()}
          className="-my-1 inline-flex size-8 shrink-0 items-center justify-center rounded-lg text-slate-500 hover:bg-slate-200/60 hover:text-ink"
        >
          <Copy aria-hidden="true" className="size-4" />
          <span className="sr-only">Copy {what.toLowerCase()}</span>
        </button>
      )}
    </span>
  );
}

export function PasscodeValue({ session, role }: { session: Session; role: Role | null }) {
  const text = passcodeText(session, role);
  if (text === "Hidden") {
    return (
      <span className="font-normal text-slate-500">
        Hidden
        <span className="sr-only"> (only the creator and participants can see it)</span>
      </span>
    );
  }
  if (text === NOT_AVAILABLE) return <span>{NOT_AVAILABLE}</span>;
  return <CopyValue value={text} what="Passcode" />;
}

export function MemberList({
  members,
  labelledBy,
  userId,
  manage,
}: {
  members: Member[];
  labelledBy: string;
  userId: string | undefined;
  /** The creator's lobby: each other member gets role, hand-over and remove controls. */
  manage?: Session | undefined;
}) {
  return (
    <ul aria-labelledby={labelledBy} className="grid gap-2 sm:grid-cols-2">
      {members.map((member) => (
        <li
          key={member.userId}
          className="flex min-w-0 items-start gap-3 rounded-xl px-2 py-1.5 hover:bg-slate-50"
        >
          <Avatar src={member.avatar} seed={member.userId} name={member.name} />
          <div className="flex min-w-0 flex-1 flex-col items-start gap-0.5">
            <span className="font-semibold break-words text-ink">
              {member.name}
              {member.userId === userId && (
                <span className="font-normal text-slate-500"> (you)</span>
              )}
            </span>
            {member.role === "creator" ? (
              <Badge tone="accent">
                <Crown aria-hidden="true" className="size-3.5" />
                Creator
              </Badge>
            ) : (
              <span className="text-sm text-slate-500">{roleLabels[member.role]}</span>
            )}
            {member.ready && <Badge tone="success">Done</Badge>}
            {member.child && <Badge tone="neutral">Child</Badge>}
            {manage && member.userId !== userId && (
              <MemberControls session={manage} member={member} />
            )}
          </div>
        </li>
      ))}
    </ul>
  );
}

export function LobbySkeleton() {
  return (
    <Container className="flex flex-col gap-6 py-6 sm:py-8">
      <div role="status" className="sr-only">
        Loading session…
      </div>
      <div aria-hidden="true" className="flex animate-pulse flex-col gap-6">
        <div className="h-4 w-28 rounded bg-slate-200" />
        <div className="flex flex-col gap-5 rounded-card bg-surface p-5 shadow-soft ring-1 ring-slate-900/5 sm:p-7">
          <div className="h-5 w-20 rounded-full bg-slate-200" />
          <div className="h-8 w-2/3 rounded bg-slate-200" />
          <div className="grid grid-cols-2 gap-3 sm:grid-cols-4">
            {Array.from({ length: 4 }, (_, i) => (
              <div key={i} className="h-16 rounded-xl bg-slate-100" />
            ))}
          </div>
          <div className="grid grid-cols-3 gap-2">
            {Array.from({ length: 3 }, (_, i) => (
              <div key={i} className="h-20 rounded-xl bg-slate-100" />
            ))}
          </div>
          <div className="flex gap-2">
            <div className="h-11 w-32 rounded-xl bg-slate-200" />
            <div className="h-11 w-44 rounded-xl bg-slate-200" />
          </div>
        </div>
        <div className="h-48 rounded-card bg-surface shadow-soft ring-1 ring-slate-900/5" />
      </div>
    </Container>
  );
}
