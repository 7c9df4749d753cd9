import type { ReadCache } from "../../lib/read-cache.ts";
import type { BusMessage } from "./bus.ts";

/**
 * Keeps this instance's caches true to what every instance did (decision 007): any live event or
 * invalidation empties the member reads; a revocation or an auth invalidation drops the auth
 * sessions it names; losing the LISTEN connection, or getting it back, drops everything. Subscribe
 * before the live hub, so a socket told of a change never refetches an answer from before it.
 */
export function linkCachesToBus(
  bus: { subscribe(listener: (message: BusMessage) => void): () => void },
  caches: {
    reads: ReadCache;
    dropAuthSessions: (scope: { userId?: string | undefined; sid?: string | undefined }) => void;
  },
): () => void {
  return bus.subscribe((message) => {
    caches.reads.bump();
    if ("lost" in message || "gap" in message) caches.dropAuthSessions({});
    else if ("disconnect" in message && message.disconnect.code === 4401) {
      caches.dropAuthSessions(message.disconnect);
    } else if ("invalidate" in message && message.invalidate.auth) {
      caches.dropAuthSessions(message.invalidate.auth);
    }
  });
}
