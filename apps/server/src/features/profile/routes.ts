import multipart from "@fastify/multipart";
import { AVATAR_MAX_BYTES, ErrorCode, ProfileFieldsSchema } from "@cartner/contract";
import type { FastifyInstance } from "fastify";
import { route } from "../../lib/endpoint.ts";
import { CROSS_ORIGIN_RESOURCE } from "../../lib/media.ts";
import { AppError, echoName, invalidFields, issueField } from "../../lib/errors.ts";
import { reencodeAvatar } from "./avatar.ts";
import { deleteAccount } from "./account.ts";
import type { ProfileDeps } from "./deps.ts";
import { exportAccount } from "./export.ts";
import { avatarOf, getProfile, publicUser, setTimeZone, updateProfile } from "./service.ts";

/** The reader's profile, avatar, time zone, and their account's export and deletion. */
export async function profileRoutes(app: FastifyInstance, deps: ProfileDeps): Promise<void> {
  route(app, "GET /api/users/me/export", async (request, reply) => {
    const data = await exportAccount(deps, request.auth.user);
    return reply
      .header("content-disposition", 'attachment; filename="cartner-my-data.json"')
      .send(data);
  });

  route(app, "DELETE /api/users/me", async (request, reply) => {
    await deleteAccount(deps, request.auth.user, request.body);
    return reply.code(204).send(null);
  });

  route(app, "PUT /api/users/me/time-zone", async (request) =>
    setTimeZone(deps, request.auth.user._id, request.body.timeZone),
  );

  await app.register(multipart, {
    limits: { fileSize: AVATAR_MAX_BYTES, files: 1, fields: 10, fieldSize: 16 * 1024, parts: 11 },
  });

  route(app, "GET /api/profile/me", async (request) => getProfile(deps, request.auth.user._id));

  route(
    app,
    "POST /api/profile/me",
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
                `Unexpected file field ${echoName(part.fieldname)}`,
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
        throw invalidFields(
          Object.fromEntries(
            parsed.error.issues.map((i) =>
              issueField(
                i.path.join("."),
                i.message,
                i.code === "unrecognized_keys" ? i.keys : undefined,
              ),
            ),
          ),
        );
      }
      const avatarWebp = avatar ? await reencodeAvatar(avatar) : undefined;
      return updateProfile(deps, request.auth.user._id, { ...parsed.data, avatarWebp });
    },
    {
      // @fastify/multipart traces the options it gives its parser, the request headers (and
      // so the bearer token) included: keep only the limits.
      logSerializers: {
        busboyOptions: (options: { limits?: unknown }) => ({ limits: options.limits }),
      },
    },
  );

  route(app, "GET /api/users/:userId", async (request) =>
    publicUser(deps, request.auth.user._id, request.params.userId),
  );

  route(app, "GET /api/users/:userId/avatar", async (request, reply) => {
    const webp = await avatarOf(deps, request.params.userId);
    reply.header(...CROSS_ORIGIN_RESOURCE);
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
  });
}
