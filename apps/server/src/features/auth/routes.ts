import {
  ApiErrorSchema,
  AuthStartResponseSchema,
  LoginBodySchema,
  MessageResponseSchema,
  RegisterBodySchema,
  ResendOtpBodySchema,
  TokenResponseSchema,
  UpdateCredentialsBodySchema,
  ValidateTokenResponseSchema,
  VerifyOtpBodySchema,
  VerifyOtpResponseSchema,
} from "@cartner/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { unauthorized } from "../../lib/errors.ts";
import type { AuthService } from "./service.ts";

const errors = { 400: ApiErrorSchema, 401: ApiErrorSchema, 429: ApiErrorSchema };

export function bearerToken(header: string | undefined): string {
  const match = header?.match(/^Bearer\s+(\S+)$/i);
  if (!match?.[1]) throw unauthorized();
  return match[1];
}

export const authRoutes =
  (auth: AuthService, authRateLimit: number): FastifyPluginAsyncZod =>
  async (app) => {
    // The sign-in endpoints get a tighter per-IP budget than the rest of the API.
    const limited = { rateLimit: { max: authRateLimit, timeWindow: "1 minute" } };

    app.post(
      "/register",
      {
        config: limited,
        schema: {
          tags: ["auth"],
          summary: "Create an account and mail a registration code",
          body: RegisterBodySchema,
          response: { 201: AuthStartResponseSchema, 409: ApiErrorSchema, ...errors },
        },
      },
      async (request, reply) => reply.code(201).send(await auth.register(request.body)),
    );

    app.post(
      "/login",
      {
        config: limited,
        schema: {
          tags: ["auth"],
          summary: "Check email and password and mail a sign-in code",
          body: LoginBodySchema,
          response: { 200: AuthStartResponseSchema, ...errors },
        },
      },
      async (request) => auth.login(request.body),
    );

    app.post(
      "/verify-otp",
      {
        config: limited,
        schema: {
          tags: ["auth"],
          summary: "Verify a code; returns a token and the code's purpose",
          body: VerifyOtpBodySchema,
          response: { 200: VerifyOtpResponseSchema, ...errors },
        },
      },
      async (request) => auth.verifyOtp(request.body.userId, request.body.code),
    );

    app.post(
      "/resend-otp",
      {
        config: limited,
        schema: {
          tags: ["auth"],
          summary: "Send a new code (at most one a minute)",
          body: ResendOtpBodySchema,
          response: { 200: MessageResponseSchema, ...errors },
        },
      },
      async (request) => auth.resend(request.body.userId),
    );

    app.post(
      "/refresh-token",
      {
        schema: {
          tags: ["auth"],
          summary: "Renew the token of a live auth session (also after its 15 minutes)",
          security: [{ bearer: [] }],
          response: { 200: TokenResponseSchema, 401: ApiErrorSchema },
        },
      },
      async (request) => auth.refresh(bearerToken(request.headers.authorization)),
    );

    app.get(
      "/validate-token",
      {
        onRequest: app.authenticate,
        schema: {
          tags: ["auth"],
          summary: "Check the token; 401 when it is dead",
          security: [{ bearer: [] }],
          response: { 200: ValidateTokenResponseSchema, 401: ApiErrorSchema },
        },
      },
      async (request) => ({ valid: true as const, user: request.auth.user }),
    );

    app.patch(
      "/update-credentials",
      {
        onRequest: app.authenticate,
        config: limited,
        schema: {
          tags: ["auth"],
          summary:
            "Start an email and/or password change; it applies after verify-otp (purpose update)",
          security: [{ bearer: [] }],
          body: UpdateCredentialsBodySchema,
          response: {
            200: z.object({ message: z.string(), userId: z.string() }),
            403: ApiErrorSchema,
            409: ApiErrorSchema,
            ...errors,
          },
        },
      },
      async (request) => auth.updateCredentials(request.auth.user._id, request.body),
    );

    app.post(
      "/logout",
      {
        onRequest: app.authenticate,
        schema: {
          tags: ["auth"],
          summary: "Revoke this auth session",
          security: [{ bearer: [] }],
          response: { 204: z.null().describe("Signed out"), 401: ApiErrorSchema },
        },
      },
      async (request, reply) => {
        await auth.logout(request.auth.sid);
        return reply.code(204).send(null);
      },
    );
  };
