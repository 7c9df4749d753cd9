/**
 * Durable jobs: what must happen later or again (a deadline's reminders, lock and automatic
 * checkout, a series' next session, a mail that failed) is a row in the database's job queue, so
 * it survives a restart or a crash and runs once however many instances are up. pg-boss claims
 * each job with SKIP LOCKED, retries a failed one with backoff, and runs on PGlite as on
 * PostgreSQL (docs/decisions/016-durable-jobs.md).
 */
import type { FastifyBaseLogger } from "fastify";
import { sql } from "drizzle-orm";
import {
  PgBoss,
  fromDrizzle,
  fromPglite,
  type Clock as QueueClock,
  type QueueOptions,
} from "pg-boss";
import type { Database, Tx } from "../../db/client.ts";
import { meter } from "../../lib/metrics.ts";

/**
 * Every queue and how its failures are retried. A job is a wake-up: its handler reads what is due
 * from the database and does it in a transaction that records it done, so a job that runs twice
 * (a retry after a crash past the commit) changes nothing the second time.
 */
export const QUEUES = {
  /** A mail the server sends on its own (checkout, reminders, digests): retried for about a day. */
  "mail.send": { retryLimit: 8, retryDelay: 30, retryBackoff: true, retryDelayMax: 6 * 3600 },
  /** One Web Push message to one device: retried for about an hour (its TTL is a day). */
  "push.send": { retryLimit: 5, retryDelay: 15, retryBackoff: true, retryDelayMax: 1800 },
  /** A series' next session: its handler starts it once, when still due (features/series). */
  "series.start": { retryLimit: 10, retryDelay: 30, retryBackoff: true, retryDelayMax: 3600 },
  /**
   * A session's deadline is due for something (a reminder, the lock, the automatic checkout):
   * sent for each of those times when a deadline is set, moved or reopened (features/deadlines).
   * Retried soon: the lock's entry and the checkout should follow the deadline closely.
   */
  "deadline.due": { retryLimit: 20, retryDelay: 5, retryBackoff: true, retryDelayMax: 600 },
  /** One member's reminder mail: retried like the other mails, for about a day. */
  "deadline.remind": {
    retryLimit: 8,
    retryDelay: 30,
    retryBackoff: true,
    retryDelayMax: 6 * 3600,
  },
} satisfies Record<string, QueueOptions>;

export type QueueName = keyof typeof QUEUES;

export interface SendOptions {
  /** Not before this time (the app's clock); now when absent. */
  at?: Date;
  /** Enqueue inside this transaction: the job exists exactly when the change it follows commits. */
  tx?: Tx;
}

export interface WorkOptions<T> {
  /**
   * Asked before each job runs: a time it must wait for (its recipient's quiet hours end, for
   * a push or a mail), or null to run it now. A held job is sent again to start then, and this
   * one completes: the handler runs once, at that time.
   */
  holdUntil?: (data: T) => Promise<Date | null>;
}

export interface Jobs {
  send(name: QueueName, data: object, options?: SendOptions): Promise<void>;
  /** Runs `handler` for each job of the queue, one at a time per instance; a throw retries it. */
  work<T>(
    name: QueueName,
    handler: (data: T) => Promise<void>,
    options?: WorkOptions<T>,
  ): Promise<void>;
  /**
   * Tells this instance's workers of `name` to look for jobs now rather than at their next poll:
   * after the commit of a transaction that sent one (a send without `tx` does it itself).
   */
  wake(name: QueueName): void;
  /**
   * Resolves once no job of a queue this instance works is due or running: what was sent has
   * run, and a failed one waits for its retry (app.idle(), tests).
   */
  idle(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export interface JobsOptions {
  database: Database;
  log: FastifyBaseLogger;
  /** How often an idle worker looks for due jobs. */
  pollSeconds?: number;
  /** pg-boss's clock; tests pass its TestClock, which moves the database's time along with it. */
  clock?: QueueClock;
}

/**
 * The job queue: a created object, since it holds pg-boss (its connections and polling workers),
 * this instance's workers by queue, and whether it has started.
 */
export function createJobs(options: JobsOptions): Jobs {
  const { database, log, pollSeconds = 1, clock } = options;
  const boss = new PgBoss({
    ...(database.kind === "pglite"
      ? { db: fromPglite(database.pglite!), backend: "pglite" as const }
      : { connectionString: database.url!, max: 3 }),
    schema: "jobs",
    // Series and deadlines are rows of our own tables, woken by sent jobs: no cron schedules.
    schedule: false,
    ...(clock ? { clock } : {}),
  });
  boss.on("error", (error) => log.error({ err: error }, "job queue"));
  let started = false;
  /** This instance's workers, by queue. */
  const workers = new Map<QueueName, string[]>();
  const wake = (name: QueueName) => {
    for (const id of workers.get(name) ?? []) boss.notifyWorker(id);
  };

  return {
    async start() {
      await boss.start();
      for (const [name, queue] of Object.entries(QUEUES)) {
        if (!(await boss.getQueue(name))) await boss.createQueue(name, queue);
        else await boss.updateQueue(name, queue);
      }
      started = true;
    },
    async stop() {
      if (!started) return;
      started = false;
      await boss.stop({ graceful: true, timeout: 10_000 });
    },
    async send(name, data, sendOptions = {}) {
      const { at, tx } = sendOptions;
      // A test's clock is the time only of pg-boss's own sessions: a send on one of ours (a
      // transaction's, on PostgreSQL) would read the real time, so it is told the clock's.
      const startAfter = at ?? (clock ? new Date(clock.now()) : undefined);
      await boss.send(name, data, {
        ...(startAfter ? { startAfter } : {}),
        // Both drivers answer a transaction's execute() with { rows }, as pg-boss expects.
        ...(tx ? { db: fromDrizzle(tx as unknown as Parameters<typeof fromDrizzle>[0], sql) } : {}),
      });
      if (!tx && !at) wake(name);
    },
    wake,
    async idle() {
      const names = [...workers.keys()];
      if (names.length === 0) return;
      const list = sql.join(
        names.map((name) => sql`${name}`),
        sql`, `,
      );
      for (;;) {
        if (!started) return;
        // The queue's time (a test's clock), which our own sessions do not read as job_now().
        const now = clock ? new Date(clock.now()) : new Date();
        const [row] = await database.rows<{ n: number }>(
          sql`select count(*)::int as n from jobs.job where name in (${list})
            and (state = 'active' or (state in ('created', 'retry') and start_after <= ${now}))`,
        );
        if (!row || row.n === 0) return;
        for (const name of names) wake(name);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    async work(name, handler, workOptions = {}) {
      const { holdUntil } = workOptions;
      const worker: { id?: string } = {};
      worker.id = await boss.work(name, { pollingIntervalSeconds: pollSeconds }, async (jobs) => {
        try {
          for (const job of jobs) {
            try {
              const until = await holdUntil?.(job.data as never);
              if (until) {
                await boss.send(name, job.data as object, { startAfter: until });
                continue;
              }
              await handler(job.data as never);
            } catch (error) {
              meter.jobFailed(name);
              log.warn({ err: error, queue: name, job: job.id }, "job failed; it will be retried");
              throw error;
            }
          }
        } finally {
          // A job was there, so more may be: look again at once instead of after the poll
          // interval (a burst of checkouts' mails drains in a row, not one a second).
          if (worker.id) boss.notifyWorker(worker.id);
        }
      });
      workers.set(name, [...(workers.get(name) ?? []), worker.id]);
    },
  };
}
