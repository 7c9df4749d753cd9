import { ErrorCode } from "@cartner/contract";
import type { FastifyInstance } from "fastify";
import type { Database } from "../../db/client.ts";
import { route } from "../../lib/endpoint.ts";
import { AppError } from "../../lib/errors.ts";
import type { EventBus } from "../live/index.ts";
import { CHECK_TIMEOUT_MS, migrationsCheck, readiness, within } from "./readiness.ts";

/** What the health calls read: the database, the live bus's connection, whether the dev mailbox is on. */
export interface HealthDeps {
  database: Database;
  bus: Pick<EventBus, "connected">;
  devMailbox: boolean;
}

/** The health calls: the old combined check, liveness, and readiness for load balancers. */
export async function healthRoutes(app: FastifyInstance, deps: HealthDeps): Promise<void> {
  const { database, bus, devMailbox } = deps;
  route(app, "GET /api/conhealth", async () => {
    try {
      await within(database.ping(), CHECK_TIMEOUT_MS);
    } catch {
      throw new AppError(503, ErrorCode.UNAVAILABLE, "The database is unavailable");
    }
    return { status: "ok" as const, db: "ok" as const, devMailbox };
  });

  // Liveness: the process answers. Nothing else, so a busy database never restarts it.
  route(app, "GET /api/health/live", async () => ({ status: "ok" as const }));

  const probes = {
    database: () => database.ping(),
    migrations: migrationsCheck(database),
    bus: () => bus.connected(),
  };
  route(app, "GET /api/health/ready", async () => {
    const { checks, failed } = await readiness(probes);
    if (failed.length > 0) {
      throw new AppError(503, ErrorCode.UNAVAILABLE, `Not ready: ${failed.join(", ")} failed`, {
        details: { checks, failed },
        retryAfterSeconds: 5,
      });
    }
    return { status: "ok" as const, checks };
  });
}
