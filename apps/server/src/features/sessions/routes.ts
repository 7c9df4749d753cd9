import type { FastifyPluginAsync } from "fastify";
import { route } from "../../lib/endpoint.ts";
import type { ReadCache } from "../../lib/read-cache.ts";
import type { SessionService } from "./service.ts";

/** The Sessions calls of the endpoint table. */
export const sessionRoutes =
  (service: SessionService, joinRateLimit: number, cache: ReadCache): FastifyPluginAsync =>
  async (app) => {
    route(app, "POST /api/sessions", async (request, reply) => {
      const session = await service.create(request.auth.user, request.body);
      return reply.code(201).send({ message: "Session created", session });
    });

    route(app, "GET /api/sessions/my", async (request) =>
      cache.read(request, async () => ({
        sessions: await service.list(request.auth.user._id),
      })),
    );

    route(app, "GET /api/sessions/mysessions/actives", async (request) =>
      cache.read(request, async () => ({
        sessions: await service.list(request.auth.user._id, "active"),
      })),
    );

    route(app, "GET /api/sessions/sync", async (request) =>
      cache.read(request, async () => {
        const sessions = await service.list(request.auth.user._id, "active");
        return { sessions, version: sessions.reduce((sum, s) => sum + s.version, 0) };
      }),
    );

    route(app, "GET /api/sessions/myinvites", async (request) =>
      cache.read(request, async () => ({
        invites: await service.myInvites(request.auth.user),
      })),
    );

    route(app, "GET /api/sessions/:id", async (request) =>
      cache.read(request, async () => ({
        session: await service.get(request.params.id, request.auth.user._id),
      })),
    );

    route(app, "PATCH /api/sessions/:id", async (request) => ({
      session: await service.update(request.params.id, request.auth.user._id, request.body),
    }));

    route(app, "DELETE /api/sessions/:id/leave", async (request) =>
      service.leave(request.params.id, request.auth.user._id),
    );

    route(app, "PUT /api/sessions/:id/end", async (request) =>
      service.end(request.params.id, request.auth.user._id),
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
