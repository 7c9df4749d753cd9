import { useEffect } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { forgetEarlyGets, refreshAccessToken } from "../../lib/api.ts";
import { useAuth } from "../../lib/auth-store.ts";
import { getToken } from "../../lib/storage.ts";
import { liveUrl, startLiveClient } from "./live-client.ts";
import { applyLiveEvent, createVersionFilter, invalidateAllLive } from "./live-events.ts";
import { setLiveStatus } from "../../lib/live-status.ts";

/**
 * One live connection per signed-in tab: opened on sign-in, closed on sign-out,
 * restarted when someone else signs in. Without WebSocket support the app keeps polling.
 */
export function LiveSync(): null {
  const client = useQueryClient();
  const { isSignedIn, user } = useAuth();
  const userId = user?._id ?? null;

  useEffect(() => {
    if (!isSignedIn || typeof globalThis.WebSocket !== "function") return;
    const versions = createVersionFilter();
    return startLiveClient({
      url: liveUrl(),
      getToken,
      refreshToken: refreshAccessToken,
      onStatus: setLiveStatus,
      onReady: () => {
        forgetEarlyGets();
        versions.reset();
        invalidateAllLive(client);
      },
      onEvent: (event) => {
        if (versions.accept(event)) applyLiveEvent(client, event);
      },
      WebSocket: globalThis.WebSocket,
    });
  }, [client, isSignedIn, userId]);

  return null;
}
