import { useCallback, useEffect, useMemo, useRef } from "react";
import { useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { SESSION_SYNC_INTERVAL_MS, type ResponseOf, type Session } from "@cartner/contract";
import { useAuth } from "../lib/auth-store.ts";
import { useLiveUp } from "../lib/live-status.ts";
import { useLocation } from "../lib/router.tsx";
import { newestFirst } from "../shared/session-order.ts";
import { cartKeys, pendingWrites } from "./carts.ts";
import { fetchSessionSync, sessionKeys } from "./sessions-calls.ts";

/** The 5 s session sync is skipped on the signed-out pages (and without a token). */
const SYNC_SKIPPED_PATHS = new Set(["/", "/login", "/register", "/verify-otp"]);

export function syncPollsOn(pathname: string): boolean {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  return !SYNC_SKIPPED_PATHS.has(path);
}

/**
 * The 5 s sync is the fallback while the live socket is down; while it is up, events say what to
 * refetch and polling stops.
 */
export function useSyncInterval(wanted: boolean): number | false {
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
      const body = await fetchSessionSync(signal);
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

/**
 * After leaving or ending a session: drop it from the cached active sessions at once, so the
 * active session falls back to another one straight away (the refetch confirms it).
 */
export function dropFromActiveSessions(client: QueryClient, sessionId: string): void {
  client.setQueryData<SyncData>(sessionKeys.sync(), (data) =>
    data ? { ...data, sessions: data.sessions.filter((s) => s._id !== sessionId) } : data,
  );
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
