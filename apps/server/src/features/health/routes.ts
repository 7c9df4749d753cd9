import { ErrorCode } from "@cartner/contract";
import type { FastifyPluginAsync } from "fastify";
import type { Database } from "../../db/client.ts";
import { route } from "../../lib/endpoint.ts";
import { AppError } from "../../lib/errors.ts";

const PING_TIMEOUT_MS = 2_000;

export const healthRoutes =
  (database: Database, devMailbox: boolean): FastifyPluginAsync =>
  async (app) => {
    route(app, "GET /api/conhealth", async () => {
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
      return { status: "ok" as const, db: "ok" as const, devMailbox };
    });
  };
