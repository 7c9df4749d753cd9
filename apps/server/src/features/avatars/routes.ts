import { createAvatar } from "@dicebear/core";
import { notionists } from "@dicebear/collection";
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

/**
 * A user's picture. Uploads arrive with the profile feature; until a user has one, this redirects
 * to the avatar generated from their id, so clients can always use this URL.
 */
export const userAvatarRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/users/:userId/avatar",
    {
      schema: {
        tags: ["avatars"],
        summary: "A user's avatar (redirects to the generated one when none was uploaded)",
        params: z.strictObject({ userId: z.uuid() }),
        response: {
          302: z.null().describe("Redirect to the generated avatar"),
          400: ApiErrorSchema,
        },
      },
    },
    async (request, reply) =>
      reply
        .header("cache-control", "public, max-age=300")
        .redirect(`/api/avatars/${request.params.userId}.svg`, 302),
  );
};
