import { useEffect } from "react";
import { onlineManager, type QueryClient } from "@tanstack/react-query";
import { useAuth } from "../lib/auth-store.ts";
import { forgetOfflineCache, keepOfflineCache, restoreOfflineCache } from "../lib/offline-cache.ts";
import { getToken } from "../lib/storage.ts";

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
    restoreOfflineCache(client, userId)
      .catch((error: unknown) => console.error("Could not read the offline copy:", error))
      .finally(() => {
        if (cancelled) return;
        stop = keepOfflineCache(client, userId);
        if (onlineManager.isOnline()) void client.resumePausedMutations();
      });
    return () => {
      cancelled = true;
      const signedOut = getToken() === null;
      stop?.(!signedOut);
      if (signedOut) void forgetOfflineCache(userId);
    };
  }, [client, userId]);
}
