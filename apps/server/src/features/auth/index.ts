/**
 * What the rest of the server uses of auth: accounts, one-time codes, signed-in devices and token
 * checks, as plain functions taking AuthDeps (deps.ts). Each concern lives in its own file:
 *
 *   codes.ts          issuing, resending and checking one-time codes, with their limits
 *   sign-in.ts        register, login, verifyOtp (opens a device), refresh, logout
 *   session-check.ts  token checks, the memory of checked auth sessions, live-socket disconnects
 *   devices.ts        listing and signing out devices
 *   reset.ts          forgot and reset password
 *   credentials.ts    changing email or password (confirmed through verifyOtp)
 */
export { authRoutes, bearerOf, bearerToken } from "./routes.ts";
export type { AuthContext, AuthDeps } from "./deps.ts";
export {
  accountOf,
  authenticate,
  createAuthSessionCache,
  disconnect,
  dropCachedSessions,
  forgetSessions,
  rememberedContext,
  type AuthSessionCache,
} from "./session-check.ts";
export { createTokenService, type TokenService } from "./tokens.ts";
export { hashPassword, verifyPassword } from "./passwords.ts";
