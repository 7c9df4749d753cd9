import type { FastifyInstance, FastifyRequest } from "fastify";
import { route } from "../../lib/endpoint.ts";
import { unauthorized } from "../../lib/errors.ts";
import { resend } from "./codes.ts";
import { updateCredentials } from "./credentials.ts";
import type { AuthDeps } from "./deps.ts";
import { devices, revokeDevice } from "./devices.ts";
import { forgotPassword, resetPassword } from "./reset.ts";
import { login, logout, refresh, register, verifyOtp } from "./sign-in.ts";

/** The last Authorization header read and its token: both hooks of a request read the same. */
let lastHeader: string | undefined;
let lastToken: string | undefined;

/** The token of an `Authorization: Bearer <token>` header, or undefined. */
export function bearerOf(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (header !== lastHeader) {
    lastToken = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
    lastHeader = header;
  }
  return lastToken;
}

export function bearerToken(header: string | undefined): string {
  const token = bearerOf(header);
  if (!token) throw unauthorized();
  return token;
}

/** The browser's own description, kept short (the devices list names browser and OS from it). */
const userAgentOf = (request: FastifyRequest) =>
  String(request.headers["user-agent"] ?? "").slice(0, 512);

/** The Auth calls of the endpoint table. */
export async function authRoutes(
  app: FastifyInstance,
  auth: AuthDeps & { authRateLimit: number },
): Promise<void> {
  // The sign-in endpoints get a tighter per-IP budget than the rest of the API.
  const limited = { config: { rateLimit: { max: auth.authRateLimit, timeWindow: "1 minute" } } };

  route(
    app,
    "POST /api/auth/register",
    async (request, reply) => reply.code(201).send(await register(auth, request.body)),
    limited,
  );

  route(app, "POST /api/auth/login", async (request) => login(auth, request.body), limited);

  route(
    app,
    "POST /api/auth/verify-otp",
    async (request) =>
      verifyOtp(
        auth,
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
      forgotPassword(auth, request.body.email, (error) =>
        request.log.warn({ err: error }, "password reset code not sent"),
      ),
    limited,
  );

  route(
    app,
    "POST /api/auth/reset-password",
    async (request) => resetPassword(auth, request.body, request.ip),
    limited,
  );

  route(app, "GET /api/auth/sessions", async (request) => ({
    sessions: await devices(auth, request.auth),
  }));

  route(app, "DELETE /api/auth/sessions/:id", async (request, reply) => {
    await revokeDevice(auth, request.auth, request.params.id);
    return reply.code(204).send(null);
  });

  route(
    app,
    "POST /api/auth/resend-otp",
    async (request) => resend(auth, request.body.userId),
    limited,
  );

  route(app, "POST /api/auth/refresh-token", async (request) =>
    refresh(auth, bearerToken(request.headers.authorization)),
  );

  route(app, "GET /api/auth/validate-token", async (request) => ({
    valid: true as const,
    user: request.auth.user,
  }));

  route(
    app,
    "PATCH /api/auth/update-credentials",
    async (request) => updateCredentials(auth, request.auth.user._id, request.body),
    limited,
  );

  route(app, "POST /api/auth/logout", async (request, reply) => {
    await logout(auth, request.auth);
    return reply.code(204).send(null);
  });
}
