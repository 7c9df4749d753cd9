import cors from "@fastify/cors";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyInstance } from "fastify";
import helmet from "helmet";
import type { Config } from "../config.ts";
import { allowedOriginTest } from "../lib/origin.ts";

/** The SPA's policy: nothing inline, nothing from elsewhere. */
const CSP_DIRECTIVES = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'", "data:", "blob:"],
  fontSrc: ["'self'"],
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  frameAncestors: ["'none'"],
  formAction: ["'self'"],
  upgradeInsecureRequests: null,
};

/**
 * The security headers of every answer (CSP, frame refusal, HSTS in production: helmet's), set by
 * plugins/answer-headers.ts.
 */
export function securityHeadersOf(config: Config): Record<string, string> {
  // Built once (helmet's middleware, not re-parsed per request).
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      // Media URLs are absolute, built from PUBLIC_URL: a page opened under another name of this
      // host (127.0.0.1 for localhost) must still show them.
      directives: { ...CSP_DIRECTIVES, imgSrc: [...CSP_DIRECTIVES.imgSrc, config.publicUrl] },
    },
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: config.env === "production",
    // As the CSP's frame-ancestors 'none', for browsers that only know the older header.
    xFrameOptions: { action: "deny" },
  });
  // Every directive is fixed, so helmet's headers are the same on every answer: taken once and
  // set as one object, instead of a dozen middleware calls per request.
  return headersOf(securityHeaders);
}

/** The headers a helmet middleware sets, run once against a response that only records them. */
function headersOf(middleware: ReturnType<typeof helmet>): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  let ran = false;
  middleware({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
    ran = true;
  });
  // helmet calls back at once; were it ever asynchronous, this would say so at startup.
  if (!ran) throw new Error("helmet did not set its headers synchronously");
  return headers;
}

/** CORS: only the allowed origins (PUBLIC_URL's and ALLOWED_ORIGINS) get its headers. */
export async function registerCors(app: FastifyInstance, config: Config): Promise<void> {
  const isAllowed = allowedOriginTest(config.allowedOrigins);
  await app.register(cors, {
    // Reflect the origin only when it is allowed; others get no CORS headers at all.
    origin: (origin, callback) => callback(null, origin !== undefined && isAllowed(origin)),
    methods: ["GET", "POST", "PUT", "PATCH", "DELETE"],
    allowedHeaders: ["Content-Type", "Authorization", "Idempotency-Key"],
    exposedHeaders: ["Retry-After", "ETag", "Idempotent-Replayed"],
    maxAge: 600,
  });
}
