import type { FastifyInstance } from "fastify";
import { route } from "../../lib/endpoint.ts";
import type { PushDeps } from "./deps.ts";
import { subscribeDevice, unsubscribeDevice } from "./subscriptions.ts";

/** GET /push/public-key, and the caller's devices: POST and DELETE /push/subscriptions. */
export async function pushRoutes(
  app: FastifyInstance,
  deps: PushDeps & { publicKey: string },
): Promise<void> {
  route(app, "GET /api/push/public-key", async () => ({ publicKey: deps.publicKey }));

  route(app, "POST /api/push/subscriptions", async (request, reply) => {
    await subscribeDevice(deps, request.auth.user._id, request.body);
    return reply.code(201).send(null);
  });

  route(app, "DELETE /api/push/subscriptions", async (request, reply) => {
    await unsubscribeDevice(deps, request.auth.user._id, request.body.endpoint);
    return reply.code(204).send(null);
  });
}
