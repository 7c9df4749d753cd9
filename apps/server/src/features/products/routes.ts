import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { route } from "../../lib/endpoint.ts";
import { CROSS_ORIGIN_RESOURCE } from "../../lib/media.ts";
import { notFound } from "../../lib/errors.ts";
import type { Catalog, CachedBody } from "./catalog.ts";

/** Sends a cached body, or 304 when the client already has it. */
function sendCached(
  request: FastifyRequest,
  reply: FastifyReply,
  cached: CachedBody,
  type: string,
  cacheControl: string,
) {
  reply
    .header("etag", cached.etag)
    .header("cache-control", cacheControl)
    .header("vary", "accept-encoding");
  if (request.headers["if-none-match"] === cached.etag) return reply.code(304).send();
  reply.type(type);
  if (cached.gzip && /\bgzip\b/.test(request.headers["accept-encoding"] ?? "")) {
    return reply.header("content-encoding", "gzip").send(cached.gzip);
  }
  return reply.send(cached.body);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The Products calls of the endpoint table, answered from the catalog's cached snapshot. */
export async function productRoutes(
  app: FastifyInstance,
  deps: { catalog: Catalog },
): Promise<void> {
  const { catalog } = deps;
  route(app, "GET /api/products", async (request, reply) =>
    sendCached(
      request,
      reply,
      await catalog.list(request.query),
      "application/json; charset=utf-8",
      // Per user (behind auth), always revalidated: the ETag makes that a cheap 304.
      "private, no-cache",
    ),
  );

  route(app, "GET /api/products/:id", async (request) => {
    // A malformed id cannot name a product: the same 404 as a missing one.
    if (!UUID.test(request.params.id)) throw notFound("Product not found.");
    return { product: await catalog.get(request.params.id) };
  });

  route(app, "GET /api/catalog/images/:file", async (request, reply) =>
    sendCached(
      request,
      reply.header(...CROSS_ORIGIN_RESOURCE),
      await catalog.image(request.params.file),
      "image/svg+xml",
      "public, max-age=31536000, immutable",
    ),
  );
}
