import type { FastifyInstance } from "fastify";

/**
 * API answers depend on who asks, so no cache (a shared proxy, the browser's disk) may keep them:
 * `Cache-Control: no-store` on everything under /api that has not chosen its own policy. The
 * public images and avatars (long-lived, immutable), the OpenAPI document and the catalog list
 * (the same for everyone, revalidated by ETag) set theirs in their routes.
 */
export function installApiCacheControl(app: FastifyInstance): void {
  app.addHook("onSend", async (request, reply, payload) => {
    const personal = request.url.startsWith("/api/") && !request.url.startsWith("/api/docs");
    if (personal && !reply.hasHeader("cache-control")) {
      reply.header("cache-control", "no-store");
    }
    return payload;
  });
}
