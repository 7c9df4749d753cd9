import type { FastifyPluginAsync } from "fastify";
import { route } from "../../lib/endpoint.ts";
import type { DeadlineService } from "./service.ts";

/** The deadline calls of the endpoint table (thin). */
export const deadlineRoutes =
  (deadlines: DeadlineService): FastifyPluginAsync =>
  async (app) => {
    route(app, "PUT /api/sessions/:id/deadline", async (request) => ({
      session: await deadlines.set(request.params.id, request.auth.user._id, request.body),
    }));

    route(app, "POST /api/sessions/:id/reopen", async (request) => ({
      session: await deadlines.reopen(request.params.id, request.auth.user._id, request.body),
    }));
  };
