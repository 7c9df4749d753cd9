import { createAvatar } from "@dicebear/core";
import { notionists } from "@dicebear/collection";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { route } from "../../lib/endpoint.ts";
import { CROSS_ORIGIN_RESOURCE } from "../../lib/media.ts";

/** Generated avatars (DiceBear "notionists", CC0), drawn locally: no external service. */
export async function avatarRoutes(app: FastifyInstance): Promise<void> {
  route(
    app,
    "GET /api/avatars/:file",
    async (request, reply) => {
      const svg = createAvatar(notionists, {
        seed: request.params.file,
        backgroundColor: ["e0e7ff", "ffedd5", "dcfce7", "fce7f3", "e0f2fe"],
      }).toString();
      return reply
        .header(...CROSS_ORIGIN_RESOURCE)
        .type("image/svg+xml")
        .header("cache-control", "public, max-age=31536000, immutable")
        .send(svg);
    },
    {
      // The seed is often someone's email: the request log names the route, not the seed.
      logSerializers: {
        req: (req: FastifyRequest) => ({
          method: req.method,
          url: req.routeOptions.url,
          host: req.host,
          remoteAddress: req.ip,
        }),
      },
    },
  );
}
