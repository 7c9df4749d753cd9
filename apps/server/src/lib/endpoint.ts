import {
  ApiErrorSchema,
  IdempotencyHeadersSchema,
  endpoints,
  splitEndpointKey,
  type Endpoint,
  type ErrorStatus,
  type EndpointKey,
  type ParsedRequestOf,
  type ResponseOf,
} from "@cartner/contract";
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  RouteOptions,
  RouteShorthandOptions,
} from "fastify";

/** The request a handler sees: validated and transformed by the route's schemas. */
export type EndpointRequest<K extends EndpointKey> = Omit<
  FastifyRequest,
  "params" | "query" | "body"
> &
  ParsedRequestOf<K>;

export type EndpointHandler<K extends EndpointKey> = (
  request: EndpointRequest<K>,
  reply: FastifyReply,
) => Promise<ResponseOf<K> | FastifyReply>;

/** Per-route Fastify options the table does not hold (rate-limit budgets, log serialisers). */
export type RouteExtras = Pick<RouteShorthandOptions, "config" | "logSerializers">;

/**
 * Registers one route of the endpoint table (docs/decisions/005): method, path, schemas, OpenAPI
 * entry and authentication all come from the table, so a handler holds only what it does.
 * Routes that name a session or cart check the table's action in their service (the role is
 * read in the same query as the data); here every non-public route requires a live token.
 */
export function route<K extends EndpointKey>(
  app: FastifyInstance,
  key: K,
  handler: EndpointHandler<K>,
  extras: RouteExtras = {},
): void {
  const endpoint = endpoints[key];
  const [method, path] = splitEndpointKey(key);
  // Inside a plugin registered with a prefix (/api, /api/sessions), the URL is the rest.
  if (!path.startsWith(app.prefix)) {
    throw new Error(`${key} cannot be registered under the prefix ${app.prefix}`);
  }
  const signedIn = endpoint.access !== "public";
  // Writes of a signed-in user take an Idempotency-Key: 422 for a key reused on another request,
  // 409 for a first request that never finished or whose answer is not kept (plugins/
  // idempotency.ts). "token" routes (refresh) have no user until they run, so they take none.
  const keyed = signedIn && endpoint.access !== "token" && method !== "GET";
  const errorStatuses = new Set<number>([
    ...endpoint.errors,
    ...(signedIn ? [401] : []),
    ...(keyed ? [409, 422] : []),
  ]);
  // Tagged by resource: /api/<resource>/..., and /metrics outside /api.
  const tag = path.startsWith("/api/") ? (path.split("/")[2] ?? "api") : path.split("/")[1]!;
  const body = "body" in endpoint ? endpoint.body : undefined;
  const options: RouteOptions = {
    ...extras,
    // Pictures are outside the API's rate limits (plugins/rate-limit.ts).
    ...("media" in endpoint ? { config: { ...extras.config, rateLimit: false } } : {}),
    method,
    url: path.slice(app.prefix.length) || "/",
    schema: {
      tags: [tag === "conhealth" ? "health" : tag],
      summary: endpoint.summary,
      ...(keyed && "secretAnswer" in endpoint
        ? {
            description:
              "Its answer carries a secret, so a replay with the same Idempotency-Key is 409 IDEMPOTENCY_ANSWER_NOT_KEPT, not the answer: the write was done once; reload to see it.",
          }
        : {}),
      ...(signedIn ? { security: [{ bearer: [] }] } : {}),
      ...("params" in endpoint ? { params: endpoint.params } : {}),
      ...("query" in endpoint ? { querystring: endpoint.query } : {}),
      ...(keyed ? { headers: IdempotencyHeadersSchema } : {}),
      // Multipart bodies are read part by part by their handler, not by a schema.
      ...(body === "multipart" ? { consumes: ["multipart/form-data"] } : body ? { body } : {}),
      response: {
        ...endpoint.responses,
        ...Object.fromEntries(
          [...errorStatuses].map((status) => [
            status,
            (endpoint as Endpoint).errorBodies?.[status as ErrorStatus] ?? ApiErrorSchema,
          ]),
        ),
      },
    },
    // "token" routes read the bearer token themselves (refresh accepts an expired one).
    ...(signedIn && endpoint.access !== "token" ? { onRequest: app.authenticate } : {}),
    handler: handler as unknown as RouteOptions["handler"],
  };
  app.route(options);
}
