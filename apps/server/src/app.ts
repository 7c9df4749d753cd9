import fs from "node:fs";
import path from "node:path";
import cors from "@fastify/cors";
import rateLimit from "@fastify/rate-limit";
import fastifyStatic from "@fastify/static";
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import websocket from "@fastify/websocket";
import { ErrorCode } from "@cartner/contract";
import { sql } from "drizzle-orm";
import helmet from "helmet";
import Fastify, { type FastifyInstance, type onRequestHookHandler } from "fastify";
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from "fastify-type-provider-zod";
import type { Config } from "./config.ts";
import { openDatabase, type Database } from "./db/client.ts";
import { authRoutes, bearerToken } from "./features/auth/routes.ts";
import { createAuthService, type AuthContext } from "./features/auth/service.ts";
import { createTokenService } from "./features/auth/tokens.ts";
import { avatarRoutes } from "./features/avatars/routes.ts";
import { healthRoutes } from "./features/health/routes.ts";
import { devMailboxRoutes } from "./features/mail/dev-mailbox.ts";
import { createCatalog } from "./features/products/catalog.ts";
import { productRoutes } from "./features/products/routes.ts";
import { seedCatalogIfEmpty } from "./features/products/seed.ts";
import { cartRoutes } from "./features/carts/routes.ts";
import { createCartService } from "./features/carts/service.ts";
import { profileRoutes } from "./features/profile/routes.ts";
import { createProfileService } from "./features/profile/service.ts";
import { createMembershipService } from "./features/sessions/membership.ts";
import { membershipRoutes } from "./features/sessions/membership-routes.ts";
import { sessionRoutes } from "./features/sessions/routes.ts";
import { createSessionService } from "./features/sessions/service.ts";
import { createLocalBus, createPostgresBus, type EventBus } from "./features/realtime/bus.ts";
import { createLiveHub } from "./features/realtime/hub.ts";
import { endRefusedUpgrades, liveRoutes } from "./features/realtime/routes.ts";
import { createDevOutbox, createSmtpMailer, type Mailer } from "./features/mail/mailer.ts";
import { systemClock, type Clock } from "./lib/clock.ts";
import { AppError } from "./lib/errors.ts";
import { createMedia } from "./lib/media.ts";
import { createReadCache } from "./lib/read-cache.ts";
import { loadSecrets } from "./lib/secrets.ts";
import { installApiCacheControl } from "./plugins/cache-control.ts";
import {
  clientErrorHandler,
  frameworkErrors,
  installErrorHandling,
} from "./plugins/error-handler.ts";

declare module "fastify" {
  interface FastifyInstance {
    /** onRequest hook: 401 unless the bearer token belongs to a live auth session. */
    authenticate: onRequestHookHandler;
  }
  interface FastifyRequest {
    auth: AuthContext;
  }
}

export interface AppOverrides {
  /** An already open database (tests start from a migrated template). */
  database?: Database;
  clock?: Clock;
  mailer?: Mailer;
  /** How often live sockets are pinged and their auth sessions checked (default 30 s). */
  liveCheckMs?: number;
}

const AUTH_SESSION_CACHE_MS = 30_000;
/** Live sockets: pinged, and their auth sessions checked, this often (revocation within 60 s). */
const LIVE_CHECK_MS = 30_000;
/** The only message a client sends is its auth message. */
const LIVE_MAX_MESSAGE_BYTES = 8 * 1024;

/** One instance tells its own sockets; instances sharing PostgreSQL use its NOTIFY. */
async function createEventBus(database: Database, app: FastifyInstance): Promise<EventBus> {
  if (database.kind !== "postgres" || !database.url) return createLocalBus();
  const bus = createPostgresBus({
    url: database.url,
    notify: (channel, payload) =>
      database.db.execute(sql`select pg_notify(${channel}, ${payload})`),
    log: app.log,
  });
  await bus.ready;
  app.addHook("onClose", async () => bus.close());
  return bus;
}

/** JSON bodies are small; uploads get their own limit where they are accepted. */
const BODY_LIMIT_BYTES = 64 * 1024;

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

export async function buildApp(
  config: Config,
  overrides: AppOverrides = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      // Tokens and passwords never reach the log.
      redact: [
        "req.headers.authorization",
        "req.headers.cookie",
        "*.headers.authorization",
        "*.headers.cookie",
        "*.password",
        "*.token",
      ],
    },
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: config.trustProxy,
    // Stop taking new requests on close and answer them 503 while in-flight ones finish.
    return503OnClosing: true,
    forceCloseConnections: "idle",
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 300 },
    // Refusals before any route still answer in API.md's error shape (issue 17).
    frameworkErrors,
    clientErrorHandler,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandling(app);
  installApiCacheControl(app);

  const clock = overrides.clock ?? systemClock;
  const database =
    overrides.database ??
    (await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }));
  app.addHook("onClose", async () => {
    await database.close();
  });
  // While shutting down, end each keep-alive connection after its response, so close() does not
  // wait out idle sockets after the in-flight requests have finished.
  let closing = false;
  app.addHook("preClose", async () => {
    closing = true;
  });
  app.addHook("onSend", async (_request, reply, payload) => {
    if (closing) reply.header("connection", "close");
    return payload;
  });
  const secrets = await loadSecrets(config.jwtSecret, config.dataDir);
  const devOutbox = !config.smtpUrl && config.env !== "production";
  const mailer =
    overrides.mailer ??
    (config.smtpUrl
      ? createSmtpMailer(config.smtpUrl, config.mailFrom)
      : createDevOutbox(database.db, app.log));
  app.addHook("onClose", async () => mailer.close());

  const events = await createEventBus(database, app);
  const auth = createAuthService({
    events,
    db: database.db,
    clock,
    tokens: createTokenService(secrets.jwtKey, clock),
    otpKey: secrets.otpKey,
    mailer,
    // One embedded instance sees every revocation itself, so it may remember live auth sessions
    // briefly; instances sharing PostgreSQL check the row on every request.
    sessionCacheMs: database.kind === "pglite" ? AUTH_SESSION_CACHE_MS : 0,
  });
  await seedCatalogIfEmpty(database.db);
  const media = createMedia(config.appOrigin);
  const catalog = createCatalog(database.db, media);
  const sessionService = createSessionService({ db: database.db, clock, events, media });
  const membership = createMembershipService({
    db: database.db,
    clock,
    events,
    media,
    sessions: sessionService,
  });
  // Member-only reads are remembered until the next write, when this process sees every write.
  const readCache = createReadCache(database.kind === "pglite");
  app.addHook("onSend", async (request, reply, payload) => {
    if (request.method !== "GET" && request.method !== "HEAD" && reply.statusCode < 400) {
      readCache.bump();
    }
    return payload;
  });
  const profileService = createProfileService({
    db: database.db,
    clock,
    media,
    onNameChanged: () => auth.forgetSessions(),
  });
  const cartService = createCartService({
    media,
    rows: database.rows,
    clock,
    sessions: sessionService,
    events,
  });
  const hub = createLiveHub({
    bus: events,
    memberIds: sessionService.memberIds,
    authenticate: auth.authenticate,
    log: app.log,
    checkEveryMs: overrides.liveCheckMs ?? LIVE_CHECK_MS,
  });
  app.addHook("onClose", async () => hub.close());
  app.decorateRequest("auth", null as unknown as AuthContext);
  app.decorate("authenticate", async (request) => {
    request.auth = await auth.authenticate(bearerToken(request.headers.authorization));
  });

  // Security headers, built once (helmet's middleware, not re-parsed per request).
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      // Media URLs are absolute, built from APP_ORIGIN: a page opened under another name of this
      // host (127.0.0.1 for localhost) must still show them.
      directives: { ...CSP_DIRECTIVES, imgSrc: [...CSP_DIRECTIVES.imgSrc, config.appOrigin] },
    },
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: config.env === "production",
    // As the CSP's frame-ancestors 'none', for browsers that only know the older header.
    xFrameOptions: { action: "deny" },
  });
  app.addHook("onRequest", (request, reply, done) => {
    securityHeaders(request.raw, reply.raw, (error) => done(error as Error | undefined));
  });
  await app.register(cors, {
    // Reflect the origin only when it is ours; others get no CORS headers at all.
    origin: (origin, callback) => callback(null, origin === config.appOrigin),
    methods: ["GET", "POST", "PUT", "PATCH", "DELETE"],
    allowedHeaders: ["Content-Type", "Authorization"],
    exposedHeaders: ["Retry-After", "ETag"],
    maxAge: 600,
  });
  await app.register(rateLimit, {
    global: false,
    max: config.rateLimit,
    timeWindow: "1 minute",
    errorResponseBuilder: (_request, context) =>
      new AppError(
        429,
        ErrorCode.RATE_LIMITED,
        `Too many requests. Please try again in ${Math.ceil(context.ttl / 1000)} s.`,
        { retryAfterSeconds: Math.ceil(context.ttl / 1000) },
      ),
  });

  // The general limit runs before any route hook (authentication included), so requests with a
  // bad or revoked token are counted too; routes with their own budget (sign-in) use theirs.
  const generalLimit = app.rateLimit();
  app.addHook("onRequest", async (request, reply) => {
    if (!request.routeOptions.config.rateLimit) await generalLimit.call(app, request, reply);
  });

  await app.register(swagger, {
    openapi: {
      info: {
        title: "Cartner API",
        version: "0.1.0",
        description: "Shop together: shared sessions, one live cart, a fair split. See API.md.",
      },
      servers: [{ url: "/" }],
      components: {
        securitySchemes: { bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" } },
      },
    },
    transform: jsonSchemaTransform,
    hideUntagged: true,
  });
  await app.register(swaggerUi, { routePrefix: "/api/docs", staticCSP: true });

  await app.register(websocket, {
    options: { maxPayload: LIVE_MAX_MESSAGE_BYTES },
    // A frame over the limit or a malformed one is the client's fault, not ours: a warning
    // without a stack (ws has already sent the close code, 1009 or 1002), then the socket goes.
    errorHandler: (error, socket, request) => {
      request.log.warn(
        { code: (error as { code?: string }).code, message: error.message },
        "live: socket closed after a bad frame",
      );
      socket.terminate();
    },
  });
  endRefusedUpgrades(app);
  await app.register(
    async (api) => {
      await api.register(healthRoutes(database));
      await api.register(
        liveRoutes({ hub, authenticate: auth.authenticate, appOrigin: config.appOrigin }),
      );
      await api.register(avatarRoutes);
      await api.register(profileRoutes(profileService));
      await api.register(authRoutes(auth, config.authRateLimit));
      await api.register(productRoutes(catalog));
      await api.register(sessionRoutes(sessionService, readCache));
      await api.register(membershipRoutes(membership, config.authRateLimit, readCache));
      await api.register(cartRoutes(cartService, readCache));
    },
    { prefix: "/api" },
  );
  if (devOutbox) await app.register(devMailboxRoutes(database.db));

  const indexHtml = path.join(config.webDist, "index.html");
  const serveWeb = fs.existsSync(indexHtml);
  if (serveWeb) {
    await app.register(fastifyStatic, {
      root: config.webDist,
      wildcard: false,
      index: false,
      // The build writes .br and .gz next to each asset; send the one the browser accepts.
      preCompressed: true,
      setHeaders: (res, filePath) => {
        // Vite fingerprints assets, so they never change; index.html must always be fresh.
        res.header(
          "cache-control",
          filePath.includes(`${path.sep}assets${path.sep}`)
            ? "public, max-age=31536000, immutable"
            : "no-cache",
        );
      },
    });
  }

  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split("?")[0] ?? "/";
    const isApi =
      pathname === "/api" || pathname.startsWith("/api/") || pathname.startsWith("/dev/");
    // A missing file (a stale tab asking for an old chunk) is a 404, not the app.
    const isFile = pathname.startsWith("/assets/") || /\.[a-z0-9]+$/i.test(pathname);
    if (!isApi && !isFile && serveWeb && (request.method === "GET" || request.method === "HEAD")) {
      // SPA fallback: the client router draws every other path, including its own 404 page.
      return reply.header("cache-control", "no-cache").sendFile("index.html");
    }
    return reply.code(404).send({
      message: `No route for ${request.method} ${pathname}`,
      code: ErrorCode.NOT_FOUND,
    });
  });

  return app;
}
