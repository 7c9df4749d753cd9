import { useCallback, useMemo, useSyncExternalStore } from "react";
import type { Session } from "@cartner/contract";
import { useAuth } from "../lib/auth-store.ts";
import { newestFirst } from "./session-order.ts";
import { useSessionSync } from "../api/session-sync.ts";
import {
  readActiveSessionId,
  subscribeActiveSession,
  writeActiveSessionId,
} from "./active-session-store.ts";

/**
 * The active session: the one the marketplace adds to, chosen in the session selector. Stored per
 * user (active-session-store.ts); when none is stored (or the stored one is no longer active) the
 * newest active session is used.
 */
export {
  activeSessionKey,
  readActiveSessionId,
  writeActiveSessionId,
} from "./active-session-store.ts";

/** The stored session when it is still active, else the newest active one, else null. */
export function pickActiveSession(
  sessions: readonly Session[],
  storedId: string | null,
): Session | null {
  const active = sessions.filter((session) => session.status === "active");
  const stored = storedId ? active.find((session) => session._id === storedId) : undefined;
  return stored ?? newestFirst(active)[0] ?? null;
}

export interface ActiveSessionState {
  /** The active session, or null (signed out, loading, or no active sessions). */
  session: Session | null;
  /** Every active session of the user, newest first. */
  sessions: Session[];
  /** True until the first sync answer arrives. */
  isLoading: boolean;
  setActiveSessionId: (sessionId: string) => void;
  /** Forgets the stored choice (the newest active session applies again). */
  clear: () => void;
}

export function useActiveSession(): ActiveSessionState {
  const { user, isSignedIn } = useAuth();
  const userId = isSignedIn ? (user?._id ?? null) : null;
  const sync = useSessionSync();
  const storedId = useSyncExternalStore(
    subscribeActiveSession,
    () => (userId ? readActiveSessionId(userId) : null),
    () => null,
  );

  const sessions = useMemo(() => (userId ? (sync.data?.sessions ?? []) : []), [userId, sync.data]);
  const session = useMemo(() => pickActiveSession(sessions, storedId), [sessions, storedId]);

  const setActiveSessionId = useCallback(
    (sessionId: string) => {
      if (userId) writeActiveSessionId(userId, sessionId);
    },
    [userId],
  );
  const clear = useCallback(() => {
    if (userId) writeActiveSessionId(userId, null);
  }, [userId]);

  return {
    session,
    sessions,
    isLoading: userId !== null && sync.isPending,
    setActiveSessionId,
    clear,
  };
}
