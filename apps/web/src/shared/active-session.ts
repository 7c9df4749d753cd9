import { useCallback, useMemo, useSyncExternalStore } from "react";
import type { Session } from "@cartner/contract";
import { useAuth } from "../lib/auth-store.ts";
import { newestFirst } from "./session-order.ts";
import { useSessionSync } from "./sessions-queries.ts";

/**
 * The active session: the one the marketplace adds to, chosen in the session selector. Kept per
 * user in local storage under `activeSession:{userId}`; when none is stored (or the stored one is
 * no longer active) the newest active session is used (SPEC section 4).
 */
const KEY_PREFIX = "activeSession:";

export function activeSessionKey(userId: string): string {
  return `${KEY_PREFIX}${userId}`;
}

const listeners = new Set<() => void>();

function notify(): void {
  for (const listener of listeners) listener();
}

function onStorage(event: StorageEvent): void {
  if (event.key === null || event.key.startsWith(KEY_PREFIX)) notify();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (listeners.size === 1) window.addEventListener("storage", onStorage);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) window.removeEventListener("storage", onStorage);
  };
}

export function readActiveSessionId(userId: string): string | null {
  try {
    const value = window.localStorage.getItem(activeSessionKey(userId));
    return value && value.trim() !== "" ? value : null;
  } catch {
    return null;
  }
}

/** Stores (or, with null, forgets) the user's chosen session. Never throws. */
export function writeActiveSessionId(userId: string, sessionId: string | null): void {
  try {
    if (sessionId === null) window.localStorage.removeItem(activeSessionKey(userId));
    else window.localStorage.setItem(activeSessionKey(userId), sessionId);
  } catch {
    // Storage disabled or full: the choice lasts for this page view only.
  }
  notify();
}

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
    subscribe,
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
