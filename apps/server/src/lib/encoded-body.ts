/**
 * A kept answer's body, compressed once per kept answer for the clients that accept it: the
 * catalog's pages (features/products/catalog.ts) and the orders' kept views and pages
 * (features/orders/reading/kept.ts).
 */
import zlib from "node:zlib";
import type { FastifyReply, FastifyRequest } from "fastify";

/** A body kept ready to send, with its compressed forms made the first time one is asked. */
export interface EncodableBody {
  body: string;
  br?: Buffer;
  gzip?: Buffer;
}

const MIN_COMPRESSED_BYTES = 1024;
export type ContentEncoding = "br" | "gzip";

/**
 * The encoding to send a body in, of those a request's Accept-Encoding names: brotli at its
 * quickest quality makes a page of products as small as gzip does in half the time (20 against
 * 38 µs for 8 KB), and every browser takes it; gzip for the rest.
 */
export function contentEncoding(
  cached: EncodableBody,
  acceptEncoding: string | undefined,
): ContentEncoding | undefined {
  if (cached.body.length < MIN_COMPRESSED_BYTES || !acceptEncoding) return undefined;
  if (/\bbr\b/.test(acceptEncoding)) return "br";
  if (/\bgzip\b/.test(acceptEncoding)) return "gzip";
  return undefined;
}

/**
 * Where a body is written to be compressed, reused: a Buffer made per body (Node's pool takes only
 * those under 4 KB) and a compressor's output chunks (16 KB by default) are memory outside V8's
 * heap, and at a few thousand answers a second they reach V8's external memory limit within
 * seconds, each time starting a mark-compact of the whole heap, which holds the catalog (hundreds
 * of MB). In a loop over 5,000 pages with such a heap, brotli cost 300 µs of CPU a page that way,
 * and 28 µs written through this buffer into chunks from the pool.
 */
const SCRATCH_BYTES = 1 << 20;
const scratch = Buffer.allocUnsafe(SCRATCH_BYTES);
/** Output chunks from Node's buffer pool (8 KB, lent in pieces under 4 KB): a compressed page fits one. */
const CHUNK_BYTES = 2048;

/** The body's UTF-8 for a compressor (read at once, so the scratch buffer is free again after). */
function input(body: string): Buffer {
  // UTF-8 takes at most 3 bytes per UTF-16 unit.
  if (body.length * 3 > SCRATCH_BYTES) return Buffer.from(body);
  return scratch.subarray(0, scratch.write(body));
}

/** Bodies above this are compressed harder (brotliParams). */
const LARGE_BYTES = 64 * 1024;

/**
 * Brotli's settings for a body of `bytes`: up to 64 KB (a page of products), its quickest quality
 * in a 64 KB window, not brotli's 4 MB (its state is made per call). A larger body is a long list
 * kept and sent again and again (a page of 50 orders of 40 lines is 800 KB of JSON): a window that
 * holds it whole and quality 5 find the lines and orders it repeats, which a 64 KB window at
 * quality 1 mostly does not (that page: 9 KB against 67 KB, made once in about 20 ms).
 */
function brotliParams(bytes: number) {
  const large = bytes > LARGE_BYTES;
  return {
    [zlib.constants.BROTLI_PARAM_QUALITY]: large ? 5 : 1,
    [zlib.constants.BROTLI_PARAM_LGWIN]: large ? Math.min(22, Math.ceil(Math.log2(bytes))) : 16,
    [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes,
  };
}

/** The body in an encoding, compressed once per kept answer. */
export function encodedBody(cached: EncodableBody, encoding: ContentEncoding): Buffer {
  if (encoding === "br") {
    if (cached.br) return cached.br;
    const bytes = input(cached.body);
    return (cached.br = zlib.brotliCompressSync(bytes, {
      chunkSize: CHUNK_BYTES,
      params: brotliParams(bytes.length),
    }));
  }
  return (cached.gzip ??= zlib.gzipSync(input(cached.body), { level: 1, chunkSize: CHUNK_BYTES }));
}

/**
 * Sends a kept JSON answer as it is (no schema, no serialisation: it was checked against the
 * contract when it was made), compressed when the client accepts it.
 */
export function sendJson(request: FastifyRequest, reply: FastifyReply, kept: EncodableBody) {
  return sendBody(request, reply, kept, "application/json; charset=utf-8");
}

/** Sends a kept answer of any type as it is, compressed when the client accepts it. */
export function sendBody(
  request: FastifyRequest,
  reply: FastifyReply,
  kept: EncodableBody,
  type: string,
) {
  reply.type(type).header("vary", "accept-encoding");
  const encoding = contentEncoding(kept, request.headers["accept-encoding"]);
  if (encoding) {
    return reply.header("content-encoding", encoding).send(encodedBody(kept, encoding));
  }
  return reply.send(kept.body);
}
