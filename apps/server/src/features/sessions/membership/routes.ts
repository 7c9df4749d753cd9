import type { FastifyPluginAsync } from "fastify";
import { route } from "../../../lib/endpoint.ts";
import type { ReadCache } from "../../../lib/read-cache.ts";
import type { MembershipService } from "./membership.ts";

/** Joining, join requests and invites (the membership calls of the endpoint table). */
export const membershipRoutes =
  (service: MembershipService, joinRateLimit: number, cache: ReadCache): FastifyPluginAsync =>
  async (app) => {
    route(app, "GET /api/sessions/myinvites", async (request, reply) =>
      cache.read(request, reply, async () => ({
        invites: await service.myInvites(request.auth.user),
      })),
    );

    route(app, "GET /api/sessions/join-requests/mine", async (request, reply) =>
      cache.read(request, reply, async () => ({
        requests: await service.myJoinRequests(request.auth.user._id),
      })),
    );

    route(
      app,
      "POST /api/sessions/join/code",
      async (request, reply) =>
        reply
          .code(202)
          .send(
            await service.joinByCode(
              request.auth.user._id,
              request.ip,
              request.body.sessionCode,
              request.body.passcode,
            ),
          ),
      // Per IP, like sign-in; guessing is also limited per user and per session in the service.
      { config: { rateLimit: { max: joinRateLimit, timeWindow: "1 minute" } } },
    );

    route(app, "POST /api/sessions/joinrequests", async (request) => ({
      requests: await service.joinRequests(request.auth.user._id, request.body.sessionCode),
    }));

    for (const [key, approve] of [
      ["POST /api/sessions/approve/:code", true],
      ["POST /api/sessions/reject/:code", false],
    ] as const) {
      route(app, key, async (request) => {
        const body = request.body;
        const target =
          "email" in body
            ? { email: body.email }
            : typeof body.userId === "string"
              ? { userId: body.userId }
              : { email: body.userId.email };
        return service.decide(request.auth.user._id, request.params.code, target, approve);
      });
    }

    route(app, "POST /api/sessions/invite", async (request, reply) =>
      reply
        .code(201)
        .send(
          await service.invite(
            request.auth.user,
            request.body.sessionCode,
            request.body.emailOrUsername,
            request.body.role,
          ),
        ),
    );

    route(app, "POST /api/sessions/accinvite", async (request) => {
      const result = await service.respond(request.auth.user, request.body.sessionCode, true);
      return result as { message: string; sessionId: string };
    });

    route(app, "POST /api/sessions/rejinvite", async (request) => {
      const { message } = await service.respond(request.auth.user, request.body.sessionCode, false);
      return { message };
    });
  };
