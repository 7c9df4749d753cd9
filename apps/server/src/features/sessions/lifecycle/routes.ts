import type { FastifyInstance } from "fastify";
import { sendJson } from "../../../lib/encoded-body.ts";
import { route } from "../../../lib/endpoint.ts";
import type { ReadCache } from "../../../lib/read-cache.ts";
import type { SessionDeps } from "../deps.ts";
import {
  activityOf,
  createSession,
  endSession,
  getSession,
  leaveSession,
  listSessions,
  mySessions,
  updateSession,
} from "./sessions.ts";

/** The Sessions calls of the endpoint table. */
export async function sessionRoutes(
  app: FastifyInstance,
  deps: SessionDeps & { cache: ReadCache },
): Promise<void> {
  const { cache } = deps;

  route(app, "POST /api/sessions", async (request, reply) => {
    const session = await createSession(deps, request.auth.user, request.body);
    return reply.code(201).send({ message: "Session created", session });
  });

  route(app, "GET /api/sessions/my", async (request, reply) =>
    cache.read(request, reply, async () => mySessions(deps, request.auth.user._id, request.query)),
  );

  route(app, "GET /api/sessions/mysessions/actives", async (request, reply) =>
    cache.read(request, reply, async () => ({
      sessions: await listSessions(deps, request.auth.user._id, "active"),
    })),
  );

  route(app, "GET /api/sessions/sync", async (request, reply) =>
    cache.read(request, reply, async () => {
      const sessions = await listSessions(deps, request.auth.user._id, "active");
      return { sessions, version: sessions.reduce((sum, s) => sum + s.version, 0) };
    }),
  );

  route(app, "GET /api/sessions/:id", async (request, reply) =>
    cache.read(request, reply, async () => ({
      session: await getSession(deps, request.params.id, request.auth.user._id),
    })),
  );

  // Kept per reader and query, checked against the contract when made (activity.ts).
  route(app, "GET /api/sessions/:id/activity", async (request, reply) =>
    sendJson(
      request,
      reply,
      await activityOf(
        deps,
        request.params.id,
        request.auth.user._id,
        request.query.after,
        request.query.limit,
      ),
    ),
  );

  route(app, "PATCH /api/sessions/:id", async (request) => ({
    session: await updateSession(deps, request.params.id, request.auth.user._id, request.body),
  }));

  route(app, "DELETE /api/sessions/:id/leave", async (request) =>
    leaveSession(deps, request.params.id, request.auth.user._id, request.query),
  );

  route(app, "PUT /api/sessions/:id/end", async (request) =>
    endSession(deps, request.params.id, request.auth.user._id),
  );
}
