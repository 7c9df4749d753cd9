import type { RequestOf } from "@cartner/contract";
import { call } from "../lib/call.ts";

const publicCall = { auth: false } as const;

/** The Auth calls of the endpoint table. Sign-in steps are public: no token is sent. */
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
};
