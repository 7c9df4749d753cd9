import { ApiErrorSchema, ErrorCode, HealthResponseSchema } from "@cartner/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { Database } from "../../db/client.ts";
import { AppError } from "../../lib/errors.ts";

const PING_TIMEOUT_MS = 2_000;

export const healthRoutes =
  (database: Database): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      "/conhealth",
      {
        schema: {
          tags: ["health"],
          summary: "Liveness and database check (for load balancers)",
          response: { 200: HealthResponseSchema, 503: ApiErrorSchema },
        },
      },
      async () => {
        let timer: NodeJS.Timeout | undefined;
        try {
          await Promise.race([
            database.ping(),
            new Promise((_, reject) => {
              timer = setTimeout(() => reject(new Error("timeout")), PING_TIMEOUT_MS);
            }),
          ]);
        } catch {
          throw new AppError(503, ErrorCode.UNAVAILABLE, "The database is unavailable");
        } finally {
          clearTimeout(timer);
        }
        return { status: "ok" as const, db: "ok" as const };
      },
    );
  };
