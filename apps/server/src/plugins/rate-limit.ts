import rateLimit from "@fastify/rate-limit";
import { ErrorCode } from "@cartner/contract";
import type { FastifyInstance } from "fastify";
import type { Config } from "../config.ts";
import { AppError } from "../lib/errors.ts";

/**
 * Per-IP budgets: RATE_LIMIT a minute for the API, tighter ones set per route (sign-in, joining).
 * Answers 429 in the API's `{ message, code }` error shape, with Retry-After.
 */
export async function registerRateLimits(app: FastifyInstance, config: Config): Promise<void> {
  await app.register(rateLimit, {
    global: false,
    max: config.rateLimit,
    timeWindow: "1 minute",
    errorResponseBuilder: (_request, context) =>
      new AppError(
        429,
        ErrorCode.RATE_LIMITED,
        `Too many requests. Please try again in ${Math.ceil(context.ttl / 1000)} s.`,
        { retryAfterSeconds: Math.ceil(context.ttl / 1000) },
      ),
  });

  // The general limit runs before any route hook (authentication included), so requests with a
  // bad or revoked token are counted too; routes with their own budget (sign-in) use theirs.
  const generalLimit = app.rateLimit();
  app.addHook("onRequest", async (request, reply) => {
    if (!request.routeOptions.config.rateLimit) await generalLimit.call(app, request, reply);
  });
}
