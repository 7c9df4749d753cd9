import type { FastifyPluginAsync, FastifyRequest } from "fastify";
import { route } from "../../lib/endpoint.ts";
import { unauthorized } from "../../lib/errors.ts";
import type { AuthService } from "./service.ts";

export function bearerToken(header: string | undefined): string {
  const match = header?.match(/^Bearer\s+(\S+)$/i);
  if (!match?.[1]) throw unauthorized();
  return match[1];
}

/** The browser's own description, kept short (the devices list names browser and OS from it). */
const userAgentOf = (request: FastifyRequest) =>
  String(request.headers["user-agent"] ?? "").slice(0, 512);

/** The Auth calls of the endpoint table. */
export const authRoutes =
  (auth: AuthService, authRateLimit: number): FastifyPluginAsync =>
  async (app) => {
    // The sign-in endpoints get a tighter per-IP budget than the rest of the API.
    const limited = { config: { rateLimit: { max: authRateLimit, timeWindow: "1 minute" } } };

    route(
      app,
      "POST /api/auth/register",
      async (request, reply) => reply.code(201).send(await auth.register(request.body)),
      limited,
    );

    route(app, "POST /api/auth/login", async (request) => auth.login(request.body), limited);

    route(
      app,
      "POST /api/auth/verify-otp",
      async (request) =>
        auth.verifyOtp(
          request.body.userId,
          request.body.code,
          request.ip,
          userAgentOf(request),
          request.body.timeZone,
        ),
      limited,
    );

    route(
      app,
      "POST /api/auth/forgot-password",
      async (request) =>
        auth.forgotPassword(request.body.email, (error) =>
          request.log.warn({ err: error }, "password reset code not sent"),
        ),
      limited,
    );

    route(
      app,
      "POST /api/auth/reset-password",
      async (request) => auth.resetPassword(request.body, request.ip),
      limited,
    );

    route(app, "GET /api/auth/sessions", async (request) => ({
      sessions: await auth.devices(request.auth),
    }));

    route(app, "DELETE /api/auth/sessions/:id", async (request, reply) => {
      await auth.revokeDevice(request.auth, request.params.id);
      return reply.code(204).send(null);
    });

    route(
      app,
      "POST /api/auth/resend-otp",
      async (request) => auth.resend(request.body.userId),
      limited,
    );

    route(app, "POST /api/auth/refresh-token", async (request) =>
      auth.refresh(bearerToken(request.headers.authorization)),
    );

    route(app, "GET /api/auth/validate-token", async (request) => ({
      valid: true as const,
      user: request.auth.user,
    }));

    route(
      app,
      "PATCH /api/auth/update-credentials",
      async (request) => auth.updateCredentials(request.auth.user._id, request.body),
      limited,
    );

    route(app, "POST /api/auth/logout", async (request, reply) => {
      await auth.logout(request.auth);
      return reply.code(204).send(null);
    });
  };
