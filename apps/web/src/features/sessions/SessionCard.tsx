import { useId } from "react";
import { Eye, LogOut, Pencil, Power } from "lucide-react";
import type { Session } from "@cartner/contract";
import { Badge, Button, ButtonLink } from "../../components/ui/index.ts";
import { roleIn } from "../../shared/roles.ts";
import { membersOf, roleLabels } from "./session-model.ts";
import { AvatarStack, MoneyStats, StatusBadge } from "./session-parts.tsx";

export interface SessionCardProps {
  session: Session;
  /** The signed-in user's id, to work out their role. */
  userId: string | null | undefined;
  onLeave: (session: Session) => void;
  onEnd: (session: Session) => void;
  /** Which action is running for this card, if any. */
  busy?: "leave" | "end" | null;
}

/** Which buttons a role gets on a card: only the creator edits and ends, others leave. */
export function cardActions(session: Session, userId: string | null | undefined) {
  const role = roleIn(session, userId);
  const active = session.status === "active";
  return {
    role,
    canEdit: active && role === "creator",
    canEnd: active && role === "creator",
    canLeave: active && role !== null && role !== "creator",
  };
}

/** One session in the sessions page's tabs: who, how much, and what you may do with it. */
export function SessionCard({ session, userId, onLeave, onEnd, busy = null }: SessionCardProps) {
  const titleId = useId();
  const { role, canEdit, canEnd, canLeave } = cardActions(session, userId);
  const id = encodeURIComponent(session._id);
  const members = membersOf(session);
  const leaveLabel = role === "pending" ? "Withdraw" : "Leave";

  return (
    <article
      aria-labelledby={titleId}
      className="flex h-full flex-col gap-4 rounded-card bg-surface p-4 shadow-soft ring-1 ring-slate-900/5 sm:p-5"
    >
      <header className="flex flex-col gap-1.5">
        <h3 id={titleId} className="line-clamp-2 text-lg font-bold break-words">
          {session.sessionName}
        </h3>
        <div className="flex flex-wrap items-center gap-1.5">
          <Badge tone="primary">{session.sessionType}</Badge>
          {session.status === "ended" && <StatusBadge status="ended" />}
          {role && role !== "participant" && (
            <Badge tone={role === "creator" ? "accent" : "neutral"}>
              {role === "creator" ? "You created it" : roleLabels[role]}
            </Badge>
          )}
        </div>
      </header>

      <div className="flex items-center gap-3">
        <AvatarStack members={members} />
        <span className="text-sm text-slate-500">
          {members.length} {members.length === 1 ? "member" : "members"}
        </span>
      </div>

      <MoneyStats session={session} />

      <div className="mt-auto flex flex-wrap gap-2">
        <ButtonLink
          to={`/session/${id}`}
          size="sm"
          variant="primary"
          aria-label={`View ${session.sessionName}`}
        >
          <Eye aria-hidden="true" className="size-4" />
          View
        </ButtonLink>
        {canEdit && (
          <ButtonLink
            to={`/session/edit/${id}`}
            size="sm"
            variant="secondary"
            aria-label={`Edit ${session.sessionName}`}
          >
            <Pencil aria-hidden="true" className="size-4" />
            Edit
          </ButtonLink>
        )}
        {canLeave && (
          <Button
            size="sm"
            variant="secondary"
            loading={busy === "leave"}
            onClick={() => onLeave(session)}
            aria-label={`${leaveLabel} ${session.sessionName}`}
          >
            {busy !== "leave" && <LogOut aria-hidden="true" className="size-4" />}
            {leaveLabel}
          </Button>
        )}
        {canEnd && (
          <Button
            size="sm"
            variant="secondary"
            className="text-danger-700 ring-danger-100 hover:bg-danger-50"
            loading={busy === "end"}
            onClick={() => onEnd(session)}
            aria-label={`End ${session.sessionName}`}
          >
            {busy !== "end" && <Power aria-hidden="true" className="size-4" />}
            End
          </Button>
        )}
      </div>
    </article>
  );
}

export function SessionCardSkeleton() {
  return (
    <div
      aria-hidden="true"
      className="flex animate-pulse flex-col gap-4 rounded-card bg-surface p-4 shadow-soft ring-1 ring-slate-900/5 sm:p-5"
    >
      <div className="flex items-start justify-between gap-3">
        <div className="flex flex-1 flex-col gap-2">
          <div className="h-5 w-2/3 rounded bg-slate-200" />
          <div className="h-4 w-16 rounded-full bg-slate-200" />
        </div>
        <div className="flex -space-x-2.5">
          <div className="size-9 rounded-full bg-slate-200 ring-2 ring-white" />
          <div className="size-9 rounded-full bg-slate-200 ring-2 ring-white" />
        </div>
      </div>
      <div className="grid grid-cols-3 gap-2">
        <div className="h-12 rounded-xl bg-slate-100" />
        <div className="h-12 rounded-xl bg-slate-100" />
        <div className="h-12 rounded-xl bg-slate-100" />
      </div>
      <div className="flex gap-2">
        <div className="h-9 w-20 rounded-xl bg-slate-200" />
        <div className="h-9 w-20 rounded-xl bg-slate-200" />
      </div>
    </div>
  );
}
