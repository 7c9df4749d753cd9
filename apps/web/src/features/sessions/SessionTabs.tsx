import { useState, type ReactNode } from "react";
import { Tabs } from "radix-ui";
import { CalendarClock, History, Search, ShoppingBag } from "lucide-react";
import type { Session } from "@cartner/contract";
import { EmptyState, Input, LoadError } from "../../components/ui/index.ts";
import { errorMessage } from "../../lib/api.ts";
import { useAuth } from "../../lib/auth-store.ts";
import { cn } from "../../lib/cn.ts";
import { matchesName } from "./session-model.ts";
import { useMyJoinRequests } from "../../api/join-requests.ts";
import { usePastSessions, type MemberLinesChoice } from "../../api/sessions.ts";
import { useSessionSync } from "../../api/session-sync.ts";
import { ShowMore } from "../../components/ShowMore.tsx";
import { SessionCard, SessionCardSkeleton } from "./SessionCard.tsx";
import { LeavingLinesDialog } from "./LeavingLinesDialog.tsx";
import { useSessionActions } from "../../shared/session-actions.ts";
import { EndSessionDialog } from "../../shared/EndSessionDialog.tsx";

type Tab = "active" | "past" | "upcoming";
type Pending = { kind: "leave" | "end"; session: Session } | null;

export function activeHeading(count: number): string {
  return `You have (${count}) active Sessions`;
}

/** The empty Active tab's hint: a requester is told their requests are on their way. */
export function noActiveHint(waiting: string[]): string {
  if (waiting.length === 1) return `Your request to join ${waiting[0]} is waiting for approval.`;
  if (waiting.length > 1) return `Your ${waiting.length} join requests are waiting for approval.`;
  return "Start one above, or join a friend's with their session code.";
}

const triggerClasses = cn(
  "inline-flex h-10 flex-1 items-center justify-center gap-2 rounded-lg px-3 text-sm font-semibold text-slate-600 sm:flex-none sm:px-4",
  "transition-colors hover:text-ink",
  "data-[state=active]:bg-white data-[state=active]:text-primary-700 data-[state=active]:shadow-sm",
);

const gridClasses = "grid gap-4 sm:grid-cols-2 xl:grid-cols-3";

/** The Active / Past / Upcoming tabs with a search box filtering cards by name. */
export function SessionTabs() {
  const { user } = useAuth();
  // The active sessions are the sync's (every one, polled); the ended ones come a page at a time.
  const activeQuery = useSessionSync();
  const pastQuery = usePastSessions();
  const waiting = useMyJoinRequests();
  const [tab, setTab] = useState<Tab>("active");
  const [query, setQuery] = useState("");
  const [confirming, setConfirming] = useState<Pending>(null);
  const [running, setRunning] = useState<Pending>(null);
  const { leave, end } = useSessionActions();

  const active = activeQuery.data?.sessions ?? [];
  const past = pastQuery.data ?? [];
  const shownActive = active.filter((session) => matchesName(session, query));
  const shownPast = past.filter((session) => matchesName(session, query));
  const searching = query.trim() !== "";

  function confirm(lines: MemberLinesChoice = {}) {
    if (!confirming) return;
    const { kind, session } = confirming;
    setConfirming(null);
    setRunning(confirming);
    const onSettled = () => setRunning(null);
    if (kind === "leave") leave.mutate({ sessionId: session._id, lines }, { onSettled });
    else end.mutate(session._id, { onSettled });
  }

  function renderList(
    mine: {
      isPending: boolean;
      isError: boolean;
      error: unknown;
      isFetching: boolean;
      data?: unknown;
      refetch: () => unknown;
    },
    sessions: Session[],
    total: number,
    empty: ReactNode,
  ) {
    if (mine.isPending) {
      return (
        <div className={gridClasses} role="status" aria-label="Loading sessions">
          {Array.from({ length: 3 }, (_, i) => (
            <SessionCardSkeleton key={i} />
          ))}
        </div>
      );
    }
    if (mine.isError && !mine.data) {
      return (
        <LoadError
          title="We couldn't load your sessions."
          message={errorMessage(mine.error, "Check your connection and try again.")}
          onRetry={() => void mine.refetch()}
          retrying={mine.isFetching}
        />
      );
    }
    if (total === 0) return empty;
    if (sessions.length === 0) {
      return (
        <EmptyState
          icon={<Search aria-hidden="true" className="size-6" />}
          title={`No sessions match “${query.trim()}”.`}
        >
          Try another name, or clear the search.
        </EmptyState>
      );
    }
    return (
      <ul className={gridClasses}>
        {sessions.map((session) => (
          <li key={session._id} className="min-w-0">
            <SessionCard
              session={session}
              userId={user?._id}
              onLeave={(s) => setConfirming({ kind: "leave", session: s })}
              onEnd={(s) => setConfirming({ kind: "end", session: s })}
              busy={running?.session._id === session._id ? running.kind : null}
            />
          </li>
        ))}
      </ul>
    );
  }

  return (
    <Tabs.Root value={tab} onValueChange={(value) => setTab(value as Tab)}>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <Tabs.List
          aria-label="Sessions"
          className="flex rounded-xl bg-slate-100 p-1 ring-1 ring-slate-200 ring-inset"
        >
          <Tabs.Trigger value="active" className={triggerClasses}>
            <ShoppingBag aria-hidden="true" className="size-4" />
            Active
          </Tabs.Trigger>
          <Tabs.Trigger value="past" className={triggerClasses}>
            <History aria-hidden="true" className="size-4" />
            Past
          </Tabs.Trigger>
          <Tabs.Trigger value="upcoming" className={triggerClasses}>
            <CalendarClock aria-hidden="true" className="size-4" />
            Upcoming
          </Tabs.Trigger>
        </Tabs.List>
        {tab !== "upcoming" && (
          <div className="relative sm:w-72">
            <Search
              aria-hidden="true"
              className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-400"
            />
            <Input
              type="search"
              aria-label="Search sessions by name"
              placeholder="Search sessions"
              value={query}
              onChange={(event) => setQuery(event.target.value)}
              className="pl-9"
            />
          </div>
        )}
      </div>

      <Tabs.Content
        value="active"
        className="mt-5 flex flex-col gap-4 focus-visible:outline-offset-4"
      >
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h3 className="text-lg font-bold">{activeHeading(active.length)}</h3>
          {searching && !activeQuery.isPending && (
            <p className="text-sm text-slate-500" aria-live="polite">
              {shownActive.length} matching
            </p>
          )}
        </div>
        {renderList(
          activeQuery,
          shownActive,
          active.length,
          <EmptyState
            icon={<ShoppingBag aria-hidden="true" className="size-6" />}
            title="No active sessions yet."
          >
            {noActiveHint((waiting.data ?? []).map((request) => request.sessionName))}
          </EmptyState>,
        )}
      </Tabs.Content>

      <Tabs.Content
        value="past"
        className="mt-5 flex flex-col gap-4 focus-visible:outline-offset-4"
      >
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h3 className="text-lg font-bold">
            Past Sessions ({past.length}
            {pastQuery.hasNextPage ? "+" : ""})
          </h3>
          {searching && !pastQuery.isPending && (
            <p className="text-sm text-slate-500" aria-live="polite">
              {shownPast.length} matching
            </p>
          )}
        </div>
        {renderList(
          pastQuery,
          shownPast,
          past.length,
          <EmptyState
            icon={<History aria-hidden="true" className="size-6" />}
            title="No past sessions yet."
          >
            Sessions you end, or that your group ends, move here with their carts.
          </EmptyState>,
        )}
        <ShowMore query={pastQuery} what="sessions" />
      </Tabs.Content>

      <Tabs.Content value="upcoming" className="mt-5 focus-visible:outline-offset-4">
        <EmptyState
          icon={<CalendarClock aria-hidden="true" className="size-6" />}
          title="Coming Soon!"
        >
          Plan a session ahead of time and we&apos;ll remind your group when it starts.
        </EmptyState>
      </Tabs.Content>

      <EndSessionDialog
        sessionName={confirming?.session.sessionName ?? ""}
        open={confirming?.kind === "end"}
        onConfirm={confirm}
        onCancel={() => setConfirming(null)}
      />
      <LeavingLinesDialog
        open={confirming?.kind === "leave"}
        sessionId={confirming?.session._id ?? ""}
        leaver={{ userId: user?._id ?? "", name: user?.name ?? "" }}
        self
        members={confirming?.session.invitedUsers ?? []}
        title={`Leave “${confirming?.session.sessionName ?? ""}”?`}
        description="You will no longer see this session or its cart. You can ask to join again later."
        confirmLabel="Leave Session"
        onConfirm={confirm}
        onCancel={() => setConfirming(null)}
      />
    </Tabs.Root>
  );
}
