import type { FastifyInstance } from "fastify";
import { route } from "../../lib/endpoint.ts";
import type { NotificationService } from "./service.ts";

/** The reader's notifications and their choices. */
export async function notificationRoutes(
  app: FastifyInstance,
  deps: { notices: NotificationService },
): Promise<void> {
  const { notices } = deps;
  route(app, "GET /api/notifications", async (request) =>
    notices.list(request.auth.user._id, request.query),
  );
  route(app, "POST /api/notifications/read", async (request) =>
    notices.markRead(request.auth.user._id, request.body),
  );
  route(app, "GET /api/users/me/notification-preferences", async (request) => ({
    preferences: await notices.getPreferences(request.auth.user._id),
  }));
  route(app, "PUT /api/users/me/notification-preferences", async (request) => ({
    preferences: await notices.setPreferences(request.auth.user._id, request.body),
  }));
}
