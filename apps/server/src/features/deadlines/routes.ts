import type { FastifyInstance } from "fastify";
import { route } from "../../lib/endpoint.ts";
import type { DeadlineDeps } from "./deps.ts";
import { reopenDeadline, setDeadline } from "./service.ts";

/** The deadline calls of the endpoint table (thin). */
export async function deadlineRoutes(app: FastifyInstance, deps: DeadlineDeps): Promise<void> {
  route(app, "PUT /api/sessions/:id/deadline", async (request) => ({
    session: await setDeadline(deps, request.params.id, request.auth.user._id, request.body),
  }));

  route(app, "POST /api/sessions/:id/reopen", async (request) => ({
    session: await reopenDeadline(deps, request.params.id, request.auth.user._id, request.body),
  }));
}
