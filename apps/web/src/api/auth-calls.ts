import type { RequestOf } from "@cartner/contract";
import { call } from "../lib/call.ts";

/*
 * The Auth calls of the endpoint table, without TanStack Query: the sign-in page, the session
 * checks and the logout are part of the first load. Sign-in steps are public: no token is sent.
 */

const publicCall = { auth: false } as const;

export function register(body: RequestOf<"POST /api/auth/register">["body"]) {
  return call("POST /api/auth/register", { body }, publicCall);
}

export function login(body: RequestOf<"POST /api/auth/login">["body"]) {
  return call("POST /api/auth/login", { body }, publicCall);
}

export function verifyOtp(body: RequestOf<"POST /api/auth/verify-otp">["body"]) {
  return call("POST /api/auth/verify-otp", { body }, publicCall);
}

export function resendOtp(body: RequestOf<"POST /api/auth/resend-otp">["body"]) {
  return call("POST /api/auth/resend-otp", { body }, publicCall);
}

export function validateToken(signal?: AbortSignal) {
  return call("GET /api/auth/validate-token", {}, signal ? { signal } : undefined);
}

export function logout() {
  return call("POST /api/auth/logout", {}, { retryOnExpiredToken: false });
}

export function forgotPassword(email: string) {
  return call("POST /api/auth/forgot-password", { body: { email } }, publicCall);
}

export function resetPassword(body: RequestOf<"POST /api/auth/reset-password">["body"]) {
  return call("POST /api/auth/reset-password", { body }, publicCall);
}

/** My signed-in devices (the server's auth sessions). */
export function fetchDevices(signal?: AbortSignal) {
  return call("GET /api/auth/sessions", {}, { signal });
}

export function signOutDevice(id: string) {
  return call("DELETE /api/auth/sessions/:id", { params: { id } });
}

/** Whether mails go to the development outbox (the code page then points to it). */
export function fetchHealth(signal?: AbortSignal) {
  return call("GET /api/conhealth", {}, { signal, auth: false });
}
