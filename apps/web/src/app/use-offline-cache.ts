import { useEffect } from "react";
import { onlineManager, type QueryClient } from "@tanstack/react-query";
import { useAuth } from "../lib/auth-store.ts";
import { getToken, getUser } from "../lib/storage.ts";

/**
 * The offline copy and the cart writes' defaults (which restored changes need to be sent), loaded
 * only once someone is signed in: the signed-out first load of / and /login does without them.
 */
const loadOffline = () =>
  Promise.all([import("../lib/offline-cache.ts"), import("../api/cart-writes.ts")]).then(
    ([cache, writes]) => ({ ...cache, registerCartWrites: writes.registerCartWrites }),
  );

/** The restore of each user's copy into a client: once per user while they stay signed in. */
const restores = new WeakMap<QueryClient, Map<string, Promise<void>>>();

function restoresOf(client: QueryClient): Map<string, Promise<void>> {
  let map = restores.get(client);
  if (!map) {
    map = new Map();
    restores.set(client, map);
  }
  return map;
}

/**
 * Puts the user's saved data and queued changes into the client (lib/offline-cache.ts), once.
 * Pages wait for it before their first render (app/routes.tsx), so a reload without signal starts
 * from what the user saw rather than from an empty page; the signed-in services wait for it before
 * they keep the copy up to date.
 */
export function restoreOfflineCopy(client: QueryClient, userId: string): Promise<void> {
  if (typeof indexedDB === "undefined") return Promise.resolve();
  let restore = restoresOf(client).get(userId);
  if (!restore) {
    restore = loadOffline()
      .then(async ({ registerCartWrites, restoreOfflineCache }) => {
        // Restored changes keep only their data: the defaults say how to send them.
        registerCartWrites(client);
        // A user who signed out (or was replaced) meanwhile gets nothing put back.
        const stillSignedIn = () => getToken() !== null && getUser()?._id === userId;
        await restoreOfflineCache(client, userId, stillSignedIn);
      })
      .catch((error: unknown) => console.error("Could not read the offline copy:", error));
    restoresOf(client).set(userId, restore);
  }
  return restore;
}

/**
 * While a user is signed in, their last data and queued cart changes are restored from IndexedDB
 * and kept there (lib/offline-cache.ts); queued changes are sent once restored and online. On
 * sign-out the copy is deleted.
 */
export function useOfflineCache(client: QueryClient): void {
  const userId = useAuth().user?._id;
  useEffect(() => {
    if (!userId || typeof indexedDB === "undefined") return;
    let stop: ((flush: boolean) => void) | undefined;
    let cancelled = false;
    const offline = loadOffline();
    restoreOfflineCopy(client, userId)
      .then(() => offline)
      .then(({ keepOfflineCache }) => {
        if (cancelled) return;
        stop = keepOfflineCache(client, userId);
        if (onlineManager.isOnline()) void client.resumePausedMutations();
      })
      .catch((error: unknown) => console.error("Could not load the offline copy:", error));
    return () => {
      cancelled = true;
      const signedOut = getToken() === null;
      stop?.(!signedOut);
      if (signedOut) {
        restoresOf(client).delete(userId);
        void offline.then(({ forgetOfflineCache }) => forgetOfflineCache(userId));
      }
    };
  }, [client, userId]);
}
