import { useEffect } from "react";
import { onlineManager, type QueryClient } from "@tanstack/react-query";
import { useAuth } from "../lib/auth-store.ts";
import { getToken } from "../lib/storage.ts";

/**
 * The offline copy and the cart writes' defaults (which restored changes need to be sent), loaded
 * only once someone is signed in: the signed-out first load of / and /login does without them.
 */
const loadOffline = () =>
  Promise.all([import("../lib/offline-cache.ts"), import("../shared/cart-writes.ts")]).then(
    ([cache, writes]) => ({ ...cache, registerCartWrites: writes.registerCartWrites }),
  );

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
    offline
      .then(async ({ registerCartWrites, restoreOfflineCache, keepOfflineCache }) => {
        // Restored changes keep only their data: the defaults say how to send them.
        registerCartWrites(client);
        if (cancelled) return;
        await restoreOfflineCache(client, userId, () => !cancelled).catch((error: unknown) =>
          console.error("Could not read the offline copy:", error),
        );
        if (cancelled) return;
        stop = keepOfflineCache(client, userId);
        if (onlineManager.isOnline()) void client.resumePausedMutations();
      })
      .catch((error: unknown) => console.error("Could not load the offline copy:", error));
    return () => {
      cancelled = true;
      const signedOut = getToken() === null;
      stop?.(!signedOut);
      if (signedOut) void offline.then(({ forgetOfflineCache }) => forgetOfflineCache(userId));
    };
  }, [client, userId]);
}
