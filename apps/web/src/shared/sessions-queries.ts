import { useQuery, type QueryClient } from "@tanstack/react-query";
import { useLocation } from "../lib/router.tsx";
import { SESSION_SYNC_INTERVAL_MS, type ResponseOf, type Session } from "@cartner/contract";
import { useAuth } from "../lib/auth-store.ts";
import { useLiveUp } from "../lib/live-status.ts";
import { newestFirst } from "./session-order.ts";
import { sessionKeys, sessionsApi } from "../api/sessions-api.ts";

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
