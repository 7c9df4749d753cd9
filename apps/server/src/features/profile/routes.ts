import multipart from "@fastify/multipart";
import {
  AVATAR_MAX_BYTES,
  ApiErrorSchema,
  ErrorCode,
  ProfileFieldsSchema,
  ProfileSchema,
  PublicUserSchema,
} from "@cartner/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { AppError } from "../../lib/errors.ts";
import { reencodeAvatar } from "./avatar.ts";
import type { ProfileService } from "./service.ts";

const errors = {
  400: ApiErrorSchema,
  401: ApiErrorSchema,
  413: ApiErrorSchema,
  415: ApiErrorSchema,
};

export const profileRoutes =
  (profiles: ProfileService): FastifyPluginAsyncZod =>
  async (app) => {
    await app.register(multipart, {
      limits: { fileSize: AVATAR_MAX_BYTES, files: 1, fields: 10, fieldSize: 16 * 1024, parts: 11 },
    });

    app.get(
      "/profile/me",
      {
        onRequest: app.authenticate,
        schema: {
          tags: ["profile"],
          summary: "My profile (created empty on first read), with my sessions and carts",
          security: [{ bearer: [] }],
          response: { 200: ProfileSchema, 401: ApiErrorSchema },
        },
      },
      async (request) => profiles.get(request.auth.user._id),
    );

    app.post(
      "/profile/me",
      {
        onRequest: app.authenticate,
        // @fastify/multipart traces the options it gives its parser, the request headers (and
        // so the bearer token) included: keep only the limits.
        logSerializers: {
          busboyOptions: (options: { limits?: unknown }) => ({ limits: options.limits }),
        },
        schema: {
          tags: ["profile"],
          summary:
            "Update my profile: multipart/form-data with name?, bio?, location?, languages? (JSON list), occupation?, phoneNumber?, avatar? (PNG, JPEG, WebP or GIF, at most 5 MB and 4096 x 4096 px)",
          security: [{ bearer: [] }],
          consumes: ["multipart/form-data"],
          response: { 200: ProfileSchema, ...errors },
        },
      },
      async (request) => {
        if (!request.isMultipart()) {
          throw new AppError(
            415,
            ErrorCode.UNSUPPORTED_MEDIA_TYPE,
            "Send the profile as multipart/form-data",
          );
        }
        const fields: Record<string, string> = {};
        let avatar: Buffer | undefined;
        try {
          for await (const part of request.parts()) {
            if (part.type === "file") {
              if (part.fieldname !== "avatar") {
                throw new AppError(
                  400,
                  ErrorCode.VALIDATION,
                  `Unexpected file field ${part.fieldname}`,
                );
              }
              avatar = await part.toBuffer(); // throws 413 past the 5 MB limit
            } else {
              fields[part.fieldname] = String(part.value);
            }
          }
        } catch (error) {
          // The multipart parser's own errors (no boundary, a body cut off, a bad part header)
          // carry no status: they are the client's, not ours. Limits already say 413.
          if (error instanceof AppError || (error as { statusCode?: number }).statusCode) {
            throw error;
          }
          throw new AppError(400, ErrorCode.VALIDATION, "The form data is malformed.");
        }
        const parsed = ProfileFieldsSchema.safeParse(fields);
        if (!parsed.success) {
          const fieldErrors = Object.fromEntries(
            parsed.error.issues.map((i) => [
              i.path.join(".") || (i as { keys?: string[] }).keys?.join(",") || "body",
              i.message,
            ]),
          );
          const [first] = Object.entries(fieldErrors);
          throw new AppError(400, ErrorCode.VALIDATION, `Invalid ${first?.[0]}: ${first?.[1]}`, {
            fields: fieldErrors,
          });
        }
        const avatarWebp = avatar ? await reencodeAvatar(avatar) : undefined;
        return profiles.update(request.auth.user._id, { ...parsed.data, avatarWebp });
      },
    );

    app.get(
      "/users/:userId",
      {
        onRequest: app.authenticate,
        schema: {
          tags: ["profile"],
          summary: "A small public profile of someone who shares a session with me",
          security: [{ bearer: [] }],
          params: z.strictObject({ userId: z.uuid("User not found") }),
          response: { 200: PublicUserSchema, 401: ApiErrorSchema, 404: ApiErrorSchema },
        },
      },
      async (request) => profiles.publicUser(request.auth.user._id, request.params.userId),
    );

    app.get(
      "/users/:userId/avatar",
      {
        schema: {
          tags: ["avatars"],
          summary: "A user's uploaded avatar (WebP), else a redirect to the generated one",
          params: z.strictObject({ userId: z.uuid() }),
          querystring: z.strictObject({ v: z.string().max(20).optional() }),
          response: { 200: z.any().describe("image/webp"), 302: z.null(), 400: ApiErrorSchema },
        },
      },
      async (request, reply) => {
        const webp = await profiles.avatar(request.params.userId);
        if (!webp) {
          return reply
            .header("cache-control", "public, max-age=300")
            .redirect(`/api/avatars/${request.params.userId}.svg`, 302);
        }
        // A versioned URL (?v=) never changes content; the bare one may change on the next upload.
        return reply
          .type("image/webp")
          .header(
            "cache-control",
            request.query.v ? "public, max-age=31536000, immutable" : "public, max-age=60",
          )
          .send(webp);
      },
    );
  };
