import type { FastifyInstance } from "fastify";
import type { Database } from "../db/client.ts";

/**
 * Shutdown: the database closes with the app; while shutting down, each keep-alive connection
 * ends after its response, so close() does not wait out idle sockets after the in-flight requests
 * have finished.
 */
export function installShutdown(app: FastifyInstance, database: Database): void {
  app.addHook("onClose", async () => {
    await database.close();
  });
  let closing = false;
  app.addHook("preClose", async () => {
    closing = true;
  });
  app.addHook("onSend", async (_request, reply, payload) => {
    if (closing) reply.header("connection", "close");
    return payload;
  });
}
