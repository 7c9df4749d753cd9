import type { FastifyInstance } from "fastify";
import { route } from "../../../lib/endpoint.ts";
import type { SessionDeps } from "../deps.ts";
import { acceptLink, createLink, listLinks, previewLink, revokeLink } from "./invite-links.ts";
import { openLook } from "./look.ts";

/** Invite links: the creator's calls, the preview and accepting one; a look-only link's view. */
export async function inviteLinkRoutes(
  app: FastifyInstance,
  deps: SessionDeps & { acceptRateLimit: number; lookRateLimit: number },
): Promise<void> {
  route(app, "POST /api/sessions/:id/links", async (request, reply) =>
    reply.code(201).send({
      link: await createLink(deps, request.params.id, request.auth.user, request.body),
    }),
  );

  route(app, "GET /api/sessions/:id/links", async (request) => ({
    links: await listLinks(deps, request.params.id, request.auth.user._id),
  }));

  route(app, "DELETE /api/sessions/:id/links/:linkId", async (request) => ({
    link: await revokeLink(deps, request.params.id, request.auth.user._id, request.params.linkId),
  }));

  // Tokens are 128 random bits, but nobody gets to try many: sign-in's per-IP budget.
  const limited = {
    config: { rateLimit: { max: deps.acceptRateLimit, timeWindow: "1 minute" } },
  };
  route(
    app,
    "GET /api/invite/:token",
    async (request) => previewLink(deps, request.params.token),
    limited,
  );

  route(
    app,
    "POST /api/invite/:token/accept",
    async (request) => acceptLink(deps, request.params.token, request.auth.user),
    limited,
  );

  // Anonymous, like every call without an account, but with a budget of its own: a family's own
  // calls from the same address do not use up the shopper's, nor the shopper's theirs.
  route(
    app,
    "GET /api/look/:token",
    async (request) => (await openLook(deps, request.params)).view,
    {
      config: { rateLimit: { max: deps.lookRateLimit, timeWindow: "1 minute" } },
    },
  );
}
