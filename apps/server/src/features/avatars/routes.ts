import { createAvatar } from "@dicebear/core";
import { notionists } from "@dicebear/collection";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { ApiErrorSchema } from "@cartner/contract";

const AvatarParamsSchema = z.strictObject({
  file: z
    .string()
    .regex(/^.{1,200}\.svg$/s, "Ask for {seed}.svg")
    .transform((file) => file.slice(0, -".svg".length)),
});

/** Generated avatars (DiceBear "notionists", CC0), drawn locally: no external service. */
export const avatarRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/avatars/:file",
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
      schema: {
        tags: ["avatars"],
        summary: "A generated avatar for any seed (email, name, session code), as SVG",
        params: AvatarParamsSchema,
        response: { 200: z.string().describe("image/svg+xml"), 400: ApiErrorSchema },
      },
    },
    async (request, reply) => {
      const svg = createAvatar(notionists, {
        seed: request.params.file,
        backgroundColor: ["e0e7ff", "ffedd5", "dcfce7", "fce7f3", "e0f2fe"],
      }).toString();
      return reply
        .type("image/svg+xml")
        .header("cache-control", "public, max-age=31536000, immutable")
        .send(svg);
    },
  );
};
