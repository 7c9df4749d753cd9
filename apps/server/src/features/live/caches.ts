import type { ReadCache } from "../../lib/read-cache.ts";
import type { FastifyInstance } from "fastify";
import { dropCachedSessions, type AuthSessionCache } from "../auth/index.ts";
import type { BusMessage, EventBus } from "./bus.ts";

/**
 * Keeps this instance's caches true to what every instance did (decision 007): any live event or
 * invalidation empties the member reads; a revocation or an auth invalidation drops the auth
 * sessions it names; losing the LISTEN connection, or getting it back, drops everything. Subscribe
 * before the live hub, so a socket told of a change never refetches an answer from before it.
 */
export function linkCachesToBus(
  bus: { subscribe(listener: (message: BusMessage) => void): () => void },
  caches: { reads: ReadCache; authSessions: AuthSessionCache },
): () => void {
  return bus.subscribe((message) => {
    caches.reads.bump();
    if ("lost" in message || "gap" in message) dropCachedSessions(caches.authSessions, {});
    else if ("disconnect" in message && message.disconnect.code === 4401) {
      dropCachedSessions(caches.authSessions, message.disconnect);
    } else if ("invalidate" in message && message.invalidate.auth) {
      dropCachedSessions(caches.authSessions, message.invalidate.auth);
    }
  });
}

/**
 * Every successful write (not GET or HEAD, status below 400) makes the member reads stale: this
 * instance's at once, the others' by an `invalidate` message when they share the bus.
 */
export function invalidateReadsOnWrite(
  app: FastifyInstance,
  reads: ReadCache,
  bus: Pick<EventBus, "publish" | "shared">,
  processCaches: boolean,
): void {
  // Synchronous (done, no promise): it runs on every answer.
  app.addHook("onSend", (request, reply, payload, done) => {
    if (request.method !== "GET" && request.method !== "HEAD" && reply.statusCode < 400) {
      reads.bump();
      if (processCaches && bus.shared) bus.publish({ invalidate: { reads: true } });
    }
    done(null, payload);
  });
}
