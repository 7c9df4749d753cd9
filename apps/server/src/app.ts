import websocket from "@fastify/websocket";
import { sql } from "drizzle-orm";
import Fastify, { type FastifyInstance, type onRequestHookHandler } from "fastify";
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from "fastify-type-provider-zod";
import type { Config } from "./config.ts";
import { openDatabase, type Database } from "./db/client.ts";
import {
  authRoutes,
  bearerToken,
  createAuthService,
  createTokenService,
  type AuthContext,
} from "./features/auth/index.ts";
import { avatarRoutes } from "./features/avatars/routes.ts";
import { healthRoutes } from "./features/health/routes.ts";
import { devMailboxRoutes } from "./features/mail/dev-mailbox.ts";
import { createCatalog } from "./features/products/catalog.ts";
import { productRoutes } from "./features/products/routes.ts";
import { seedCatalogIfEmpty } from "./features/products/seed.ts";
import { cartRoutes } from "./features/carts/routes.ts";
import { createCartService } from "./features/carts/service.ts";
import { createOrderMailer } from "./features/orders/mail.ts";
import { orderRoutes } from "./features/orders/routes.ts";
import { createOrderService } from "./features/orders/service.ts";
import { createAccountService } from "./features/profile/account.ts";
import { profileRoutes } from "./features/profile/routes.ts";
import { createProfileService } from "./features/profile/service.ts";
import { createMembershipService } from "./features/sessions/membership.ts";
import { membershipRoutes } from "./features/sessions/membership-routes.ts";
import { inviteLinkRoutes } from "./features/sessions/invite-link-routes.ts";
import { createInviteLinkService } from "./features/sessions/invite-links.ts";
import { createMemberSettingsService } from "./features/sessions/member-settings.ts";
import { memberSettingsRoutes } from "./features/sessions/member-settings-routes.ts";
import { createMemberService } from "./features/sessions/members.ts";
import { memberRoutes } from "./features/sessions/members-routes.ts";
import { sessionRoutes } from "./features/sessions/routes.ts";
import { createSessionService } from "./features/sessions/service.ts";
import { createLocalBus, createPostgresBus, type EventBus } from "./features/realtime/bus.ts";
import { createLiveHub } from "./features/realtime/hub.ts";
import { endRefusedUpgrades, liveRoutes } from "./features/realtime/routes.ts";
import { createDevOutbox, createSmtpMailer, type Mailer } from "./features/mail/mailer.ts";
import { systemClock, type Clock } from "./lib/clock.ts";
import { createMedia } from "./lib/media.ts";
import { createReadCache } from "./lib/read-cache.ts";
import { linkCachesToBus } from "./features/realtime/caches.ts";
import { loadSecrets } from "./lib/secrets.ts";
import { installApiCacheControl } from "./plugins/cache-control.ts";
import { installIdempotency } from "./plugins/idempotency.ts";
import { registerOpenApi } from "./plugins/openapi.ts";
import { registerRateLimits } from "./plugins/rate-limit.ts";
import { installSecurityHeaders, registerCors } from "./plugins/security-headers.ts";
import { serveWebApp } from "./plugins/web-static.ts";
import {
  clientErrorHandler,
  frameworkErrors,
  installErrorHandling,
} from "./plugins/error-handler.ts";

declare module "fastify" {
  interface FastifyInstance {
    /** onRequest hook: 401 unless the bearer token belongs to a live auth session. */
    authenticate: onRequestHookHandler;
    /** Resolves when the mails sent after their answers (reset, invite, checkout) are done. */
    idle: () => Promise<void>;
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
    notify: (channel, payloads) =>
      database.db.execute(
        sql`select pg_notify(${channel}, p) from json_array_elements_text(${JSON.stringify(payloads)}::json) as p`,
      ),
    log: app.log,
  });
  await bus.ready;
  app.addHook("onClose", async () => bus.close());
  return bus;
}

/** JSON bodies are small; uploads get their own limit where they are accepted. */
const BODY_LIMIT_BYTES = 64 * 1024;

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

  // One switch for the per-process caches (decision 007). On PostgreSQL every instance hears the
  // others' writes and revocations over NOTIFY, and the caches step aside while it cannot.
  const processCaches = config.processCaches ?? true;
  const events = await createEventBus(database, app);
  const cachesUsable = () => processCaches && events.connected();
  // Mails sent after the answer (checkout, password reset, invites); shutdown waits for them.
  const mailJobs = new Set<Promise<unknown>>();
  app.addHook("onClose", async () => {
    await Promise.allSettled(mailJobs);
  });
  app.decorate("idle", async () => {
    while (mailJobs.size > 0) await Promise.allSettled([...mailJobs]);
  });
  const track = (job: Promise<unknown>) => {
    mailJobs.add(job);
    void job.catch((error) => app.log.error({ err: error }, "a mail job failed"));
    void job.finally(() => mailJobs.delete(job));
  };
  const auth = createAuthService({
    trackJob: track,
    events,
    db: database.db,
    clock,
    tokens: createTokenService(secrets.jwtKey, clock),
    otpKey: secrets.otpKey,
    mailer,
    // A checked auth session is remembered briefly; a revocation anywhere drops it everywhere.
    sessionCacheMs: processCaches ? AUTH_SESSION_CACHE_MS : 0,
    cacheUsable: cachesUsable,
  });
  await seedCatalogIfEmpty(database.db);
  const media = createMedia(config.publicUrl);
  const catalog = createCatalog(database.db, media);
  const sessionService = createSessionService({ db: database.db, clock, events, media });
  const memberSettings = createMemberSettingsService({
    db: database.db,
    clock,
    events,
    sessions: sessionService,
  });
  const members = createMemberService({ db: database.db, clock, events, sessions: sessionService });
  const membership = createMembershipService({
    db: database.db,
    clock,
    events,
    media,
    sessions: sessionService,
    mailer,
    track,
  });
  const links = createInviteLinkService({
    db: database.db,
    clock,
    events,
    media,
    sessions: sessionService,
    linkKey: secrets.linkKey,
  });
  // Member-only reads are remembered until the next write on any instance.
  const readCache = createReadCache(cachesUsable);
  // Before the live hub subscribes: a socket told of a change must not refetch a stale answer.
  linkCachesToBus(events, { reads: readCache, dropAuthSessions: auth.dropCachedSessions });
  app.addHook("onSend", async (request, reply, payload) => {
    if (request.method !== "GET" && request.method !== "HEAD" && reply.statusCode < 400) {
      readCache.bump();
      if (processCaches && events.shared) events.publish({ invalidate: { reads: true } });
    }
    return payload;
  });
  const profileService = createProfileService({
    db: database.db,
    clock,
    media,
    onNameChanged: (userId) => auth.forgetSessions(userId),
  });
  const accountService = createAccountService({
    db: database.db,
    clock,
    events,
    signOutEverywhere: (userId) => {
      auth.forgetSessions(userId);
      auth.disconnect(userId);
    },
  });
  const cartService = createCartService({
    media,
    db: database.db,
    rows: database.rows,
    clock,
    sessions: sessionService,
    events,
    // Changes waiting share a commit: on the embedded database, which runs one statement at a
    // time, across carts; on PostgreSQL per cart, carts side by side (decision 012).
    batching: database.kind === "pglite" ? "all" : "per-cart",
  });
  const orderService = createOrderService({
    db: database.db,
    clock,
    events,
    media,
    mailOrder: createOrderMailer(mailer, app.log, media.orderPage),
    track,
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

  installIdempotency(app, database.db, clock, secrets.idempotencyKey);
  installSecurityHeaders(app, config);
  await registerCors(app, config);
  await registerRateLimits(app, config);
  await registerOpenApi(app);

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
      await api.register(healthRoutes(database, devOutbox));
      await api.register(
        liveRoutes({
          hub,
          authenticate: auth.authenticate,
          allowedOrigins: config.allowedOrigins,
        }),
      );
      await api.register(avatarRoutes);
      await api.register(profileRoutes(profileService, accountService));
      await api.register(authRoutes(auth, config.authRateLimit));
      await api.register(productRoutes(catalog));
      await api.register(sessionRoutes(sessionService, readCache));
      await api.register(membershipRoutes(membership, config.authRateLimit, readCache));
      await api.register(memberSettingsRoutes(memberSettings));
      await api.register(inviteLinkRoutes(links, config.authRateLimit));
      await api.register(memberRoutes(members));
      await api.register(cartRoutes(cartService, readCache));
      await api.register(orderRoutes(orderService, clock));
    },
    { prefix: "/api" },
  );
  if (devOutbox) await app.register(devMailboxRoutes(database.db));
  await serveWebApp(app, config.webDist);

  return app;
}
