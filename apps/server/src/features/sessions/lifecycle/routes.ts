import type { FastifyPluginAsync } from "fastify";
import { route } from "../../../lib/endpoint.ts";
import type { ReadCache } from "../../../lib/read-cache.ts";
import type { SessionService } from "./sessions.ts";

/** The Sessions calls of the endpoint table. */
export const sessionRoutes =
  (service: SessionService, cache: ReadCache): FastifyPluginAsync =>
  async (app) => {
    route(app, "POST /api/sessions", async (request, reply) => {
      const session = await service.create(request.auth.user, request.body);
      return reply.code(201).send({ message: "Session created", session });
    });

    route(app, "GET /api/sessions/my", async (request, reply) =>
      cache.read(request, reply, async () => ({
        sessions: await service.list(request.auth.user._id),
      })),
    );

    route(app, "GET /api/sessions/mysessions/actives", async (request, reply) =>
      cache.read(request, reply, async () => ({
        sessions: await service.list(request.auth.user._id, "active"),
      })),
    );

    route(app, "GET /api/sessions/sync", async (request, reply) =>
      cache.read(request, reply, async () => {
        const sessions = await service.list(request.auth.user._id, "active");
        return { sessions, version: sessions.reduce((sum, s) => sum + s.version, 0) };
      }),
    );

    route(app, "GET /api/sessions/:id", async (request, reply) =>
      cache.read(request, reply, async () => ({
        session: await service.get(request.params.id, request.auth.user._id),
      })),
    );

    route(app, "GET /api/sessions/:id/activity", async (request) =>
      service.activityOf(
        request.params.id,
        request.auth.user._id,
        request.query.after,
        request.query.limit,
      ),
    );

    route(app, "PATCH /api/sessions/:id", async (request) => ({
      session: await service.update(request.params.id, request.auth.user._id, request.body),
    }));

    route(app, "DELETE /api/sessions/:id/leave", async (request) =>
      service.leave(request.params.id, request.auth.user._id, request.query),
    );

    route(app, "PUT /api/sessions/:id/end", async (request) =>
      service.end(request.params.id, request.auth.user._id),
    );
  };
