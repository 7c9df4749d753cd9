import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { Database } from "../../db/client.ts";
import { createLocalBus, createPostgresBus, type EventBus } from "./bus.ts";

/**
 * The live events' bus for this database: one instance tells its own sockets; instances sharing
 * PostgreSQL use its NOTIFY (what is published in one turn goes as one pg_notify statement). The
 * PostgreSQL bus closes with the app.
 */
export async function openEventBus(database: Database, app: FastifyInstance): Promise<EventBus> {
  if (database.kind !== "postgres" || !database.url) return createLocalBus();
  const bus = createPostgresBus({
    url: database.url,
    notify: (channel, payloads) =>
      database.db.execute(
        sql`select pg_notify(${channel}, p) from json_array_elements_text(${JSON.stringify(payloads)}::json) as p`,
      ),
    log: app.log,
  });
  await bus.ready;
  app.addHook("onClose", async () => bus.close());
  return bus;
}
