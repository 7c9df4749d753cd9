import type { onRequestHookHandler } from "fastify";
import type { FastifyInstance } from "fastify";
import {
  authenticate,
  bearerToken,
  type AuthContext,
  type AuthDeps,
} from "../features/auth/index.ts";

declare module "fastify" {
  interface FastifyInstance {
    /** onRequest hook: 401 unless the bearer token belongs to a live auth session. */
    authenticate: onRequestHookHandler;
  }
  interface FastifyRequest {
    auth: AuthContext;
  }
}

/** `app.authenticate`, the onRequest hook of protected routes, which sets `request.auth`. */
export function installAuthenticate(
  app: FastifyInstance,
  auth: Pick<AuthDeps, "db" | "clock" | "tokens" | "sessionCache">,
) {
  app.decorateRequest("auth", null as unknown as AuthContext);
  app.decorate("authenticate", async (request) => {
    request.auth = await authenticate(auth, bearerToken(request.headers.authorization));
  });
}
