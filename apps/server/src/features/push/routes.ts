import type { FastifyPluginAsync } from "fastify";
import { route } from "../../lib/endpoint.ts";
import type { PushSubscriptions } from "./subscriptions.ts";

/** GET /push/public-key, and the caller's devices: POST and DELETE /push/subscriptions. */
export const pushRoutes =
  (subscriptions: PushSubscriptions, publicKey: string): FastifyPluginAsync =>
  async (app) => {
    route(app, "GET /api/push/public-key", async () => ({ publicKey }));

    route(app, "POST /api/push/subscriptions", async (request, reply) => {
      await subscriptions.subscribe(request.auth.user._id, request.body);
      return reply.code(201).send(null);
    });

    route(app, "DELETE /api/push/subscriptions", async (request, reply) => {
      await subscriptions.unsubscribe(request.auth.user._id, request.body.endpoint);
      return reply.code(204).send(null);
    });
  };
