import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Activity, SplitPolicy } from "@cartner/contract";
import { useLiveUp } from "../lib/live-status.ts";
import { useInvalidatingMutation, type Answer, type Reactions } from "../lib/mutation-reactions.ts";
import { newestFirst } from "../shared/session-order.ts";
import { cartKeys } from "./carts.ts";
import { dropFromActiveSessions, useSyncInterval } from "./session-sync.ts";
import {
  createSessionOrThrow,
  endSession,
  fetchActivity,
  fetchMySessions,
  fetchSession,
  leaveSession,
  reopenSession,
  sessionKeys,
  setDeadline,
  setSeries,
  setSplitPolicy,
  updateSession,
  type CreateSessionBody,
  type MemberLinesChoice,
} from "./sessions-calls.ts";

export * from "./sessions-calls.ts";

/*
 * A session itself: its lists, its lobby, its settings, leaving and ending it, and its activity
 * log. Its members, invites, invite links and join requests have modules of their own; the 5 s
 * sync is session-sync.ts.
 */

/**
 * GET /sessions/my a page at a time: the ended sessions, newest first, for the Past tab (the
 * active ones come whole from the session sync).
 */
export function usePastSessions() {
  return useInfiniteQuery({
    queryKey: sessionKeys.mine(),
    queryFn: ({ signal, pageParam }) => fetchMySessions(pageParam || undefined, signal),
    initialPageParam: "",
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    select: (data) =>
      newestFirst(
        data.pages.flatMap((page) => page.sessions).filter((session) => session.status === "ended"),
      ),
    staleTime: 0,
  });
}

/** GET /sessions/:id for the lobby (polled every 5 s while the live socket is down). */
export function useSessionDetail(id: string, options: { poll?: boolean } = {}) {
  const refetchInterval = useSyncInterval(options.poll ?? false);
  return useQuery({
    queryKey: sessionKeys.detail(id),
    queryFn: ({ signal }) => fetchSession(id, signal).then((body) => body.session),
    staleTime: 0,
    refetchInterval,
  });
}

/** Leaving a session, and what becomes of the caller's cart lines. */
export interface LeaveRequest {
  sessionId: string;
  lines?: MemberLinesChoice;
}

/** Leave a session; the caller clears it as the active one and leaves its page, then lists refetch. */
export function useLeaveSession(reactions: Reactions<Answer<typeof leaveSession>, LeaveRequest>) {
  return useExitSession(
    (request: LeaveRequest) => leaveSession(request.sessionId, request.lines),
    (request) => request.sessionId,
    reactions,
  );
}

/** End a session (its creator); as leaving, for everyone's lists. */
export function useEndSession(reactions: Reactions<Answer<typeof endSession>, string>) {
  return useExitSession(endSession, (sessionId) => sessionId, reactions);
}

function useExitSession<T, V>(
  exit: (variables: V) => Promise<T>,
  sessionIdOf: (variables: V) => string,
  reactions: Reactions<T, V>,
) {
  const client = useQueryClient();
  return useMutation({
    ...reactions,
    mutationFn: exit,
    onSuccess: async (...args) => {
      dropFromActiveSessions(client, sessionIdOf(args[1]));
      // The caller leaves the page before the refetch (a lobby refetched after leaving would
      // flash "not found").
      await reactions.onSuccess?.(...args);
      await client.invalidateQueries({ queryKey: sessionKeys.all });
    },
  });
}

/** Saves the split policy; sessions and carts (whose split follows it) are read again. */
export function useSaveSplitPolicy(
  sessionId: string,
  policy: SplitPolicy,
  reactions: Reactions<Answer<typeof setSplitPolicy>>,
) {
  const client = useQueryClient();
  return useMutation({
    ...reactions,
    mutationFn: () => setSplitPolicy(sessionId, policy),
    onSuccess: async (...args) => {
      await reactions.onSuccess?.(...args);
      await Promise.all([
        client.invalidateQueries({ queryKey: sessionKeys.all }),
        client.invalidateQueries({ queryKey: cartKeys.all }),
      ]);
    },
  });
}

type SeriesBody = Parameters<typeof setSeries>[1];

/** Makes the session repeat, changes its rule, or ends its series (null); sessions refetch. */
export function useSaveSeries(
  sessionId: string,
  reactions: Reactions<Answer<typeof setSeries>, SeriesBody>,
) {
  const client = useQueryClient();
  return useMutation({
    ...reactions,
    mutationFn: (body: SeriesBody) => setSeries(sessionId, body),
    onSuccess: async (...args) => {
      client.setQueryData(sessionKeys.detail(sessionId), args[0].session);
      await reactions.onSuccess?.(...args);
      await client.invalidateQueries({ queryKey: sessionKeys.all });
    },
  });
}

type DeadlineBody = Parameters<typeof setDeadline>[1];

/**
 * Sets, moves or clears the deadline (null), or reopens a closed cart until a new time
 * (`{ reopen: closesAt }`); the session and its cart (which show it) are read again.
 */
export function useSaveDeadline(
  sessionId: string,
  reactions: Reactions<Answer<typeof setDeadline>, DeadlineBody | { reopen: string }>,
) {
  const client = useQueryClient();
  return useMutation({
    ...reactions,
    mutationFn: (change: DeadlineBody | { reopen: string }) =>
      change && "reopen" in change
        ? reopenSession(sessionId, change.reopen)
        : setDeadline(sessionId, change),
    onSuccess: async (...args) => {
      client.setQueryData(sessionKeys.detail(sessionId), args[0].session);
      await reactions.onSuccess?.(...args);
      await Promise.all([
        client.invalidateQueries({ queryKey: sessionKeys.all }),
        client.invalidateQueries({ queryKey: cartKeys.all }),
      ]);
    },
  });
}

type UpdateSessionBody = Parameters<typeof updateSession>[1];

export function useUpdateSession(
  sessionId: string,
  reactions: Reactions<Answer<typeof updateSession>, UpdateSessionBody>,
) {
  const client = useQueryClient();
  return useMutation({
    ...reactions,
    mutationFn: (body: UpdateSessionBody) => updateSession(sessionId, body),
    onSuccess: (...args) => {
      client.setQueryData(sessionKeys.detail(sessionId), args[0].session);
      void client.invalidateQueries({ queryKey: sessionKeys.all });
      return reactions.onSuccess?.(...args);
    },
  });
}

/** Creates a session (the sessions page's form); every session list is read again. */
export function useCreateSession(
  reactions: Reactions<Answer<typeof createSessionOrThrow>, CreateSessionBody>,
) {
  return useInvalidatingMutation(createSessionOrThrow, [sessionKeys.all], reactions);
}

/** How much of the log a client keeps in memory; the feed shows the newest of these. */
export const ACTIVITY_KEEP = 500;

/** Appends a page to what the client has (entries are never edited), keeping the newest. */
export function appendActivity(known: Activity[], page: Activity[]): Activity[] {
  const last = known.at(-1)?.seq ?? 0;
  const fresh = page.filter((entry) => entry.seq > last);
  if (fresh.length === 0) return known;
  return [...known, ...fresh].slice(-ACTIVITY_KEEP);
}

/** The API's largest activity page (its limit is 1..200). */
const ACTIVITY_PAGE = 200;

/**
 * The session's activity log. Entries are append-only, so a refetch (an `activity.created` event,
 * a reconnect) asks only for what came after the newest entry the client has.
 */
export function useActivity(sessionId: string | undefined) {
  // Events say when to look again; without the socket, look every 10 s.
  const liveUp = useLiveUp();
  return useQuery({
    queryKey: sessionKeys.activity(sessionId ?? ""),
    enabled: Boolean(sessionId),
    staleTime: Infinity,
    refetchInterval: liveUp ? false : 10_000,
    queryFn: async ({ signal, client, queryKey }) => {
      let known = client.getQueryData<Activity[]>(queryKey) ?? [];
      for (;;) {
        const after = known.at(-1)?.seq ?? 0;
        const page = await fetchActivity(sessionId!, after, ACTIVITY_PAGE, signal);
        known = appendActivity(known, page.events);
        if (page.events.length < ACTIVITY_PAGE) return known;
      }
    },
  });
}
