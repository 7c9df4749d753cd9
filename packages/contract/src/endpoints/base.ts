/**
 * What every file of the endpoint table shares: the shape of one route, who may call it, and the
 * path parameters and error lists several resources use.
 */
import { z } from "zod";
import type { Action } from "../permissions.ts";

/**
 * Who may call a route: anyone ("public"), any signed-in user ("user"), a bearer token the route
 * checks itself ("token": refresh accepts an expired one), or a member whose role the permissions
 * table allows to do the action (the rest get the table's refusal).
 */
export type Access = "public" | "user" | "token" | Action;

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
export type SuccessStatus = 200 | 201 | 202 | 204 | 302;
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 410 | 413 | 415 | 429 | 503;

export interface Endpoint {
  summary: string;
  access: Access;
  params?: z.ZodType;
  query?: z.ZodType;
  /** A JSON body schema, or "multipart" for form uploads (validated field by field). */
  body?: z.ZodType | "multipart";
  /** Success answers by status: a JSON schema, or a described string/any for files. */
  responses: Partial<Record<SuccessStatus, z.ZodType>>;
  /** Error answers this route gives besides 401 for signed-in routes; each is an ApiError. */
  errors: readonly ErrorStatus[];
  /** Error answers that carry more than the error shape (each extends ApiError), by status. */
  errorBodies?: Partial<Record<ErrorStatus, z.ZodType>>;
  /**
   * Its success answer carries a secret (a sign-in token, an invite-link token). The
   * Idempotency-Key store never keeps such an answer: a replay of the success is 409
   * IDEMPOTENCY_ANSWER_NOT_KEPT (the write is still done once); a refusal replays as usual.
   */
  secretAnswer?: true;
  /**
   * A picture (product image, avatar): public, and outside the API's rate limits, since one page
   * shows dozens of them.
   */
  media?: true;
}

/** One resource's routes, keyed "METHOD /api/path" (the operator's /metrics is the one outside /api). */
export type EndpointKeyPattern = `${HttpMethod} /api/${string}` | "GET /metrics";
export type EndpointGroup = Partial<Record<EndpointKeyPattern, Endpoint>>;

// Path parameters. The messages are what a client sees for a malformed id (a 400 names the field).
export const SessionIdParams = z.strictObject({ id: z.uuid("Session not found") });

/**
 * The body of a route that takes none: nothing (Fastify reads it as null), or `{}` (what some
 * clients send with a POST). Anything else is a 400 naming the unknown field, before the route
 * does anything.
 */
export const NoBody = z.strictObject({}).nullish();

export const svg = z.string().describe("image/svg+xml");
export const sessionErrors = [400, 403, 404, 409] as const;

/**
 * The header every signed-in write accepts: documented here for the OpenAPI document; the
 * server's idempotency plugin checks its form (1..100 printable characters, else 400) and does the
 * rest. Other headers pass through untouched. Sign-in steps and the token renewal (access
 * "public" or "token") take no key.
 */
export const IdempotencyHeadersSchema = z.looseObject({
  "idempotency-key": z
    .string()
    .optional()
    .describe(
      "1 to 100 printable characters. The same key with the same request within 24 h replays the first answer (an answer that carries a secret is not kept: 409 IDEMPOTENCY_ANSWER_NOT_KEPT); with another request it is 422 IDEMPOTENCY_MISMATCH.",
    ),
});
