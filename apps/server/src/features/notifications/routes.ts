import type { FastifyInstance } from "fastify";
import { sendJson } from "../../lib/encoded-body.ts";
import { route } from "../../lib/endpoint.ts";
import type { NotificationDeps } from "./deps.ts";
import { getPreferences, markRead, notificationsAnswer, setPreferences } from "./service.ts";

/** The reader's notifications and their choices. */
export async function notificationRoutes(
  app: FastifyInstance,
  deps: NotificationDeps,
): Promise<void> {
  // Kept per reader and query, checked against the contract when made (service.ts).
  route(app, "GET /api/notifications", async (request, reply) =>
    sendJson(request, reply, await notificationsAnswer(deps, request.auth.user._id, request.query)),
  );
  route(app, "POST /api/notifications/read", async (request) =>
    markRead(deps, request.auth.user._id, request.body),
  );
  route(app, "GET /api/users/me/notification-preferences", async (request) => ({
    preferences: await getPreferences(deps, request.auth.user._id),
  }));
  route(app, "PUT /api/users/me/notification-preferences", async (request) => ({
    preferences: await setPreferences(deps, request.auth.user._id, request.body),
  }));
}
