import { useId, useState } from "react";
import { Link, useNavigate, useParams } from "../../lib/router.tsx";
import {
  ArrowLeft,
  Hourglass,
  LogOut,
  Pencil,
  Plus,
  Power,
  ShoppingCart,
  Users,
} from "lucide-react";
import { can, type Role, type Session } from "@cartner/contract";
import {
  Badge,
  Button,
  ButtonLink,
  ConfirmDialog,
  Container,
  LoadError,
} from "../../components/ui/index.ts";
import { errorMessage } from "../../lib/api.ts";
import { useAuth } from "../../lib/auth-store.ts";
import { useActiveSession } from "../../shared/active-session.ts";
import { ActivityFeed } from "../activity/index.ts";
import { InviteLinksCard } from "./InviteLinksCard.tsx";
import { InvitePanel } from "./InvitePanel.tsx";
import { RotateCodeButton } from "./ManageMembers.tsx";
import { roleIn } from "../../shared/roles.ts";
import { membersOf, pendingOf, roleLabels } from "./session-model.ts";
import { MoneyStats, StatusBadge } from "./session-parts.tsx";
import { isNotFound } from "../../lib/api.ts";
import { useSessionDetail, type MemberLinesChoice } from "../../api/sessions.ts";
import { SessionNotFound } from "./SessionNotFound.tsx";
import { LeavingLinesDialog } from "./LeavingLinesDialog.tsx";
import { END_SESSION_LABEL, EndSessionDialog } from "../../shared/EndSessionDialog.tsx";
import { SeriesCard } from "./SeriesCard.tsx";
import { SplitPolicyCard } from "./SplitPolicyCard.tsx";
import { DeadlineCard } from "./DeadlineCard.tsx";
import { useDeadlineNow } from "../../shared/DeadlineNotice.tsx";
import { isClosed } from "../../shared/deadline-text.ts";
import {
  CopyValue,
  Detail,
  LobbySkeleton,
  MemberList,
  NOT_AVAILABLE,
  PasscodeValue,
} from "./LobbyParts.tsx";
import { useSessionActions } from "../../shared/session-actions.ts";

/** What the lobby offers a role (the server enforces the same, by the permissions table). */
export function lobbyActions(session: Session, role: Role | null) {
  const active = session.status === "active";
  return {
    canLeave: active && can(role, "session.leave"),
    canEnd: active && can(role, "session.end"),
    canEdit: active && can(role, "session.edit"),
    canInvite: active && can(role, "session.invite"),
    canAddItems: active && can(role, "cart.add"),
    /** Roles, removal, hand-over, invite links and a new code. */
    canManage: active && can(role, "session.manageMembers"),
  };
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
  // Past its deadline the cart takes nothing more: no "Add Items" (the server refuses them).
  const closed = isClosed(session.deadline, useDeadlineNow(session.deadline));
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

  function confirm(lines: MemberLinesChoice = {}) {
    const kind = confirming;
    setConfirming(null);
    if (kind === "leave") leave.mutate({ sessionId: session._id, lines });
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
          {actions.canAddItems && !closed && (
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
          <DeadlineCard session={session} role={role} />
          {actions.canInvite && (
            <InvitePanel sessionId={session._id} sessionCode={session.sessionCode} />
          )}
          {actions.canManage && <InviteLinksCard sessionId={session._id} />}
          {can(role, "session.read") && <ActivityFeed sessionId={session._id} />}
        </div>
      </div>

      <SplitPolicyCard session={session} role={role} />
      <SeriesCard session={session} role={role} />

      <EndSessionDialog
        sessionName={session.sessionName}
        open={confirming === "end"}
        onConfirm={() => confirm()}
        onCancel={() => setConfirming(null)}
      />
      {role === "pending" ? (
        <ConfirmDialog
          open={confirming === "leave"}
          title="Withdraw your request?"
          description="The creator will no longer see it. You can ask to join again later."
          confirmLabel="Withdraw Request"
          onConfirm={() => confirm()}
          onCancel={() => setConfirming(null)}
        />
      ) : (
        user && (
          <LeavingLinesDialog
            open={confirming === "leave"}
            sessionId={session._id}
            leaver={{ userId: user._id, name: user.name }}
            self
            members={session.invitedUsers}
            title="Leave this session?"
            description="You will no longer see this session or its cart. You can ask to join again later."
            confirmLabel="Leave Session"
            onConfirm={confirm}
            onCancel={() => setConfirming(null)}
          />
        )
      )}
    </Container>
  );
}
