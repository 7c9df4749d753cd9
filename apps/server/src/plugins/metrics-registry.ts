/**
 * The process's Prometheus metrics (prom-client), in a registry of our own. Imported only when
 * metrics are on (plugins/metrics.ts, METRICS_TOKEN): it points lib/metrics.ts's `meter` at these,
 * so the modules with a natural hook (read cache, live hub, group commit, mailer, jobs) count into
 * them; what is a state (the pool, the job queue) is read when scraped, from `sources`.
 */
import { sql } from "drizzle-orm";
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import type { Database } from "../db/client.ts";
import { meter } from "../lib/metrics.ts";

export const registry = new Registry();
const registers = [registry];

/** Requests by the endpoint table's route (never the raw URL), method and status. */
export const httpRequests = new Counter({
  name: "http_requests_total",
  help: "HTTP requests answered, by method, route of the endpoint table and status",
  labelNames: ["method", "route", "status_code"] as const,
  registers,
});

export const httpRequestDuration = new Histogram({
  name: "http_request_duration_seconds",
  help: "Time from a request's arrival to its answer, by method, route of the endpoint table and status",
  labelNames: ["method", "route", "status_code"] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers,
});

const liveSockets = new Gauge({
  name: "cartner_live_sockets",
  help: "Signed-in live sockets open on this instance",
  registers,
});

const liveDeliverySeconds = new Histogram({
  name: "cartner_live_delivery_seconds",
  help: "From a change's publish (after its commit) to its event sent on this instance's sockets",
  buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
  registers,
});

const groupCommitBatchSize = new Histogram({
  name: "cartner_group_commit_batch_size",
  help: "Calls that went to the database together as one batch, by group commit",
  labelNames: ["batch"] as const,
  buckets: [1, 2, 4, 8, 16, 32, 64],
  registers,
});

const cacheLabels = ["cache"] as const;
const cacheHits = new Counter({
  name: "cartner_cache_hits_total",
  help: "Answers served from a per-process cache (reads: member reads; auth_sessions: checked auth sessions; orders, order_parts, order_pages, order_csv: orders kept by version; activity_pages, notification_pages, balances, settle_plans: list answers kept by version)",
  labelNames: cacheLabels,
  registers,
});
const cacheMisses = new Counter({
  name: "cartner_cache_misses_total",
  help: "Lookups a per-process cache could not answer (or was bypassed for)",
  labelNames: cacheLabels,
  registers,
});

const mailsSent = new Counter({
  name: "cartner_mails_sent_total",
  help: "Mails the mail server (or the dev outbox) accepted",
  registers,
});
const mailsFailed = new Counter({
  name: "cartner_mails_failed_total",
  help: "Mails that could not be sent (a job retries those it owns)",
  registers,
});

const jobFailures = new Counter({
  name: "cartner_job_failures_total",
  help: "Job runs that failed on this instance, by queue (each is retried by its queue's rule)",
  labelNames: ["queue"] as const,
  registers,
});

/** What a scrape reads from each open app: its database's pool and job queue. */
export interface MetricSource {
  database: Database;
}
export const sources = new Set<MetricSource>();

/** Connections of node-postgres's pools (PostgreSQL only). */
const poolGauge = (name: string, help: string, read: (pool: PoolCounts) => number) =>
  new Gauge({
    name,
    help,
    registers,
    collect() {
      let sum = 0;
      for (const { database } of sources) if (database.pool) sum += read(database.pool);
      this.set(sum);
    },
  });
interface PoolCounts {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}
poolGauge("cartner_db_pool_total", "Connections the pool holds (PostgreSQL)", (p) => p.totalCount);
poolGauge("cartner_db_pool_idle", "Idle connections in the pool (PostgreSQL)", (p) => p.idleCount);
poolGauge(
  "cartner_db_pool_waiting",
  "Queries waiting for a free connection of the pool (PostgreSQL)",
  (p) => p.waitingCount,
);

const jobCountsQuery = sql`select name,
    (count(*) filter (where state in ('created', 'retry')))::int as depth,
    (count(*) filter (where state = 'failed'))::int as failed
  from jobs.job group by name`;

/** The job queue's rows by queue: waiting to run (created, retry), and failed for good. */
export function jobQueueCounts(
  database: Database,
): Promise<{ name: string; depth: number; failed: number }[]> {
  return database.rows(jobCountsQuery);
}

/** The sources' job queues, summed by queue. */
async function queueCounts(): Promise<Map<string, { depth: number; failed: number }>> {
  const counts = new Map<string, { depth: number; failed: number }>();
  for (const { database } of sources) {
    // A database that does not answer leaves the gauges at what the others have.
    const rows = await jobQueueCounts(database).catch(() => []);
    for (const row of rows) {
      const count = counts.get(row.name) ?? { depth: 0, failed: 0 };
      count.depth += row.depth;
      count.failed += row.failed;
      counts.set(row.name, count);
    }
  }
  return counts;
}

let lastCounts: Promise<Map<string, { depth: number; failed: number }>> | undefined;
/** One query per scrape for both gauges. */
function countsOnce() {
  lastCounts ??= queueCounts().finally(() => setTimeout(() => (lastCounts = undefined), 0));
  return lastCounts;
}

new Gauge({
  name: "cartner_job_queue_depth",
  help: "Jobs waiting to run (due or not yet), by queue",
  labelNames: ["queue"] as const,
  registers,
  async collect() {
    this.reset();
    for (const [queue, { depth }] of await countsOnce()) this.set({ queue }, depth);
  },
});
new Gauge({
  name: "cartner_job_queue_failed",
  help: "Jobs that failed for good (retries spent), kept by the queue, by queue",
  labelNames: ["queue"] as const,
  registers,
  async collect() {
    this.reset();
    for (const [queue, { failed }] of await countsOnce()) this.set({ queue }, failed);
  },
});

// Node's own (CPU, memory, event-loop delay, GC).
collectDefaultMetrics({ register: registry });

/** Children by label value, made once: counting then costs a lookup and an update. */
function byLabel<C>(make: (value: string) => C): (value: string) => C {
  const children = new Map<string, C>();
  return (value) => {
    let child = children.get(value);
    if (child === undefined) children.set(value, (child = make(value)));
    return child;
  };
}
const cacheHit = byLabel((cache) => cacheHits.labels(cache));
const cacheMiss = byLabel((cache) => cacheMisses.labels(cache));
const batchOf = byLabel((name) => groupCommitBatchSize.labels(name));
const jobFailuresOf = byLabel((queue) => jobFailures.labels(queue));

meter.cacheLookup = (cache, hit) => (hit ? cacheHit(cache) : cacheMiss(cache)).inc();
meter.cacheLookups = (cache, hits, misses) => {
  if (hits > 0) cacheHit(cache).inc(hits);
  if (misses > 0) cacheMiss(cache).inc(misses);
};
meter.liveSocket = (delta) => liveSockets.inc(delta);
meter.liveDelivered = (seconds) => liveDeliverySeconds.observe(seconds);
meter.batch = (name, size) => batchOf(name).observe(size);
meter.mail = (sent) => (sent ? mailsSent : mailsFailed).inc();
meter.jobFailed = (queue) => jobFailuresOf(queue).inc();
