import { useId, useState, type ReactNode } from "react";
import { Link, useNavigate, useParams } from "../../lib/router.tsx";
import { toast } from "../../lib/toast.ts";
import {
  ArrowLeft,
  Copy,
  Crown,
  Hourglass,
  LogOut,
  Pencil,
  Plus,
  Power,
  ShoppingCart,
  Users,
} from "lucide-react";
import { can, type Member, type Role, type Session } from "@cartner/contract";
import {
  Avatar,
  Badge,
  Button,
  ButtonLink,
  ConfirmDialog,
  Container,
  LoadError,
} from "../../components/ui/index.ts";
import { errorMessage } from "../../lib/api.ts";
import { useAuth } from "../../lib/auth-store.ts";
import { cn } from "../../lib/cn.ts";
import { useActiveSession } from "../../shared/active-session.ts";
import { ActivityFeed } from "../activity/index.ts";
import { InviteLinksCard } from "./InviteLinksCard.tsx";
import { InvitePanel } from "./InvitePanel.tsx";
import { MemberControls, RotateCodeButton } from "./ManageMembers.tsx";
import { roleIn } from "../../shared/roles.ts";
import { membersOf, pendingOf, roleLabels } from "./session-model.ts";
import { MoneyStats, StatusBadge } from "./session-parts.tsx";
import { isNotFound } from "../../lib/api.ts";
import { useSessionDetail } from "../../api/sessions.ts";
import { SessionNotFound } from "./SessionNotFound.tsx";
import { END_SESSION_LABEL, EndSessionDialog } from "../../shared/EndSessionDialog.tsx";
import { SplitPolicyCard } from "./SplitPolicyCard.tsx";
import { useSessionActions } from "../../shared/session-actions.ts";

export const NOT_AVAILABLE = "N/A";

/** What the lobby offers a role (the server enforces the same; DESIGN sections 4 and 5). */
export function lobbyActions(session: Session, role: Role | null) {
  const active = session.status === "active";
  return {
    canLeave: active && can(role, "session.leave"),
    canEnd: active && can(role, "session.end"),
    canEdit: active && can(role, "session.edit"),
    canInvite: active && can(role, "session.invite"),
    canAddItems: active && can(role, "cart.add"),
    /** Roles, removal, hand-over, invite links and a new code (issue 20). */
    canManage: active && can(role, "session.manageMembers"),
  };
}

/** Passcode text: hidden from viewers (the API omits it for them), 'N/A' when there is none. */
export function passcodeText(session: Session, role: Role | null): string {
  if (session.passcode) return session.passcode;
  if (session.hasPasscode && !can(role, "session.passcode")) return "Hidden";
  return NOT_AVAILABLE;
}

/** /session/:sessionId: who is in, what it costs, and the creator's invite panel. */
export function SessionLobbyPage() {
  const { sessionId = "" } = useParams();
  const query = useSessionDetail(sessionId, { poll: true });

  if (query.isPending) return <LobbySkeleton />;
  if (query.isError && !query.data) {
    if (isNotFound(query.error)) return <SessionNotFound />;
    return (
      <Container className="py-10">
        <title>Session — Cartner</title>
        <LoadError
          title="We couldn't load this session."
          message={errorMessage(query.error, "Check your connection and try again.")}
          onRetry={() => void query.refetch()}
          retrying={query.isFetching}
        />
      </Container>
    );
  }
  return <Lobby session={query.data} />;
}

function Lobby({ session }: { session: Session }) {
  const navigate = useNavigate();
  const { user } = useAuth();
  const active = useActiveSession();
  const role = roleIn(session, user?._id);
  const actions = lobbyActions(session, role);
  const [confirming, setConfirming] = useState<"leave" | "end" | null>(null);
  const { leave, end } = useSessionActions({
    onDone: () => navigate("/sessions"),
  });
  const id = encodeURIComponent(session._id);
  const membersId = useId();
  const pendingId = useId();
  const members = membersOf(session);
  const pending = pendingOf(session);

  function addItems() {
    active.setActiveSessionId(session._id);
    navigate("/products");
  }

  function confirm() {
    const kind = confirming;
    setConfirming(null);
    if (kind === "leave") leave.mutate(session._id);
    if (kind === "end") end.mutate(session._id);
  }

  return (
    <Container className="flex flex-col gap-6 py-6 sm:py-8">
      <title>{`${session.sessionName} — Cartner`}</title>
      <Link
        to="/sessions"
        className="inline-flex items-center gap-1.5 self-start rounded-md text-sm font-semibold text-primary-700 hover:underline"
      >
        <ArrowLeft aria-hidden="true" className="size-4" />
        All sessions
      </Link>

      <section
        aria-labelledby="lobby-title"
        className="flex flex-col gap-5 rounded-card bg-surface p-5 shadow-soft ring-1 ring-slate-900/5 sm:p-7"
      >
        <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
          <div className="flex min-w-0 flex-col gap-2">
            <div className="flex flex-wrap items-center gap-2">
              <StatusBadge status={session.status} />
              {role && (
                <Badge tone={role === "creator" ? "accent" : "neutral"}>
                  You: {roleLabels[role]}
                </Badge>
              )}
            </div>
            <h1
              id="lobby-title"
              className="text-2xl font-extrabold tracking-tight break-words sm:text-3xl"
            >
              {session.sessionName}
            </h1>
          </div>
          {actions.canEdit && (
            <ButtonLink
              to={`/session/edit/${id}`}
              variant="secondary"
              size="sm"
              className="self-start"
            >
              <Pencil aria-hidden="true" className="size-4" />
              Edit session
            </ButtonLink>
          )}
        </div>

        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
          <Detail label="Type">{session.sessionType}</Detail>
          <Detail label="Participants">{session.participants}</Detail>
          <Detail label="Session Code" className="col-span-2 sm:col-span-1">
            <CopyValue value={session.sessionCode || NOT_AVAILABLE} what="Session code" />
          </Detail>
          <Detail label="Passcode" className="col-span-2 sm:col-span-1">
            <PasscodeValue session={session} role={role} />
          </Detail>
        </dl>

        {actions.canManage && (
          <div className="flex flex-wrap items-center gap-2 text-sm text-slate-600">
            <span>Code got out?</span>
            <RotateCodeButton session={session} />
          </div>
        )}

        <MoneyStats session={session} layout="tiles" />

        <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap">
          {actions.canAddItems && (
            <Button onClick={addItems}>
              <Plus aria-hidden="true" className="size-4" />
              Add Items
            </Button>
          )}
          <ButtonLink
            to={`/cart/${id}`}
            state={{ cart: session.cart, sessionId: session._id }}
            variant="secondary"
          >
            <ShoppingCart aria-hidden="true" className="size-4" />
            View Session Cart
          </ButtonLink>
          {actions.canLeave && (
            <Button
              variant="secondary"
              className="sm:ml-auto"
              loading={leave.isPending}
              onClick={() => setConfirming("leave")}
            >
              {!leave.isPending && <LogOut aria-hidden="true" className="size-4" />}
              {role === "pending" ? "Withdraw Request" : "Leave Session"}
            </Button>
          )}
          {actions.canEnd && (
            <Button
              variant="danger"
              className="sm:ml-auto"
              loading={end.isPending}
              onClick={() => setConfirming("end")}
            >
              {!end.isPending && <Power aria-hidden="true" className="size-4" />}
              {END_SESSION_LABEL}
            </Button>
          )}
        </div>
        {session.status === "ended" && (
          <p className="rounded-xl bg-slate-50 px-4 py-3 text-sm text-slate-600 ring-1 ring-slate-200 ring-inset">
            This session has ended. Its cart is kept in your cart history.
          </p>
        )}
      </section>

      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_24rem]">
        <section
          aria-labelledby={membersId}
          className="flex flex-col gap-5 self-start rounded-card bg-surface p-5 shadow-soft ring-1 ring-slate-900/5 sm:p-6"
        >
          <div className="flex items-center gap-2">
            <Users aria-hidden="true" className="size-5 text-primary-600" />
            <h2 id={membersId} className="text-lg font-bold sm:text-xl">
              Participants ({members.length})
            </h2>
          </div>
          <MemberList
            members={members}
            labelledBy={membersId}
            userId={user?._id}
            manage={actions.canManage ? session : undefined}
          />

          <div className="flex flex-col gap-3 border-t border-slate-100 pt-5">
            <div className="flex items-center gap-2">
              <Hourglass aria-hidden="true" className="size-4 text-accent-600" />
              <h3 id={pendingId} className="text-base font-bold">
                Pending Participants
              </h3>
            </div>
            {pending.length > 0 ? (
              <MemberList members={pending} labelledBy={pendingId} userId={user?._id} />
            ) : (
              <p className="text-sm text-slate-500">No one is waiting to join.</p>
            )}
          </div>
        </section>

        <div className="flex flex-col gap-6">
          {actions.canInvite && (
            <InvitePanel sessionId={session._id} sessionCode={session.sessionCode} />
          )}
          {actions.canManage && <InviteLinksCard sessionId={session._id} />}
          {can(role, "session.read") && <ActivityFeed sessionId={session._id} />}
        </div>
      </div>

      <SplitPolicyCard session={session} role={role} />

      <EndSessionDialog
        sessionName={session.sessionName}
        open={confirming === "end"}
        onConfirm={confirm}
        onCancel={() => setConfirming(null)}
      />
      <ConfirmDialog
        open={confirming === "leave"}
        title="Leave this session?"
        description="You will no longer see this session or its cart. You can ask to join again later."
        confirmLabel="Leave Session"
        onConfirm={confirm}
        onCancel={() => setConfirming(null)}
      />
    </Container>
  );
}

function Detail({
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

function CopyValue({ value, what }: { value: string; what: string }) {
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

function PasscodeValue({ session, role }: { session: Session; role: Role | null }) {
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

function MemberList({
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
            {manage && member.userId !== userId && (
              <MemberControls session={manage} member={member} />
            )}
          </div>
        </li>
      ))}
    </ul>
  );
}

function LobbySkeleton() {
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
