/**
 * Which session a user shops on (the active session, see active-session.ts), kept per user in
 * local storage under `activeSession:{userId}`. A module of its own without server state: the
 * landing page's create form sets it, and that page loads without the query client.
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

export function subscribeActiveSession(listener: () => void): () => void {
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
