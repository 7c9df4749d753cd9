import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { route } from "../../lib/endpoint.ts";
import type { Db } from "../../db/types.ts";
import { CROSS_ORIGIN_RESOURCE, parseProductPhotoFile } from "../../lib/media.ts";
import { notFound } from "../../lib/errors.ts";
import { productPhoto } from "../catalog/index.ts";
import { contentEncoding, encodedBody } from "../../lib/encoded-body.ts";
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
  const encoding = contentEncoding(cached, request.headers["accept-encoding"]);
  if (encoding) {
    return reply.header("content-encoding", encoding).send(encodedBody(cached, encoding));
  }
  return reply.send(cached.body);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The Products calls of the endpoint table, answered from the catalog's cached snapshot. */
export async function productRoutes(
  app: FastifyInstance,
  deps: { catalog: Catalog; db: Db },
): Promise<void> {
  const { catalog } = deps;
  const forever = "public, max-age=31536000, immutable";
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

  route(app, "GET /api/catalog/images/:file", async (request, reply) => {
    reply.header(...CROSS_ORIGIN_RESOURCE);
    const photo = parseProductPhotoFile(request.params.file);
    if (!photo) {
      const drawn = await catalog.image(request.params.file);
      return sendCached(request, reply, drawn, "image/svg+xml", forever);
    }
    // Photos stay in the database, not in the catalog's memory: a browser asks once (the URL
    // holds the content hash), and its revalidation is answered without reading them.
    const etag = `"${photo.hash}-${photo.size}"`;
    reply.header("etag", etag).header("cache-control", forever);
    if (request.headers["if-none-match"] === etag) return reply.code(304).send();
    const bytes = await productPhoto(deps.db, photo.slug, photo.hash, photo.size);
    if (!bytes) throw notFound("No such image");
    return reply.type("image/webp").send(bytes);
  });
}
