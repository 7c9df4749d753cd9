/**
 * Answers of member-only reads (a cart, a session, a summary), remembered per user until the next
 * successful write on any instance (decision 007): this process bumps it on its own writes, and
 * on PostgreSQL every instance's writes and live events arrive over NOTIFY and bump it too.
 * `usable` says whether it may answer now: never while this instance might miss another's write
 * (its LISTEN connection is down).
 */
import { contentEncoding, encodedBody, type EncodableBody } from "./encoded-body.ts";
import { meter } from "./metrics.ts";

export function createReadCache(usable: () => boolean, maxEntries = 5_000) {
  let epoch = 0;
  /**
   * Answers as the JSON sent, with its compressed forms made the first time a client accepting
   * them asks: a hit costs no serialisation, and a repeated one no compression either.
   */
  let entries = new Map<string, EncodableBody>();

  return {
    /** Any successful write: everything remembered may be stale now. */
    bump(): void {
      epoch += 1;
      entries = new Map();
    },
    /**
     * Answers with the remembered JSON for this user and URL, or computes, serialises (with the
     * route's response schema) and remembers it; compressed when the client accepts it.
     */
    async read<R>(
      request: RequestLike,
      reply: ReplyLike<R>,
      compute: () => Promise<unknown>,
    ): Promise<R> {
      const key = `${request.auth.user._id} ${request.url}`;
      const caching = usable();
      const hit = caching ? entries.get(key) : undefined;
      if (hit !== undefined) {
        meter.cacheLookup("reads", true);
        return send(request, reply, hit);
      }
      if (caching) meter.cacheLookup("reads", false);
      const started = epoch;
      const answer: EncodableBody = { body: textOf(reply.serialize(await compute())) };
      // A write that finished meanwhile may be missing from this answer: do not keep it.
      if (started === epoch && usable()) {
        if (entries.size >= maxEntries) entries = new Map();
        entries.set(key, answer);
      }
      return send(request, reply, answer);
    },
  };
}

const JSON_TYPE = "application/json; charset=utf-8";

/** The routes' serialisers make text; a buffer is read as the UTF-8 it holds. */
const textOf = (serialized: string | Buffer | ArrayBuffer) =>
  typeof serialized === "string"
    ? serialized
    : Buffer.from(
        serialized instanceof ArrayBuffer ? new Uint8Array(serialized) : serialized,
      ).toString("utf8");

function send<R>(request: RequestLike, reply: ReplyLike<R>, answer: EncodableBody): R {
  reply.header("vary", "accept-encoding");
  const encoding = contentEncoding(answer, request.headers["accept-encoding"]);
  if (!encoding) return reply.type(JSON_TYPE).send(answer.body);
  reply.header("content-encoding", encoding);
  return reply.type(JSON_TYPE).send(encodedBody(answer, encoding));
}

/** What the cache needs of Fastify's request. */
interface RequestLike {
  url: string;
  headers: { "accept-encoding"?: string | undefined };
  auth: { user: { _id: string } };
}

/** What the cache needs of Fastify's reply. */
interface ReplyLike<R> {
  serialize(payload: unknown): string | Buffer | ArrayBuffer;
  header(name: string, value: string): unknown;
  type(contentType: string): { send(payload: string | Buffer): R };
}

export type ReadCache = ReturnType<typeof createReadCache>;
