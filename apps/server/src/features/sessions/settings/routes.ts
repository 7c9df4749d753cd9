import type { FastifyInstance } from "fastify";
import { route } from "../../../lib/endpoint.ts";
import type { SessionDeps } from "../deps.ts";
import { setApprovers, setPolicy, setReady, updateMember } from "./member-settings.ts";

/** Split policy, approvers, members' budgets, modes and roles, ready marks (the split calls of the endpoint table). */
export async function memberSettingsRoutes(app: FastifyInstance, deps: SessionDeps): Promise<void> {
  route(app, "PUT /api/sessions/:id/split-policy", async (request) => ({
    session: await setPolicy(deps, request.params.id, request.auth.user._id, request.body),
  }));

  route(app, "PUT /api/sessions/:id/approvers", async (request) => ({
    session: await setApprovers(
      deps,
      request.params.id,
      request.auth.user._id,
      request.body.userIds,
    ),
  }));

  route(app, "PATCH /api/sessions/:id/members/:userId", async (request) => ({
    session: await updateMember(
      deps,
      request.params.id,
      request.auth.user._id,
      request.params.userId,
      request.body,
    ),
  }));

  route(app, "PUT /api/sessions/:id/ready", async (request) => ({
    session: await setReady(deps, request.params.id, request.auth.user._id, request.body.ready),
  }));
}
