import type { RequestOf } from "@cartner/contract";
import { call } from "../lib/call.ts";

const publicCall = { auth: false } as const;

/**
 * The Auth calls of the endpoint table, without TanStack Query: the sign-in page, the session
 * checks and the logout are part of the first load. Sign-in steps are public: no token is sent.
 */
export const authApi = {
  register: (body: RequestOf<"POST /api/auth/register">["body"]) =>
    call("POST /api/auth/register", { body }, publicCall),
  login: (body: RequestOf<"POST /api/auth/login">["body"]) =>
    call("POST /api/auth/login", { body }, publicCall),
  verifyOtp: (body: RequestOf<"POST /api/auth/verify-otp">["body"]) =>
    call("POST /api/auth/verify-otp", { body }, publicCall),
  resendOtp: (body: RequestOf<"POST /api/auth/resend-otp">["body"]) =>
    call("POST /api/auth/resend-otp", { body }, publicCall),
  validateToken: (signal?: AbortSignal) =>
    call("GET /api/auth/validate-token", {}, signal ? { signal } : undefined),
  logout: () => call("POST /api/auth/logout", {}, { retryOnExpiredToken: false }),
  forgotPassword: (email: string) =>
    call("POST /api/auth/forgot-password", { body: { email } }, publicCall),
  resetPassword: (body: RequestOf<"POST /api/auth/reset-password">["body"]) =>
    call("POST /api/auth/reset-password", { body }, publicCall),
  devices: (signal?: AbortSignal) => call("GET /api/auth/sessions", {}, { signal }),
  signOutDevice: (id: string) => call("DELETE /api/auth/sessions/:id", { params: { id } }),
  /** Whether mails go to the development outbox (the code page then points to it). */
  health: (signal?: AbortSignal) => call("GET /api/conhealth", {}, { signal, auth: false }),
};
