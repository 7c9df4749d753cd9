import crypto from "node:crypto";
import { endpoints, ErrorCode, splitEndpointKey } from "@cartner/contract";
import type { FastifyInstance, FastifyPluginAsync, onResponseHookHandler } from "fastify";
import type { Database } from "../db/client.ts";
import { route } from "../lib/endpoint.ts";
import { AppError, notFound } from "../lib/errors.ts";
import type * as MetricsRegistry from "./metrics-registry.ts";

/** prom-client and our metrics, imported the first time metrics are on (once per process). */
let loaded: Promise<typeof MetricsRegistry> | undefined;
const loadMetrics = () => (loaded ??= import("./metrics-registry.ts"));

/** The endpoint table's paths by method: a route's label is its pattern, never the raw URL. */
const TABLE_PATHS = new Map<string, Set<string>>();
for (const key of Object.keys(endpoints) as (keyof typeof endpoints)[]) {
  const [method, path] = splitEndpointKey(key);
  if (!TABLE_PATHS.has(method)) TABLE_PATHS.set(method, new Set());
  TABLE_PATHS.get(method)!.add(path);
}

/** Routes outside the table (static files, the API's docs) share one label, as unknown paths do. */
const OTHER_ROUTE = "other";
const UNMATCHED_ROUTE = "unmatched";

/** The label a route gets: the table's pattern (HEAD counts as its GET route), or "other". */
export function routeLabel(method: string, url: string | undefined): string {
  if (url === undefined) return UNMATCHED_ROUTE;
  const tableMethod = method === "HEAD" ? "GET" : method;
  return TABLE_PATHS.get(tableMethod)?.has(url) ? url : OTHER_ROUTE;
}

/**
 * Records each answer's count and duration under its method, route and status. The children of
 * each status are made once per route, so a request costs two lookups and two updates.
 */
function recorder(
  { httpRequests, httpRequestDuration }: Awaited<ReturnType<typeof loadMetrics>>,
  method: string,
  routeName: string,
): onResponseHookHandler {
  const byStatus = new Map<
    number,
    { count: { inc(): void }; duration: { observe(v: number): void } }
  >();
  return (_request, reply, done) => {
    const status = reply.statusCode;
    let children = byStatus.get(status);
    if (!children) {
      const labels = [method, routeName, String(status)] as const;
      children = {
        count: httpRequests.labels(...labels),
        duration: httpRequestDuration.labels(...labels),
      };
      byStatus.set(status, children);
    }
    children.count.inc();
    children.duration.observe(reply.elapsedTime / 1000);
    done();
  };
}

/** Equal-time comparison of two secrets of any length. */
function sameSecret(given: string, expected: string): boolean {
  const digest = (value: string) => crypto.createHash("sha256").update(value).digest();
  return crypto.timingSafeEqual(digest(given), digest(expected));
}

/**
 * GET /metrics (Prometheus text) for an operator holding METRICS_TOKEN: 404 while it is unset, 401
 * without the token.
 */
export const metricsRoutes =
  (token: string | undefined): FastifyPluginAsync =>
  async (app) => {
    route(app, "GET /metrics", async (request, reply) => {
      if (token === undefined) throw notFound(`No route for GET /metrics`);
      const header = request.headers.authorization ?? "";
      const given = header.startsWith("Bearer ") ? header.slice("Bearer ".length) : "";
      if (!sameSecret(given, token)) {
        reply.header("www-authenticate", 'Bearer realm="metrics"');
        throw new AppError(401, ErrorCode.UNAUTHORIZED, "The metrics token is missing or wrong");
      }
      const { registry } = await loadMetrics();
      return reply.type(registry.contentType).send(await registry.metrics());
    });
  };

/**
 * With METRICS_TOKEN set, prom-client is loaded, every answer is counted and timed, and the pool and the job queue of
 * `database` are read at each scrape. Install before the routes: it hooks each one as it is added.
 */
export async function installMetrics(
  app: FastifyInstance,
  token: string | undefined,
  database: Database,
): Promise<void> {
  if (token === undefined) return;
  const metrics = await loadMetrics();
  const { sources } = metrics;
  const source = { database };
  sources.add(source);
  app.addHook("onClose", async () => void sources.delete(source));

  app.addHook("onRoute", (options) => {
    const methods = [options.method].flat();
    const byMethod = new Map(
      methods.map((m) => [m, recorder(metrics, m, routeLabel(m, options.url))]),
    );
    const only = methods.length === 1 ? byMethod.get(methods[0]!) : undefined;
    // A route of several methods (static files' GET and HEAD) picks by the request's.
    const hook: onResponseHookHandler =
      only ??
      function (request, reply, done) {
        const record = byMethod.get(request.method);
        if (record) record.call(this, request, reply, done);
        else done();
      };
    const hooks = options.onResponse;
    options.onResponse = hooks === undefined ? [hook] : [hook, ...[hooks].flat()];
  });
  // Requests no route matched (404s, refusals before routing).
  const unmatched = recorder(metrics, "any", UNMATCHED_ROUTE);
  app.addHook("onResponse", function (request, reply, done) {
    if (request.is404) unmatched.call(this, request, reply, done);
    else done();
  });
}
