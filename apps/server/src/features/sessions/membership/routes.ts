import type { FastifyInstance } from "fastify";
import { route } from "../../../lib/endpoint.ts";
import type { ReadCache } from "../../../lib/read-cache.ts";
import type { SessionDeps } from "../deps.ts";
import { myInvites, respondToInvite, sendInvite } from "../invites/invites.ts";
import { decide, joinByCode, joinRequests, myJoinRequests } from "./join-requests.ts";

/** Joining, join requests and invites (the membership calls of the endpoint table). */
export async function membershipRoutes(
  app: FastifyInstance,
  deps: SessionDeps & { joinRateLimit: number; cache: ReadCache },
): Promise<void> {
  const { cache } = deps;

  route(app, "GET /api/sessions/myinvites", async (request, reply) =>
    cache.read(request, reply, async () => ({
      invites: await myInvites(deps, request.auth.user),
    })),
  );

  route(app, "GET /api/sessions/join-requests/mine", async (request, reply) =>
    cache.read(request, reply, async () => ({
      requests: await myJoinRequests(deps, request.auth.user._id),
    })),
  );

  route(
    app,
    "POST /api/sessions/join/code",
    async (request, reply) =>
      reply
        .code(202)
        .send(
          await joinByCode(
            deps,
            request.auth.user._id,
            request.ip,
            request.body.sessionCode,
            request.body.passcode,
          ),
        ),
    // Per IP, like sign-in; guessing is also limited per user and per session in joinByCode().
    { config: { rateLimit: { max: deps.joinRateLimit, timeWindow: "1 minute" } } },
  );

  route(app, "POST /api/sessions/joinrequests", async (request) => ({
    requests: await joinRequests(deps, request.auth.user._id, request.body.sessionCode),
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
      return decide(deps, request.auth.user._id, request.params.code, target, approve);
    });
  }

  route(app, "POST /api/sessions/invite", async (request, reply) =>
    reply
      .code(201)
      .send(
        await sendInvite(
          deps,
          request.auth.user,
          request.body.sessionCode,
          request.body.emailOrUsername,
          request.body.role,
        ),
      ),
  );

  route(app, "POST /api/sessions/accinvite", async (request) => {
    const result = await respondToInvite(deps, request.auth.user, request.body.sessionCode, true);
    return result as { message: string; sessionId: string };
  });

  route(app, "POST /api/sessions/rejinvite", async (request) => {
    const { message } = await respondToInvite(
      deps,
      request.auth.user,
      request.body.sessionCode,
      false,
    );
    return { message };
  });
}
