/**
 * Answers of member-only reads (a cart, a session, a summary), remembered per user until the next
 * successful write on any instance (decision 007): this process bumps it on its own writes, and
 * on PostgreSQL every instance's writes and live events arrive over NOTIFY and bump it too.
 * `usable` says whether it may answer now: never while this instance might miss another's write
 * (its LISTEN connection is down).
 */
import { meter } from "./metrics.ts";

export function createReadCache(usable: () => boolean, maxEntries = 5_000) {
  let epoch = 0;
  /** Answers as the JSON sent, so a hit costs no serialisation. */
  let entries = new Map<string, Body>();

  return {
    /** Any successful write: everything remembered may be stale now. */
    bump(): void {
      epoch += 1;
      entries = new Map();
    },
    /**
     * Answers with the remembered JSON for this user and URL, or computes, serialises (with the
     * route's response schema) and remembers it.
     */
    async read<R>(
      request: { url: string; auth: { user: { _id: string } } },
      reply: ReplyLike<R>,
      compute: () => Promise<unknown>,
    ): Promise<R> {
      const key = `${request.auth.user._id} ${request.url}`;
      const caching = usable();
      const hit = caching ? entries.get(key) : undefined;
      if (hit !== undefined) {
        meter.cacheLookup("reads", true);
        return reply.type(JSON_TYPE).send(hit);
      }
      if (caching) meter.cacheLookup("reads", false);
      const started = epoch;
      const text = reply.serialize(await compute());
      // A write that finished meanwhile may be missing from this answer: do not keep it.
      if (started === epoch && usable()) {
        if (entries.size >= maxEntries) entries = new Map();
        entries.set(key, text);
      }
      return reply.type(JSON_TYPE).send(text);
    },
  };
}

const JSON_TYPE = "application/json; charset=utf-8";

type Body = string | Buffer | ArrayBuffer;

/** What the cache needs of Fastify's reply. */
interface ReplyLike<R> {
  serialize(payload: unknown): Body;
  type(contentType: string): { send(payload: Body): R };
}

export type ReadCache = ReturnType<typeof createReadCache>;
