import type { FastifyPluginAsync } from "fastify";
import { route } from "../../../lib/endpoint.ts";
import type { InviteLinkService } from "./invite-links.ts";

/** Invite links: the creator's calls, the preview and accepting one. */
export const inviteLinkRoutes =
  (links: InviteLinkService, acceptRateLimit: number): FastifyPluginAsync =>
  async (app) => {
    route(app, "POST /api/sessions/:id/links", async (request, reply) =>
      reply
        .code(201)
        .send({ link: await links.createLink(request.params.id, request.auth.user, request.body) }),
    );

    route(app, "GET /api/sessions/:id/links", async (request) => ({
      links: await links.listLinks(request.params.id, request.auth.user._id),
    }));

    route(app, "DELETE /api/sessions/:id/links/:linkId", async (request) => ({
      link: await links.revokeLink(request.params.id, request.auth.user._id, request.params.linkId),
    }));

    // Tokens are 128 random bits, but nobody gets to try many: sign-in's per-IP budget.
    const limited = { config: { rateLimit: { max: acceptRateLimit, timeWindow: "1 minute" } } };
    route(
      app,
      "GET /api/invite/:token",
      async (request) => links.preview(request.params.token),
      limited,
    );

    route(
      app,
      "POST /api/invite/:token/accept",
      async (request) => links.accept(request.params.token, request.auth.user),
      limited,
    );
  };
