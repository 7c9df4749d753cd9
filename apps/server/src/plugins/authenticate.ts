import type { onRequestHookHandler } from "fastify";
import type { FastifyInstance } from "fastify";
import {
  authenticate,
  bearerToken,
  rememberedContext,
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

/**
 * `app.authenticate`, the onRequest hook of protected routes, which sets `request.auth`: at once
 * when memory alone answers (rememberedContext, most requests), else once authenticate() has.
 */
export function installAuthenticate(
  app: FastifyInstance,
  auth: Pick<AuthDeps, "db" | "clock" | "tokens" | "sessionCache">,
) {
  app.decorateRequest("auth", null as unknown as AuthContext);
  app.decorate("authenticate", (request, _reply, done) => {
    let token: string;
    try {
      token = bearerToken(request.headers.authorization);
    } catch (error) {
      return done(error as Error);
    }
    const remembered = rememberedContext(auth, token);
    if (remembered) {
      request.auth = remembered;
      return done();
    }
    authenticate(auth, token).then((context) => {
      request.auth = context;
      done();
    }, done);
  });
}
