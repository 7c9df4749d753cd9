/**
 * buildApp(): the server as a list of registrations. Each piece is a module of its own: the
 * shutdown hooks (plugins/shutdown.ts), the bus (features/live/open-bus.ts), the durable job
 * queue (features/jobs), mails sent after their answers (plugins/mail-jobs.ts), the services
 * wiring and its caches (services.ts), authentication
 * (plugins/authenticate.ts), and the routes of every feature; for operators, request ids
 * and the headers of every answer (plugins/request-id.ts, plugins/answer-headers.ts), tracing when configured (plugins/tracing.ts) and metrics
 * (plugins/metrics.ts).
 */
import type { SpanExporter } from "@opentelemetry/sdk-trace-base";
import Fastify, { LogController, type FastifyInstance } from "fastify";
import type { Clock as QueueClock } from "pg-boss";
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from "fastify-type-provider-zod";
import type { Config } from "./config.ts";
import { encodeSharedOnce } from "./lib/shared-answer.ts";
import { openDatabase, type Database } from "./db/client.ts";
import { authRoutes } from "./features/auth/index.ts";
import { installBackupSocket } from "./features/backup/socket.ts";
import { avatarRoutes } from "./features/avatars/routes.ts";
import { cartRoutes } from "./features/carts/routes.ts";
import { catalogRoutes } from "./features/catalog/index.ts";
import { deadlineRoutes, workDeadlineJobs } from "./features/deadlines/index.ts";
import { healthRoutes } from "./features/health/routes.ts";
import { createJobs } from "./features/jobs/index.ts";
import { devMailboxRoutes } from "./features/mail/dev-mailbox.ts";
import type { Mailer } from "./features/mail/mailer.ts";
import { notificationRoutes, type Channel } from "./features/notifications/index.ts";
import { orderRoutes } from "./features/orders/routes.ts";
import { paymentRoutes } from "./features/payments/index.ts";
import { productRoutes } from "./features/products/routes.ts";
import { profileRoutes } from "./features/profile/routes.ts";
import { timeZoneOf } from "./features/profile/service.ts";
import { pushRoutes } from "./features/push/index.ts";
import { openEventBus } from "./features/live/open-bus.ts";
import { endRefusedUpgrades, liveRoutes } from "./features/live/routes.ts";
import { seriesRoutes } from "./features/series/routes.ts";
import { inviteLinkRoutes } from "./features/sessions/invites/links-routes.ts";
import { memberSettingsRoutes } from "./features/sessions/settings/routes.ts";
import { memberRoutes } from "./features/sessions/membership/members-routes.ts";
import { membershipRoutes } from "./features/sessions/membership/routes.ts";
import { sessionRoutes } from "./features/sessions/lifecycle/routes.ts";
import { systemClock, type Clock } from "./lib/clock.ts";
import type { HostResolver } from "./lib/public-fetch.ts";
import { loadSecrets } from "./lib/secrets.ts";
import { installAuthenticate } from "./plugins/authenticate.ts";
import {
  clientErrorHandler,
  frameworkErrors,
  installErrorHandling,
} from "./plugins/error-handler.ts";
import { installIdempotency } from "./plugins/idempotency.ts";
import { installMailJobs } from "./plugins/mail-jobs.ts";
import { installMetrics, metricsRoutes } from "./plugins/metrics.ts";
import { registerOpenApi } from "./plugins/openapi.ts";
import { registerRateLimits } from "./plugins/rate-limit.ts";
import { requestIdFrom } from "./plugins/request-id.ts";
import { registerCors } from "./plugins/security-headers.ts";
import { lazyChildLogger } from "./plugins/request-logger.ts";
import { installAnswerHeaders } from "./plugins/answer-headers.ts";
import { installShutdown } from "./plugins/shutdown.ts";
import { registerTracing } from "./plugins/tracing.ts";
import { serveWebApp } from "./plugins/web-static.ts";
import { registerWebSocket } from "./plugins/websocket.ts";
import type { CatalogChangeDeps } from "./features/catalog/index.ts";
import { createServices, openMailer } from "./services.ts";

declare module "fastify" {
  interface FastifyInstance {
    /** The channels that reach people away from the app (Web Push, mail): each has deliver(). */
    channels: { push: Channel; email: Channel };
    /** What open carts need to follow a catalog change (afterCatalogChange's deps). */
    catalogFollow: CatalogChangeDeps;
  }
}

export interface AppOverrides {
  /** An already open database (tests start from a migrated template). */
  database?: Database;
  clock?: Clock;
  /** The job queue's clock (pg-boss's TestClock moves the database's time too); the app's clock follows it. */
  queueClock?: QueueClock;
  mailer?: Mailer;
  /** How often live sockets are pinged and their auth sessions checked (default 30 s). */
  liveCheckMs?: number;
  /** Notification channels (push, email); tests pass recording ones. */
  channels?: { push?: Channel; email?: Channel };
  /** Where spans go instead of OTLP when tracing is configured (tests: an in-memory exporter). */
  spanExporter?: SpanExporter;
  /** How names in URLs users chose (push endpoints) resolve; tests answer without DNS. */
  resolveHost?: HostResolver;
}

/** JSON bodies are small; uploads get their own limit where they are accepted. */
const BODY_LIMIT_BYTES = 64 * 1024;

function createFastify(config: Config) {
  return Fastify({
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
    genReqId: requestIdFrom(config.trustProxy),
    logController: new LogController({ requestIdLogLabel: "requestId" }),
    // Each request's logger is made when it first writes a line (plugins/request-logger.ts).
    childLoggerFactory: lazyChildLogger,
    // Stop taking new requests on close and answer them 503 while in-flight ones finish.
    return503OnClosing: true,
    forceCloseConnections: "idle",
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 300 },
    // Refusals before any route still answer in the API's one error shape.
    frameworkErrors,
    clientErrorHandler,
  }).withTypeProvider<ZodTypeProvider>();
}

export async function buildApp(
  config: Config,
  overrides: AppOverrides = {},
): Promise<FastifyInstance> {
  const app = createFastify(config);
  app.setValidatorCompiler(validatorCompiler);
  // A batch's shared cart answers are encoded once per route (lib/shared-answer.ts).
  app.setSerializerCompiler<Parameters<typeof serializerCompiler>[0]["schema"]>((route) =>
    encodeSharedOnce(serializerCompiler(route)),
  );
  installAnswerHeaders(app, config);
  await registerTracing(app, config.otel, overrides.spanExporter);
  installErrorHandling(app);

  const { queueClock } = overrides;
  const clock: Clock =
    overrides.clock ?? (queueClock ? { now: () => new Date(queueClock.now()) } : systemClock);
  const database =
    overrides.database ??
    (await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }));
  installShutdown(app, database);
  await installBackupSocket(app, database, config.dataDir);
  await installMetrics(app, config.metricsToken, database);
  const secrets = await loadSecrets(config.jwtSecret, config.dataDir);
  const devOutbox = !config.smtpUrl && config.env !== "production";
  const mailer = openMailer(app, config, database, overrides.mailer);
  const events = await openEventBus(database, app);
  // Stops before the database closes (onClose hooks run last registered first).
  const jobs = createJobs({ database, log: app.log, ...(queueClock ? { clock: queueClock } : {}) });
  await jobs.start();
  app.addHook("onClose", async () => jobs.stop());
  const track = installMailJobs(app, jobs);
  const services = await createServices({
    app,
    config,
    database,
    clock,
    secrets,
    mailer,
    events,
    track,
    jobs,
    liveCheckMs: overrides.liveCheckMs,
    channels: overrides.channels,
    resolveHost: overrides.resolveHost,
  });
  const { auth, readCache } = services;
  app.decorate("channels", services.channels);
  app.decorate("catalogFollow", services.catalogFollow);
  installAuthenticate(app, auth);
  // The deadline jobs, and the deadlines that passed while no server ran (in the background;
  // closing waits for it, before the queue and the database close).
  const sweeping = await workDeadlineJobs(services.deadlines);
  app.addHook("onClose", async () => sweeping);

  installIdempotency(app, database.db, clock, secrets.idempotencyKey);
  await registerCors(app, config);
  await registerRateLimits(app, config, { clock, auth });
  await registerOpenApi(app);
  await registerWebSocket(app);
  endRefusedUpgrades(app);
  await app.register(
    async (api) => {
      await api.register((scope) =>
        healthRoutes(scope, { database, bus: events, devMailbox: devOutbox }),
      );
      await api.register((scope) => liveRoutes(scope, services.live));
      await api.register(avatarRoutes);
      await api.register((scope) => profileRoutes(scope, services.profile));
      await api.register((scope) =>
        authRoutes(scope, { ...auth, authRateLimit: config.authRateLimit }),
      );
      await api.register((scope) =>
        productRoutes(scope, { catalog: services.catalog, db: database.db }),
      );
      await api.register((scope) => catalogRoutes(scope, services.catalogEdits));
      const { sessions } = services;
      await api.register((scope) => sessionRoutes(scope, { ...sessions, cache: readCache }));
      await api.register((scope) =>
        membershipRoutes(scope, {
          ...sessions,
          joinRateLimit: config.authRateLimit,
          cache: readCache,
        }),
      );
      await api.register((scope) => memberSettingsRoutes(scope, sessions));
      await api.register((scope) =>
        inviteLinkRoutes(scope, {
          ...sessions,
          acceptRateLimit: config.authRateLimit,
          lookRateLimit: config.rateLimit,
        }),
      );
      await api.register((scope) => memberRoutes(scope, sessions));
      await api.register((scope) => seriesRoutes(scope, services.series));
      await api.register((scope) => deadlineRoutes(scope, services.deadlines));
      await api.register((scope) => cartRoutes(scope, { ...services.carts, cache: readCache }));
      await api.register((scope) =>
        orderRoutes(scope, {
          ...services.orderDeps,
          timeZoneOf: (userId) => timeZoneOf(services.profile, userId),
        }),
      );
      await api.register((scope) =>
        paymentRoutes(scope, {
          ...services.paymentDeps,
          timeZoneOf: (userId) => timeZoneOf(services.profile, userId),
        }),
      );
      await api.register((scope) => notificationRoutes(scope, services.notifications));
      await api.register((scope) =>
        pushRoutes(scope, { ...services.push, publicKey: services.vapidPublicKey }),
      );
    },
    { prefix: "/api" },
  );
  await app.register(metricsRoutes(config.metricsToken));
  if (devOutbox) await app.register((scope) => devMailboxRoutes(scope, { db: database.db }));
  await serveWebApp(app, config.webDist);

  return app;
}
