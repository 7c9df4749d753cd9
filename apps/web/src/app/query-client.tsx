import type { ReactNode } from "react";
import { QueryClient, QueryClientProvider, onlineManager } from "@tanstack/react-query";
import { ApiError } from "../lib/api.ts";
import { StorageKey, getToken, getUser, subscribeStorage } from "../lib/storage.ts";

/*
 * TanStack Query owns server state. This module (and Query itself, about 11 KB gzip) is not part
 * of the first load: the pages a visitor arrives on (/ and /login) need no server state, so it
 * loads with the first page that does, and with the signed-in parts of the layout
 * (docs/decisions/013-first-load.md). Every page shares the one client made here.
 */

/** Client errors (4xx) are not retried; they will not get better. */
export function createQueryClient(): QueryClient {
  const client = new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        retry: (failureCount, error) => {
          if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
          return failureCount < 2;
        },
      },
      mutations: { retry: false },
    },
  });
  // TanStack Query hears the browser's online and offline events, but assumes online at start: a
  // page opened without a connection must queue its writes from the first one.
  if (typeof navigator !== "undefined") onlineManager.setOnline(navigator.onLine);
  return client;
}

let shared: QueryClient | null = null;

/** The app's one client, made on first use. */
export function getQueryClient(): QueryClient {
  shared ??= createQueryClient();
  return shared;
}

/** Tests bring their own client (no retries, a clean cache per test). */
export function setQueryClient(client: QueryClient): void {
  shared = client;
}

// Whatever was cached for a user must not outlive their sign-in (here or in another tab).
subscribeStorage((key) => {
  if ((key === null || key === StorageKey.token) && getToken() === null) shared?.clear();
});

/** How long a page waits for the offline copy before it draws anyway (IndexedDB takes ms). */
const RESTORE_WAIT_MS = 1500;

/**
 * Offline, resolves once a signed-in user's saved data is in the client (or after
 * RESTORE_WAIT_MS): a page opened without signal then starts from what they saw last, not from an
 * empty cache that cannot fill.
 */
export async function savedDataRestored(): Promise<void> {
  const userId = getUser()?._id;
  // Online, the page's own requests bring the data; the copy fills in when it is read.
  if (!userId || getToken() === null || navigator.onLine) return;
  const { restoreOfflineCopy } = await import("./use-offline-cache.ts");
  await Promise.race([
    restoreOfflineCopy(getQueryClient(), userId),
    new Promise((resolve) => setTimeout(resolve, RESTORE_WAIT_MS)),
  ]);
}

/** Gives what it wraps (a page, the signed-in parts of the layout) the shared client. */
export function QueryProvider({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={getQueryClient()}>{children}</QueryClientProvider>;
}
