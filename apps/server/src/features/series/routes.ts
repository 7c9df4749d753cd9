import type { FastifyPluginAsync } from "fastify";
import { route } from "../../lib/endpoint.ts";
import type { SeriesService } from "./service.ts";

/** The series call of the endpoint table. */
export const seriesRoutes =
  (series: SeriesService): FastifyPluginAsync =>
  async (app) => {
    route(app, "PUT /api/sessions/:id/series", async (request) => ({
      session: await series.setSeries(request.params.id, request.auth.user._id, request.body),
    }));
  };
