/**
 * The services wiring: every feature's service, built once with what it needs (the database, the
 * clock, the bus, the mailer, the secrets), and the caches tied to the bus. buildApp() (app.ts)
 * registers the routes of what this answers.
 */
import type { FastifyInstance } from "fastify";
import type { Config } from "./config.ts";
import type { Database } from "./db/client.ts";
import {
  createAuthSessionCache,
  createTokenService,
  disconnect,
  forgetSessions,
  type AuthDeps,
} from "./features/auth/index.ts";
import type { CartDeps } from "./features/carts/deps.ts";
import { createCartWriteQueue } from "./features/carts/write-queue.ts";
import type { DeadlineDeps } from "./features/deadlines/index.ts";
import {
  countedMailer,
  createDevOutbox,
  createSmtpMailer,
  type Mailer,
} from "./features/mail/mailer.ts";
import { createEmailChannel } from "./features/mail/email-channel.ts";
import { createMailQueue } from "./features/mail/queue.ts";
import { keepAnswers } from "./lib/kept-answers.ts";
import { checkout, keepOrders, sendOrderMail, type OrderDeps } from "./features/orders/index.ts";
import type { PaymentDeps } from "./features/payments/index.ts";
import type { Jobs } from "./features/jobs/index.ts";
import { createCatalog } from "./features/products/index.ts";
import {
  reloadCatalogOnImport,
  type CatalogChangeDeps,
  type CatalogDeps,
} from "./features/catalog/index.ts";
import { seedCatalogIfEmpty } from "./db/seed.ts";
import { createPushChannel, type PushDeps } from "./features/push/index.ts";
import type { ProfileDeps } from "./features/profile/deps.ts";
import type { EventBus } from "./features/live/bus.ts";
import { invalidateReadsOnWrite, linkCachesToBus } from "./features/live/caches.ts";
import type { LiveDeps } from "./features/live/deps.ts";
import { createLiveHub } from "./features/live/hub.ts";
import {
  createNoticeState,
  quietHold,
  type Channel,
  type NotificationDeps,
} from "./features/notifications/index.ts";
import type { SeriesDeps } from "./features/series/deps.ts";
import { startNextSession, type SeriesStartJob } from "./features/series/service.ts";
import { lookViewById, memberIds, openLook, type SessionDeps } from "./features/sessions/index.ts";
import { handleInviteMails } from "./features/sessions/invites/invites.ts";
import type { Clock } from "./lib/clock.ts";
import { createMedia } from "./lib/media.ts";
import { createPublicFetch, type HostResolver } from "./lib/public-fetch.ts";
import { createReadCache } from "./lib/read-cache.ts";
import type { Secrets } from "./lib/secrets.ts";
import type { TrackJob } from "./plugins/mail-jobs.ts";

const AUTH_SESSION_CACHE_MS = 30_000;
/** Live sockets: pinged, and their auth sessions checked, this often (revocation within 60 s). */
const LIVE_CHECK_MS = 30_000;

/**
 * The given mailer (tests), else SMTP when SMTP_URL is set, else the dev outbox in the database;
 * it closes with the app.
 */
export function openMailer(
  app: FastifyInstance,
  config: Config,
  database: Database,
  given?: Mailer,
): Mailer {
  const mailer =
    given ??
    (config.smtpUrl
      ? createSmtpMailer(config.smtpUrl, config.mailFrom)
      : createDevOutbox(database.db, app.log));
  app.addHook("onClose", async () => mailer.close());
  return countedMailer(mailer);
}

export async function createServices(input: {
  app: FastifyInstance;
  config: Config;
  database: Database;
  clock: Clock;
  secrets: Secrets;
  mailer: Mailer;
  events: EventBus;
  /** Mails sent after their answers (password reset, invites). */
  track: TrackJob;
  /** The durable job queue: work that must happen later or again, once, across restarts. */
  jobs: Jobs;
  /** How often live sockets are pinged and their auth sessions checked (default 30 s). */
  liveCheckMs?: number | undefined;
  /** Push and email for notifications (each absent: that channel is off). */
  channels?: { push?: Channel; email?: Channel } | undefined;
  /** How names in URLs users chose resolve (tests: a fixed answer); the system's by default. */
  resolveHost?: HostResolver | undefined;
}) {
  const { app, config, database, clock, secrets, mailer, events, track } = input;
  const db = database.db;
  // One switch for the per-process caches (decision 007). On PostgreSQL every instance hears the
  // others' writes and revocations over NOTIFY, and the caches step aside while it cannot.
  const processCaches = config.processCaches ?? true;
  const cachesUsable = () => processCaches && events.connected();
  const auth: AuthDeps = {
    trackJob: track,
    events,
    db,
    clock,
    tokens: createTokenService(secrets.jwtKey, clock),
    otpKey: secrets.otpKey,
    mailer,
    // A checked auth session is remembered briefly; a revocation anywhere drops it everywhere.
    sessionCache: createAuthSessionCache({
      sessionCacheMs: processCaches ? AUTH_SESSION_CACHE_MS : 0,
      cacheUsable: cachesUsable,
    }),
  };
  await seedCatalogIfEmpty(db);
  const media = createMedia(config.publicUrl);
  const catalog = createCatalog(db, media);
  reloadCatalogOnImport(events, catalog, app.log);
  // Every push and mail the server sends on its own waits out its recipient's quiet hours: the
  // one rule, asked by the job queue before each runs (features/notifications/quiet-hours.ts).
  const heldUntil = (userId: string) => quietHold({ db, clock }, userId);
  // Mails the server sends on its own go on the durable job queue (features/mail/queue.ts).
  const mails = createMailQueue(input.jobs, app.log, heldUntil);
  // The channels that reach people away from the app; notify() calls their deliver().
  const vapid = config.vapid ?? secrets.vapid;
  const push: PushDeps = { db, clock, serviceOrigins: config.pushServiceOrigins };
  const pushFetch = createPublicFetch({
    protocols: ["https:"],
    trustedOrigins: config.pushServiceOrigins,
    resolve: input.resolveHost,
  });
  // Closing waits for sends under way; a job that starts later fails and is tried again later.
  app.addHook("onClose", async () => pushFetch.close());
  const pushChannel = createPushChannel({
    db,
    jobs: input.jobs,
    clock,
    log: app.log,
    vapid,
    subject: config.vapidSubject,
    fetch: pushFetch,
    heldUntil,
  });
  const emailChannel = createEmailChannel({
    db,
    mails,
    mailer,
    clock,
    publicUrl: config.publicUrl,
    currency: config.currency,
  });
  const channels = { push: pushChannel, email: emailChannel };
  const notifications: NotificationDeps = {
    db,
    light: database.prepared,
    clock,
    events,
    log: app.log,
    track,
    // Tests may pass recording channels instead.
    channels: input.channels ?? channels,
    state: createNoticeState(),
  };
  // Sessions, their members, invites, links and settings: one deps object for the feature.
  const sessions: SessionDeps = {
    db,
    light: database.prepared,
    clock,
    events,
    media,
    mails,
    mailer,
    notices: notifications,
    linkKey: secrets.linkKey,
  };
  handleInviteMails(sessions);
  // Member-only reads are remembered until the next write on any instance.
  const readCache = createReadCache(cachesUsable);
  // Before the live hub subscribes: a socket told of a change must not refetch a stale answer.
  linkCachesToBus(events, { reads: readCache, authSessions: auth.sessionCache });
  invalidateReadsOnWrite(app, readCache, events, processCaches);
  // The profile, the time zone, the account's export and deletion: one deps object.
  const profile: ProfileDeps = {
    db,
    clock,
    media,
    events,
    onNameChanged: (userId) => forgetSessions(auth, userId),
    signOutEverywhere: (userId) => {
      forgetSessions(auth, userId);
      disconnect(auth.events, userId);
    },
  };
  const carts: CartDeps = {
    media,
    db,
    rows: database.rows,
    clock,
    events,
    writes: createCartWriteQueue({
      rows: database.rows,
      // Changes waiting share a commit: on the embedded database, which runs one statement at a
      // time, across carts; on PostgreSQL per cart, carts side by side (decision 012).
      batching: database.kind === "pglite" ? "all" : "per-cart",
    }),
    notices: notifications,
  };
  // Open carts follow the catalog's changes (the operator's edits, an import through the app).
  const catalogFollow: CatalogChangeDeps = {
    db,
    clock,
    events,
    notices: notifications,
    currency: config.currency,
  };
  // The operator's Catalog page: its changes reach this server's catalog and the others', and
  // open carts follow them.
  const catalogEdits: CatalogDeps = { ...catalogFollow, catalog, media };
  const series: SeriesDeps = { db, clock, events, media, jobs: input.jobs };
  // Each instance works the queue; a series' next session starts once whichever claims it.
  await input.jobs.work("series.start", (job: SeriesStartJob) => startNextSession(series, job));
  // Orders' views, open parts and list answers kept by version (decision 045): each read checks
  // the versions in the database, so they need no bus to stay true.
  if (processCaches) {
    keepOrders(db);
    keepAnswers(db);
  }
  const orderDeps: OrderDeps = {
    db,
    light: database.prepared,
    clock,
    events,
    jobs: input.jobs,
    media,
    mails,
    mailer,
    notices: notifications,
    currency: config.currency,
  };
  // Each checkout mail is a job on the mail queue, sent in the checkout's transaction.
  mails.handle("order", (job) => sendOrderMail(orderDeps, job));
  const paymentDeps: PaymentDeps = { db, clock, currency: config.currency };
  // Deadlines: the creator's calls, and the jobs at their times (reminders, lock, checkout).
  const deadlines: DeadlineDeps = {
    db,
    clock,
    events,
    media,
    jobs: input.jobs,
    checkout: (sessionId, creator, options) => checkout(orderDeps, sessionId, creator, options),
    notices: notifications,
    log: app.log,
    currency: config.currency,
  };
  // Every handler is registered: this instance starts taking its jobs.
  await mails.start();
  await pushChannel.start();
  const hub = createLiveHub({
    bus: events,
    memberIds: (sessionId) => memberIds(sessions, sessionId),
    lookView: (linkId) => lookViewById(sessions, linkId),
    auth,
    log: app.log,
    checkEveryMs: input.liveCheckMs ?? LIVE_CHECK_MS,
  });
  app.addHook("onClose", async () => hub.close());
  const live: LiveDeps = {
    hub,
    auth,
    allowedOrigins: config.allowedOrigins,
    openLook: (token) => openLook(sessions, { token }),
  };
  return {
    auth,
    catalog,
    catalogEdits,
    catalogFollow,
    sessions,
    readCache,
    profile,
    carts,
    orderDeps,
    paymentDeps,
    notifications,
    series,
    deadlines,
    live,
    jobs: input.jobs,
    mails,
    push,
    vapidPublicKey: vapid.publicKey,
    channels,
  };
}

export type Services = Awaited<ReturnType<typeof createServices>>;
