import { useCallback, useEffect, useMemo, useRef } from "react";
import { useMutation, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { useLocation } from "../lib/router.tsx";
import {
  SESSION_SYNC_INTERVAL_MS,
  type Activity,
  type Invite,
  type JoinRequest,
  type Member,
  type MyJoinRequest,
  type ResponseOf,
  type Session,
  type SplitPolicy,
} from "@cartner/contract";
import type { Reactions } from "../lib/mutation-reactions.ts";
import { useAuth } from "../lib/auth-store.ts";
import { useLiveUp } from "../lib/live-status.ts";
import { newestFirst } from "../shared/session-order.ts";
import { cartKeys, pendingWrites } from "./carts.ts";
import {
  createSession,
  sessionKeys,
  sessionsApi,
  type CreateSessionBody,
} from "./sessions-calls.ts";

export * from "./sessions-calls.ts";

/** SPEC section 9: the 5 s session sync is skipped on these pages (and without a token). */
const SYNC_SKIPPED_PATHS = new Set(["/", "/login", "/register", "/verify-otp"]);

export function syncPollsOn(pathname: string): boolean {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  return !SYNC_SKIPPED_PATHS.has(path);
}

/**
 * DESIGN section 6: the 5 s sync is the fallback while the live socket is down; while it is up,
 * events say what to refetch and polling stops.
 */
function useSyncInterval(wanted: boolean): number | false {
  const liveUp = useLiveUp();
  return wanted && !liveUp ? SESSION_SYNC_INTERVAL_MS : false;
}

/** GET /api/sessions/sync's answer, as the endpoint table types it. */
export type SyncData = ResponseOf<"GET /api/sessions/sync">;

function fingerprint(session: Session): string {
  return `${session.version}|${session.updatedAt}|${session.status}`;
}

/**
 * After each sync, lists and lobbies of sessions that changed (or appeared, or went away) are
 * refetched, so the 5 s poll keeps every screen current, not only the selector.
 */
function invalidateChanged(client: QueryClient, previous: SyncData | undefined, next: SyncData) {
  if (!previous) return;
  const before = new Map(previous.sessions.map((s) => [s._id, fingerprint(s)]));
  const after = new Map(next.sessions.map((s) => [s._id, fingerprint(s)]));
  const changed = new Set<string>();
  for (const [id, print] of after) if (before.get(id) !== print) changed.add(id);
  for (const id of before.keys()) if (!after.has(id)) changed.add(id);
  if (changed.size === 0) return;
  void client.invalidateQueries({ queryKey: sessionKeys.mine() });
  for (const id of changed) void client.invalidateQueries({ queryKey: sessionKeys.detail(id) });
}

/** GET /sessions/sync: my active sessions, newest first; polled every 5 s while offline. */
export function useSessionSync() {
  const { isSignedIn } = useAuth();
  const { pathname } = useLocation();
  const refetchInterval = useSyncInterval(isSignedIn && syncPollsOn(pathname));
  return useQuery({
    queryKey: sessionKeys.sync(),
    queryFn: async ({ signal, client }) => {
      const previous = client.getQueryData<SyncData>(sessionKeys.sync());
      const body = await sessionsApi.sync(signal);
      const next: SyncData = {
        sessions: newestFirst(body.sessions.filter((s) => s.status === "active")),
        version: body.version,
      };
      invalidateChanged(client, previous, next);
      return next;
    },
    enabled: isSignedIn,
    staleTime: SESSION_SYNC_INTERVAL_MS,
    refetchInterval,
  });
}

/** GET /sessions/my: active and ended sessions, for the sessions page's tabs. */
export function useMySessions() {
  return useQuery({
    queryKey: sessionKeys.mine(),
    queryFn: ({ signal }) => sessionsApi.mine(signal).then((body) => newestFirst(body.sessions)),
    staleTime: 0,
  });
}

/** GET /sessions/:id for the lobby (polled every 5 s while the live socket is down). */
export function useSessionDetail(id: string, options: { poll?: boolean } = {}) {
  const refetchInterval = useSyncInterval(options.poll ?? false);
  return useQuery({
    queryKey: sessionKeys.detail(id),
    queryFn: ({ signal }) => sessionsApi.get(id, signal).then((body) => body.session),
    staleTime: 0,
    refetchInterval,
  });
}

export function useMyInvites() {
  const refetchInterval = useSyncInterval(true);
  return useQuery({
    queryKey: sessionKeys.invites(),
    queryFn: ({ signal }) => sessionsApi.myInvites(signal).then((body) => body.invites),
    staleTime: 0,
    refetchInterval,
  });
}

/**
 * My own join requests still waiting (polled while the live socket is down). Kept for the tab's
 * life once read: when one ends, the live toast names its session and creator from this list.
 */
export function useMyJoinRequests() {
  const refetchInterval = useSyncInterval(true);
  return useQuery({
    queryKey: sessionKeys.myJoinRequests(),
    queryFn: ({ signal }) => sessionsApi.myJoinRequests(signal).then((body) => body.requests),
    staleTime: 0,
    gcTime: Infinity,
    refetchInterval,
  });
}

/** The creator's pending join requests, polled while the panel is open. */
export function useJoinRequests(sessionCode: string, enabled: boolean) {
  const refetchInterval = useSyncInterval(enabled);
  return useQuery({
    queryKey: sessionKeys.joinRequests(sessionCode),
    queryFn: ({ signal }) =>
      sessionsApi.joinRequests(sessionCode, signal).then((body) => body.requests),
    enabled,
    staleTime: 0,
    refetchInterval,
  });
}

/**
 * After leaving or ending a session: drop it from the cached active sessions at once, so the
 * active session falls back to another one straight away (the refetch confirms it).
 */
export function dropFromActiveSessions(client: QueryClient, sessionId: string): void {
  client.setQueryData<SyncData>(sessionKeys.sync(), (data) =>
    data ? { ...data, sessions: data.sessions.filter((s) => s._id !== sessionId) } : data,
  );
}

type Answer<F extends (...args: never[]) => Promise<unknown>> = Awaited<ReturnType<F>>;

/** Leave a session; the caller clears it as the active one and leaves its page, then lists refetch. */
export function useLeaveSession(reactions: Reactions<Answer<typeof sessionsApi.leave>, string>) {
  return useExitSession(sessionsApi.leave, reactions);
}

/** End a session (its creator); as leaving, for everyone's lists. */
export function useEndSession(reactions: Reactions<Answer<typeof sessionsApi.end>, string>) {
  return useExitSession(sessionsApi.end, reactions);
}

function useExitSession<T>(
  exit: (sessionId: string) => Promise<T>,
  reactions: Reactions<T, string>,
) {
  const client = useQueryClient();
  return useMutation({
    ...reactions,
    mutationFn: (sessionId: string) => exit(sessionId),
    onSuccess: async (...args) => {
      dropFromActiveSessions(client, args[1]);
      // The caller leaves the page before the refetch (a lobby refetched after leaving would
      // flash "not found").
      await reactions.onSuccess?.(...args);
      await client.invalidateQueries({ queryKey: sessionKeys.all });
    },
  });
}

export function useAcceptInvite(
  reactions: Reactions<Answer<typeof sessionsApi.acceptInvite>, Invite>,
) {
  const client = useQueryClient();
  return useMutation({
    ...reactions,
    mutationFn: (invite: Invite) => sessionsApi.acceptInvite(invite.sessionCode),
    onSuccess: (...args) => {
      void client.invalidateQueries({ queryKey: sessionKeys.all });
      return reactions.onSuccess?.(...args);
    },
  });
}

export function useRejectInvite(
  reactions: Reactions<Answer<typeof sessionsApi.rejectInvite>, Invite>,
) {
  const client = useQueryClient();
  return useMutation({
    ...reactions,
    mutationFn: (invite: Invite) => sessionsApi.rejectInvite(invite.sessionCode),
    onSuccess: (...args) => {
      void client.invalidateQueries({ queryKey: sessionKeys.invites() });
      return reactions.onSuccess?.(...args);
    },
  });
}

/** Saves the split policy; sessions and carts (whose split follows it) are read again. */
export function useSaveSplitPolicy(
  sessionId: string,
  policy: SplitPolicy,
  reactions: Reactions<Answer<typeof sessionsApi.setSplitPolicy>>,
) {
  const client = useQueryClient();
  return useMutation({
    ...reactions,
    mutationFn: () => sessionsApi.setSplitPolicy(sessionId, policy),
    onSuccess: async (...args) => {
      await reactions.onSuccess?.(...args);
      await Promise.all([
        client.invalidateQueries({ queryKey: sessionKeys.all }),
        client.invalidateQueries({ queryKey: cartKeys.all }),
      ]);
    },
  });
}

export type MemberChange =
  | { kind: "role"; member: Member; role: "participant" | "viewer" }
  | { kind: "remove"; member: Member }
  | { kind: "transfer"; member: Member }
  | { kind: "rotate" };

/** The creator's member changes; each answer is the new session, shown at once. */
export function useMemberChange(
  session: Session,
  reactions: Reactions<Answer<typeof sessionsApi.rotateCode>, MemberChange>,
) {
  const client = useQueryClient();
  return useMutation({
    ...reactions,
    mutationFn: (change: MemberChange) => {
      switch (change.kind) {
        case "role":
          return sessionsApi.updateMember(session._id, change.member.userId, { role: change.role });
        case "remove":
          return sessionsApi.removeMember(session._id, change.member.userId);
        case "transfer":
          return sessionsApi.transfer(session._id, change.member.userId);
        case "rotate":
          return sessionsApi.rotateCode(session._id);
      }
    },
    onSuccess: (...args) => {
      const [body, change] = args;
      client.setQueryData(sessionKeys.detail(session._id), body.session);
      // After a hand-over the caller is no longer the creator: what only the creator may read
      // (invite links, join requests) is not asked for again while the lobby still shows it.
      const stale =
        change.kind === "transfer"
          ? [sessionKeys.sync(), sessionKeys.mine(), sessionKeys.activity(session._id)]
          : [sessionKeys.all];
      for (const queryKey of stale) void client.invalidateQueries({ queryKey });
      return reactions.onSuccess?.(...args);
    },
  });
}

type UpdateSessionBody = Parameters<typeof sessionsApi.update>[1];

export function useUpdateSession(
  sessionId: string,
  reactions: Reactions<Answer<typeof sessionsApi.update>, UpdateSessionBody>,
) {
  const client = useQueryClient();
  return useMutation({
    ...reactions,
    mutationFn: (body: UpdateSessionBody) => sessionsApi.update(sessionId, body),
    onSuccess: (...args) => {
      client.setQueryData(sessionKeys.detail(sessionId), args[0].session);
      void client.invalidateQueries({ queryKey: sessionKeys.all });
      return reactions.onSuccess?.(...args);
    },
  });
}

/** A session's invite links. */
export function useInviteLinks(sessionId: string) {
  return useQuery({
    queryKey: sessionKeys.links(sessionId),
    queryFn: ({ signal }) => sessionsApi.links(sessionId, signal),
    select: (body) => body.links,
  });
}

type NewLink = Parameters<typeof sessionsApi.createLink>[1];

export function useCreateInviteLink(
  sessionId: string,
  body: () => NewLink,
  reactions: Reactions<Answer<typeof sessionsApi.createLink>>,
) {
  const client = useQueryClient();
  return useMutation({
    ...reactions,
    mutationFn: () => sessionsApi.createLink(sessionId, body()),
    onSuccess: (...args) => {
      void client.invalidateQueries({ queryKey: sessionKeys.links(sessionId) });
      return reactions.onSuccess?.(...args);
    },
  });
}

export function useRevokeInviteLink(
  sessionId: string,
  linkId: string,
  reactions: Reactions<Answer<typeof sessionsApi.revokeLink>>,
) {
  const client = useQueryClient();
  return useMutation({
    ...reactions,
    mutationFn: () => sessionsApi.revokeLink(sessionId, linkId),
    onSuccess: (...args) => {
      void client.invalidateQueries({ queryKey: sessionKeys.links(sessionId) });
      return reactions.onSuccess?.(...args);
    },
  });
}

type JoinByCodeBody = Parameters<typeof sessionsApi.joinByCode>[0];

export function useJoinByCode(
  reactions: Reactions<Answer<typeof sessionsApi.joinByCode>, JoinByCodeBody>,
) {
  const client = useQueryClient();
  return useMutation({
    ...reactions,
    mutationFn: sessionsApi.joinByCode,
    onSuccess: (...args) => {
      void client.invalidateQueries({ queryKey: sessionKeys.all });
      return reactions.onSuccess?.(...args);
    },
  });
}

/** What an invite link leads to (asked without a token; not retried). */
export function useInvitePreview(token: string) {
  return useQuery({
    queryKey: ["invite-link", token],
    queryFn: ({ signal }) => sessionsApi.invitePreview(token, signal),
    retry: false,
  });
}

/** Joins through an invite link; the session lists are read again before the caller goes on. */
export function useAcceptInviteLink(
  token: string,
  reactions: Reactions<Answer<typeof sessionsApi.acceptLink>>,
) {
  const client = useQueryClient();
  return useMutation({
    ...reactions,
    mutationFn: () => sessionsApi.acceptLink(token),
    onSuccess: async (...args) => {
      await client.invalidateQueries({ queryKey: sessionKeys.all });
      return reactions.onSuccess?.(...args);
    },
  });
}

type InviteBody = Parameters<typeof sessionsApi.invite>[0];

export function useInviteMember(
  reactions: Reactions<Answer<typeof sessionsApi.invite>, InviteBody>,
) {
  const client = useQueryClient();
  return useMutation({
    ...reactions,
    mutationFn: sessionsApi.invite,
    onSuccess: (...args) => {
      void client.invalidateQueries({ queryKey: sessionKeys.all });
      return reactions.onSuccess?.(...args);
    },
  });
}

export type JoinDecision = { request: JoinRequest; how: "accept" | "reject" };

/** The creator answers a join request; requests, the lobby and my list are read again. */
export function useDecideJoinRequest(
  sessionId: string,
  sessionCode: string,
  reactions: Reactions<Answer<typeof sessionsApi.approve>, JoinDecision>,
) {
  const client = useQueryClient();
  return useMutation({
    ...reactions,
    mutationFn: ({ request, how }: JoinDecision) =>
      how === "accept"
        ? sessionsApi.approve(sessionCode, { userId: request.userId })
        : sessionsApi.reject(sessionCode, { userId: request.userId }),
    onSettled: async (...args) => {
      await Promise.all([
        client.invalidateQueries({ queryKey: sessionKeys.joinRequests(sessionCode) }),
        client.invalidateQueries({ queryKey: sessionKeys.detail(sessionId) }),
        client.invalidateQueries({ queryKey: sessionKeys.mine() }),
      ]);
      return reactions.onSettled?.(...args);
    },
  });
}

/** Withdraws my waiting join request (leaving the session it is for). */
export function useWithdrawJoinRequest(
  reactions: Reactions<Answer<typeof sessionsApi.leave>, MyJoinRequest>,
) {
  const client = useQueryClient();
  return useMutation({
    ...reactions,
    mutationFn: (request: MyJoinRequest) => sessionsApi.leave(request.sessionId),
    onSuccess: (...args) => {
      client.setQueryData<MyJoinRequest[]>(sessionKeys.myJoinRequests(), (list) =>
        list?.filter((r) => r.sessionId !== args[1].sessionId),
      );
      void client.invalidateQueries({ queryKey: sessionKeys.myJoinRequests() });
      return reactions.onSuccess?.(...args);
    },
  });
}

/** Creates a session (the sessions page's form); every session list is read again. */
export function useCreateSession(
  reactions: Reactions<Answer<typeof createSession>, CreateSessionBody>,
) {
  const client = useQueryClient();
  return useMutation({
    ...reactions,
    mutationFn: createSession,
    onSuccess: (...args) => {
      void client.invalidateQueries({ queryKey: sessionKeys.all });
      return reactions.onSuccess?.(...args);
    },
  });
}

/** My "done shopping" mark. */
export function useSetReady(
  sessionId: string,
  reactions: Reactions<Answer<typeof sessionsApi.setReady>, boolean>,
) {
  return useMutation({
    ...reactions,
    mutationFn: (value: boolean) => sessionsApi.setReady(sessionId, value),
  });
}

/** My budget in a session (null: none). */
export function useSaveBudget(
  sessionId: string,
  userId: string,
  reactions: Reactions<Answer<typeof sessionsApi.updateMember>, number | null>,
) {
  return useMutation({
    ...reactions,
    mutationFn: (value: number | null) =>
      sessionsApi.updateMember(sessionId, userId, { budget: value }),
  });
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

/** The API's largest page (API.md: limit 1..200). */
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
        const page = await sessionsApi.activity(sessionId!, after, ACTIVITY_PAGE, signal);
        known = appendActivity(known, page.events);
        if (page.events.length < ACTIVITY_PAGE) return known;
      }
    },
  });
}

/**
 * Members see each other's changes: whenever the 5 s session sync reports a different version (or
 * a session appears, ends or goes away), the cart queries are refetched. Skipped while a line
 * change of ours is on its way; that change refetches when it settles. (While the live socket is
 * up, its cart.updated events refetch at once and the sync only changes after other events.)
 */
export function useRefetchCartsOnSync(): void {
  const client = useQueryClient();
  const sync = useSessionSync();
  const fingerprint = useMemo(() => {
    if (!sync.data) return null;
    const sessions = sync.data.sessions
      .map((session) => `${session._id}:${session.version}:${session.status}`)
      .sort()
      .join("|");
    return `${sync.data.version ?? ""}#${sessions}`;
  }, [sync.data]);
  const previous = useRef<string | null>(null);

  useEffect(() => {
    if (fingerprint === null) return;
    const changed = previous.current !== null && previous.current !== fingerprint;
    previous.current = fingerprint;
    if (changed && pendingWrites(client) === 0) {
      void client.invalidateQueries({ queryKey: cartKeys.all });
    }
  }, [client, fingerprint]);
}

function syncIsPending(client: QueryClient): boolean {
  return (
    client.getQueryCache().find({ queryKey: sessionKeys.sync(), exact: true })?.state.status ===
    "pending"
  );
}

/** Resolves once the first session sync has answered (or after 10 s), for a click during loading. */
function syncSettled(client: QueryClient): Promise<void> {
  const cache = client.getQueryCache();
  const settled = () => !syncIsPending(client);
  if (settled()) return Promise.resolve();
  return new Promise((resolve) => {
    const finish = () => {
      clearTimeout(timer);
      unsubscribe();
      resolve();
    };
    const timer = setTimeout(finish, 10_000);
    const unsubscribe = cache.subscribe(() => {
      if (settled()) finish();
    });
  });
}

/**
 * Reads my active sessions as the sync has them; a call before the first sync answered waits for
 * it (at most 10 s) rather than find none.
 */
export function useReadSyncedSessions(): () => Promise<Session[]> {
  const client = useQueryClient();
  return useCallback(async () => {
    await syncSettled(client);
    return client.getQueryData<SyncData>(sessionKeys.sync())?.sessions ?? [];
  }, [client]);
}
