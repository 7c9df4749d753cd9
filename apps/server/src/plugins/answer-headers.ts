import type { FastifyInstance } from "fastify";
import type { Config } from "../config.ts";
import { REQUEST_ID_HEADER } from "./request-id.ts";
import { securityHeadersOf } from "./security-headers.ts";

/**
 * The headers every answer carries, set in one synchronous onRequest hook, the first one to run
 * (refusals, 404s and errors carry them too):
 *
 * - X-Request-Id: the request's id (plugins/request-id.ts);
 * - the security headers (CSP, frame refusal, HSTS in production: plugins/security-headers.ts);
 * - under /api: `Cache-Control: no-store`, since API answers depend on who asks and no cache (a
 *   shared proxy, the browser's disk) may keep them. A route with a policy of its own (public
 *   images and avatars: long-lived and immutable; the catalog list: revalidated by ETag) sets
 *   its header over this one; the OpenAPI document under /api/docs keeps the plugin's.
 *
 * One hook with the fixed headers built once, instead of a hook per concern (one an asynchronous
 * onSend): each hook is a step of every request.
 */
export function installAnswerHeaders(app: FastifyInstance, config: Config): void {
  const fixed = securityHeadersOf(config);
  const api = { ...fixed, "cache-control": "no-store" };
  app.addHook("onRequest", (request, reply, done) => {
    const { url } = request;
    const personal = url.startsWith("/api/") && !url.startsWith("/api/docs");
    reply.headers(personal ? api : fixed).header(REQUEST_ID_HEADER, request.id);
    done();
  });
}
