import type { FastifyPluginAsync } from "fastify";
import { route } from "../../../lib/endpoint.ts";
import type { MemberService } from "./members.ts";

/** Removing and handing over members, a new code (the creator's calls on the member list). */
export const memberRoutes =
  (members: MemberService): FastifyPluginAsync =>
  async (app) => {
    route(app, "DELETE /api/sessions/:id/members/:userId", async (request) => ({
      session: await members.removeMember(
        request.params.id,
        request.auth.user._id,
        request.params.userId,
        request.query,
      ),
    }));

    route(app, "POST /api/sessions/:id/transfer", async (request) => ({
      session: await members.transfer(
        request.params.id,
        request.auth.user._id,
        request.body.userId,
      ),
    }));

    route(app, "POST /api/sessions/:id/rotate-code", async (request) => ({
      session: await members.rotateCode(request.params.id, request.auth.user._id),
    }));
  };
