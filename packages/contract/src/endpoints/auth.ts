import { z } from "zod";
import {
  AuthStartResponseSchema,
  DevicesResponseSchema,
  ForgotPasswordBodySchema,
  ResetPasswordBodySchema,
  HealthResponseSchema,
  LoginBodySchema,
  MessageResponseSchema,
  RegisterBodySchema,
  ResendOtpBodySchema,
  TokenResponseSchema,
  ValidateTokenResponseSchema,
  VerifyOtpBodySchema,
  VerifyOtpResponseSchema,
} from "../auth.ts";
import { UpdateCredentialsBodySchema } from "../profile.ts";
import type { EndpointGroup } from "./base.ts";
import { CredentialsChangeResponseSchema } from "./envelopes.ts";

/** Auth: accounts, sign-in codes, tokens, devices, and the health check. */
export const authEndpoints = {
  "POST /api/auth/register": {
    summary: "Create an account and mail a registration code",
    access: "public",
    body: RegisterBodySchema,
    responses: { 201: AuthStartResponseSchema },
    errors: [400, 401, 409, 429],
  },
  "POST /api/auth/login": {
    summary: "Check email and password and mail a sign-in code",
    access: "public",
    body: LoginBodySchema,
    responses: { 200: AuthStartResponseSchema },
    errors: [400, 401, 429],
  },
  "POST /api/auth/verify-otp": {
    summary: "Verify a code; returns a token and the code's purpose",
    access: "public",
    body: VerifyOtpBodySchema,
    responses: { 200: VerifyOtpResponseSchema },
    errors: [400, 401, 429],
    secretAnswer: true,
  },
  "POST /api/auth/resend-otp": {
    summary: "Send a new code (at most one a minute)",
    access: "public",
    body: ResendOtpBodySchema,
    responses: { 200: MessageResponseSchema },
    errors: [400, 401, 429],
  },
  "POST /api/auth/refresh-token": {
    summary: "Renew the token of a live auth session (also after its 15 minutes)",
    access: "token",
    responses: { 200: TokenResponseSchema },
    errors: [401],
    secretAnswer: true,
  },
  "GET /api/auth/validate-token": {
    summary: "Check the token; 401 when it is dead",
    access: "user",
    responses: { 200: ValidateTokenResponseSchema },
    errors: [],
  },
  "PATCH /api/auth/update-credentials": {
    summary: "Start an email and/or password change; it applies after verify-otp (purpose update)",
    access: "user",
    body: UpdateCredentialsBodySchema,
    responses: { 200: CredentialsChangeResponseSchema },
    errors: [400, 403, 409, 429],
  },
  "POST /api/auth/forgot-password": {
    summary: "Mail a password reset code; the same answer whether or not the account exists",
    access: "public",
    body: ForgotPasswordBodySchema,
    responses: { 200: MessageResponseSchema },
    errors: [400, 429],
  },
  "POST /api/auth/reset-password": {
    summary: "Set a new password with the mailed code; signs out every device",
    access: "public",
    body: ResetPasswordBodySchema,
    responses: { 200: MessageResponseSchema },
    errors: [400, 429],
  },
  "GET /api/auth/sessions": {
    summary: "Your signed-in devices",
    access: "user",
    responses: { 200: DevicesResponseSchema },
    errors: [],
  },
  "DELETE /api/auth/sessions/:id": {
    summary: "Sign one of your devices out",
    access: "user",
    params: z.strictObject({ id: z.uuid("Device not found") }),
    responses: { 204: z.null().describe("No content") },
    errors: [400, 404],
  },
  "POST /api/auth/logout": {
    summary: "Revoke this auth session",
    access: "user",
    responses: { 204: z.null().describe("Signed out") },
    errors: [],
  },
  "GET /api/conhealth": {
    summary: "Liveness and database check (for load balancers)",
    access: "public",
    responses: { 200: HealthResponseSchema },
    errors: [503],
  },
} as const satisfies EndpointGroup;
