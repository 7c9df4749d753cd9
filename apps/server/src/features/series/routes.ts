import type { FastifyInstance } from "fastify";
import { route } from "../../lib/endpoint.ts";
import type { SeriesDeps } from "./deps.ts";
import { setSeries } from "./service.ts";

/** The series call of the endpoint table. */
export async function seriesRoutes(app: FastifyInstance, deps: SeriesDeps): Promise<void> {
  route(app, "PUT /api/sessions/:id/series", async (request) => ({
    session: await setSeries(deps, request.params.id, request.auth.user._id, request.body),
  }));
}
