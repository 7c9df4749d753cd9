import type {
  AuthStartResponse,
  LoginBody,
  RegisterBody,
  ValidateTokenResponse,
  VerifyOtpResponse,
} from "@cartner/contract";
import { api } from "../../lib/api.ts";

/** The Auth calls of API.md. Sign-in steps are public: no token is sent. */
export const authApi = {
  register: (body: RegisterBody) =>
    api.post<AuthStartResponse>("/api/auth/register", body, { auth: false }),
  login: (body: LoginBody) => api.post<AuthStartResponse>("/api/auth/login", body, { auth: false }),
  verifyOtp: (body: { userId: string; code: string }) =>
    api.post<VerifyOtpResponse>("/api/auth/verify-otp", body, { auth: false }),
  resendOtp: (body: { userId: string }) =>
    api.post<{ message: string }>("/api/auth/resend-otp", body, { auth: false }),
  validateToken: (signal?: AbortSignal) =>
    api.get<ValidateTokenResponse>("/api/auth/validate-token", signal ? { signal } : undefined),
  logout: () => api.post<void>("/api/auth/logout", undefined, { retryOnExpiredToken: false }),
};
