import crypto from "node:crypto";
import type { IncomingMessage } from "node:http";

/**
 * Every answer carries its request's id in X-Request-Id (plugins/answer-headers.ts, errors and
 * 404s too: its hook runs first); error bodies carry it as `requestId` (plugins/error-handler.ts),
 * and every log line Fastify writes for the request as `requestId` (requestIdLogLabel).
 */
export const REQUEST_ID_HEADER = "x-request-id";

/** What an id from a proxy may be: 1 to 128 of letters, digits and . _ : = + / - (no spaces). */
const GIVEN_ID = /^[A-Za-z0-9._:=+/-]{1,128}$/;

/**
 * Fastify's genReqId: the X-Request-Id a trusted proxy sent when it is well-formed (a proxy's own
 * id ties its log to ours), else a new random UUID. Untrusted, a client could choose ids that
 * collide with others' or mislead a log search, so theirs is ignored.
 */
export function requestIdFrom(trustProxy: boolean): (request: IncomingMessage) => string {
  return (request) => {
    const given = trustProxy ? request.headers[REQUEST_ID_HEADER] : undefined;
    return typeof given === "string" && GIVEN_ID.test(given) ? given : crypto.randomUUID();
  };
}
