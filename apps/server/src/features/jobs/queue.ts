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

/**
 * Every queue and how its failures are retried. A job is a wake-up: its handler reads what is due
 * from the database and does it in a transaction that records it done, so a job that runs twice
 * (a retry after a crash past the commit) changes nothing the second time.
 */
export const QUEUES = {
  /** A mail the server sends on its own (checkout, reminders, digests): retried for about a day. */
  "mail.send": { retryLimit: 8, retryDelay: 30, retryBackoff: true, retryDelayMax: 6 * 3600 },
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

export interface Jobs {
  send(name: QueueName, data: object, options?: SendOptions): Promise<void>;
  /** Runs `handler` for each job of the queue, one at a time per instance; a throw retries it. */
  work(name: QueueName, handler: (data: never) => Promise<void>): Promise<void>;
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
      await boss.send(name, data, {
        ...(at ? { startAfter: at } : {}),
        // Both drivers answer a transaction's execute() with { rows }, as pg-boss expects.
        ...(tx ? { db: fromDrizzle(tx as unknown as Parameters<typeof fromDrizzle>[0], sql) } : {}),
      });
    },
    async work(name, handler) {
      await boss.work(name, { pollingIntervalSeconds: pollSeconds }, async (jobs) => {
        for (const job of jobs) {
          try {
            await handler(job.data as never);
          } catch (error) {
            log.warn({ err: error, queue: name, job: job.id }, "job failed; it will be retried");
            throw error;
          }
        }
      });
    },
  };
}
