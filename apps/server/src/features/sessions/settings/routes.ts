import type { FastifyPluginAsync } from "fastify";
import { route } from "../../../lib/endpoint.ts";
import type { MemberSettingsService } from "./member-settings.ts";

/** Split policy, members' budgets and roles, ready marks (the split calls of the endpoint table). */
export const memberSettingsRoutes =
  (settings: MemberSettingsService): FastifyPluginAsync =>
  async (app) => {
    route(app, "PUT /api/sessions/:id/split-policy", async (request) => ({
      session: await settings.setPolicy(request.params.id, request.auth.user._id, request.body),
    }));

    route(app, "PATCH /api/sessions/:id/members/:userId", async (request) => ({
      session: await settings.updateMember(
        request.params.id,
        request.auth.user._id,
        request.params.userId,
        request.body,
      ),
    }));

    route(app, "PUT /api/sessions/:id/ready", async (request) => ({
      session: await settings.setReady(
        request.params.id,
        request.auth.user._id,
        request.body.ready,
      ),
    }));
  };
