/**
 * The auth service: accounts, one-time codes, signed-in devices and token checks. Each concern
 * lives in its own file; this one gives them their shared dependencies and names the calls:
 *
 *   codes.ts          issuing, resending and checking one-time codes, with their limits
 *   sign-in.ts        register, login, verifyOtp (opens a device), refresh, logout
 *   session-check.ts  token checks, the memory of checked auth sessions, live-socket disconnects
 *   devices.ts        listing and signing out devices
 *   reset.ts          forgot and reset password
 *   credentials.ts    changing email or password (confirmed through verifyOtp)
 */
import type { LoginBody, RegisterBody, ResetPasswordBody } from "@cartner/contract";
import { resend } from "./codes.ts";
import { updateCredentials } from "./credentials.ts";
import type { Auth, AuthContext, AuthDeps } from "./deps.ts";
import { devices, revokeDevice } from "./devices.ts";
import { forgotPassword, resetPassword } from "./reset.ts";
import {
  authenticate,
  disconnect,
  dropCachedSessions,
  forgetSessions,
  newSessionMemory,
} from "./session-check.ts";
import { login, logout, refresh, register, verifyOtp } from "./sign-in.ts";

export type { AuthContext, AuthDeps } from "./deps.ts";

export function createAuthService(deps: AuthDeps) {
  const auth: Auth = {
    ...deps,
    sessionCacheMs: deps.sessionCacheMs ?? 0,
    cacheUsable: deps.cacheUsable ?? (() => true),
    memory: newSessionMemory(),
  };
  return {
    register: (body: RegisterBody) => register(auth, body),
    login: (body: LoginBody) => login(auth, body),
    forgotPassword: (email: string, log: (error: unknown) => void) =>
      forgotPassword(auth, email, log),
    resetPassword: (body: ResetPasswordBody, address: string) => resetPassword(auth, body, address),
    devices: (context: AuthContext) => devices(auth, context),
    revokeDevice: (context: AuthContext, sid: string) => revokeDevice(auth, context, sid),
    disconnect: (userId: string, sid?: string) => disconnect(auth.events, userId, sid),
    resend: (userId: string) => resend(auth, userId),
    verifyOtp: (
      userId: string,
      code: string,
      address: string,
      userAgent?: string,
      timeZone?: string,
    ) => verifyOtp(auth, userId, code, address, userAgent, timeZone),
    authenticate: (token: string) => authenticate(auth, token),
    /**
     * The account a token names when it verifies and has not expired, else undefined; no
     * database read (the rate limit's key, before authentication runs).
     */
    accountOf: (token: string) =>
      auth.tokens.verify(token).then(
        (claims) => claims.userId,
        () => undefined,
      ),
    refresh: (token: string) => refresh(auth, token),
    logout: (context: AuthContext) => logout(auth, context),
    updateCredentials: (userId: string, body: Parameters<typeof updateCredentials>[2]) =>
      updateCredentials(auth, userId, body),
    forgetSessions: (userId: string) => forgetSessions(auth, userId),
    dropCachedSessions: (scope: Parameters<typeof dropCachedSessions>[1]) =>
      dropCachedSessions(auth.memory, scope),
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
