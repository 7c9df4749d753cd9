/** What the rest of the server uses of auth: the service, its routes, tokens and passwords. */
export { authRoutes, bearerToken } from "./routes.ts";
export { createAuthService, type AuthContext, type AuthDeps, type AuthService } from "./service.ts";
export { createTokenService, type TokenService } from "./tokens.ts";
export { hashPassword, verifyPassword } from "./passwords.ts";
