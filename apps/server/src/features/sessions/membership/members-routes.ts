import type { FastifyInstance } from "fastify";
import { route } from "../../../lib/endpoint.ts";
import type { SessionDeps } from "../deps.ts";
import { removeMember, rotateCode, transferSession } from "./members.ts";

/** Removing and handing over members, a new code (the creator's calls on the member list). */
export async function memberRoutes(app: FastifyInstance, deps: SessionDeps): Promise<void> {
  route(app, "DELETE /api/sessions/:id/members/:userId", async (request) => ({
    session: await removeMember(
      deps,
      request.params.id,
      request.auth.user._id,
      request.params.userId,
      request.query,
    ),
  }));

  route(app, "POST /api/sessions/:id/transfer", async (request) => ({
    session: await transferSession(
      deps,
      request.params.id,
      request.auth.user._id,
      request.body.userId,
    ),
  }));

  route(app, "POST /api/sessions/:id/rotate-code", async (request) => ({
    session: await rotateCode(deps, request.params.id, request.auth.user._id),
  }));
}
