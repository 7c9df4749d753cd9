/**
 * The bench's knobs (read from the environment) and its load: autocannon runs over one or several
 * instances, and writes offered at a steady rate.
 */
import http from "node:http";
import os from "node:os";
import autocannon from "autocannon";
import * as hdr from "hdr-histogram-js";
import { cpuMs } from "./bench-search.ts";
import { percentile } from "./bench-support.ts";

export const SECONDS = Number(loadBenchEnv().BENCH_SECONDS ?? 10);
/** Cores each server instance may use (BENCH_INSTANCE_CPU); none: no cap. */
export const INSTANCE_CPU = instanceCpu();
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
/** What the bench's requests accept: by default exactly what Chrome sends. */
export const ACCEPT_ENCODING = process.env.BENCH_ACCEPT_ENCODING ?? "gzip, deflate, br, zstd";
/** Write rates (requests per second) measured as a steady, evenly spaced stream. */
export const STEADY_RATES = [100, 400];

export function loadBenchEnv() {
  // Only bench knobs here; the server itself is configured by its config module.
  return {
    BENCH_SECONDS: process.env.BENCH_SECONDS,
    BENCH_DATABASE_URL: process.env.BENCH_DATABASE_URL,
    /** Measures only the routes whose name contains this text, e.g. "add to cart". */
    BENCH_ONLY: process.env.BENCH_ONLY,
    /**
     * Measures the server (or load balancer) already running at this origin instead of starting
     * one; it must have the development outbox, for the sign-up.
     */
    BENCH_ORIGIN: process.env.BENCH_ORIGIN,
    /** Instances on the PostgreSQL database (default 1): does a second one add write throughput? */
    BENCH_INSTANCES: process.env.BENCH_INSTANCES,
    /**
     * Cores each server instance may use (a cgroup CPU quota), e.g. 0.4: on a machine whose cores
     * one instance and the database already fill, shows what a second instance adds when each
     * has a host of its own.
     */
    BENCH_INSTANCE_CPU: process.env.BENCH_INSTANCE_CPU,
    /**
     * Another checkout's src/main.ts to start instead of this one's, e.g. main's or a release's:
     * the same load and the same accounting for both sides of a comparison.
     */
    BENCH_SERVER: process.env.BENCH_SERVER,
  };
}

function instanceCpu(): number | undefined {
  const { BENCH_INSTANCE_CPU: value, BENCH_ORIGIN } = loadBenchEnv();
  if (value === undefined || value === "") return undefined;
  const cores = Number(value);
  if (!Number.isFinite(cores) || cores <= 0 || cores > os.cpus().length) {
    throw new Error(
      `bench: BENCH_INSTANCE_CPU must be a number of cores up to ${os.cpus().length}`,
    );
  }
  if (BENCH_ORIGIN) throw new Error("bench: BENCH_INSTANCE_CPU caps only instances it starts");
  return cores;
}

export type Requests = autocannon.Options["requests"];

let reported = 0;
/** Shows the first few failed answers, so a failing figure explains itself. */
export function report(status: number, body: string) {
  if (status < 300 || reported >= 5) return;
  reported++;
  console.error(`bench: ${status} ${body.slice(0, 300)}`);
}

export async function run(
  url: string,
  headers: Record<string, string> = {},
  requests?: Requests,
  pid?: number,
) {
  return runAcross([url], headers, requests, pid);
}

/**
 * The same load spread over several instances at once (CONNECTIONS in all, shared evenly): the
 * answers per second add up; p50, p95 and p99 are the slowest instance's (autocannon reports
 * percentiles per run, which cannot be merged exactly). With the server's `pid`, also the CPU time
 * it spent per answer, warm-up included (from /proc): what a route costs whatever else the machine
 * runs, which the latencies of a busy machine do not show.
 */
export async function runAcross(
  urls: string[],
  headers: Record<string, string>,
  requests?: Requests,
  pid?: number,
) {
  // Each run records its latencies in a histogram of our own (as autocannon builds its own), whose
  // 95th percentile autocannon does not report.
  const histograms: hdr.Histogram[] = [];
  const once = (duration: number) =>
    Promise.all(
      urls.map((url, i) => {
        const connections =
          Math.floor(CONNECTIONS / urls.length) + (i < CONNECTIONS % urls.length ? 1 : 0);
        const latencies = hdr.build({
          useWebAssembly: false,
          bitBucketSize: 64,
          autoResize: true,
          lowestDiscernibleValue: 1,
          highestTrackableValue: 10000,
          numberOfSignificantValueDigits: 5,
        });
        histograms[i] = latencies;
        return autocannon({
          url,
          connections,
          headers,
          duration,
          ...(requests ? { requests } : {}),
          // Not in autocannon's typings, read by its run(): the histograms it records into.
          ...({ histograms: { latencies } } as object),
        });
      }),
    );
  const cpuBefore = pid ? await cpuMs(pid) : 0;
  // A short warm-up lets the JIT and the caches settle before measuring.
  const warmUp = await once(2);
  const results = await once(SECONDS);
  const cpu = pid ? (await cpuMs(pid)) - cpuBefore : undefined;
  const sum = (pick: (r: autocannon.Result) => number, of = results) =>
    of.reduce((total, r) => total + pick(r), 0);
  const answers = sum((r) => r.requests.total, warmUp) + sum((r) => r.requests.total);
  return {
    cpuPerAnswer: cpu === undefined ? undefined : cpu / answers,
    rps: sum((r) => r.requests.average),
    p50: Math.max(...results.map((r) => r.latency.p50)),
    p95: Math.max(...histograms.map((h) => h.getValueAtPercentile(95))),
    p99: Math.max(...results.map((r) => r.latency.p99)),
    failed: sum((r) => r.errors + r.non2xx),
    timeouts: sum((r) => r.timeouts),
  };
}

/**
 * Writes offered at an even `rate` (one every 1000/rate ms) over at most CONNECTIONS keep-alive
 * connections, each an add or, for a pair already added, its delete. autocannon's own rate limit
 * sends each connection's share at the start of every second, which measures a burst instead.
 * Latency counts from when a request was due, so a backlog shows (no coordinated omission).
 */
export async function steadyWrites(
  base: string,
  headers: Record<string, string>,
  pairs: Array<{ cartId: string; productId: string }>,
  rate: number,
) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  type Pair = { cartId: string; productId: string; added: boolean };
  const idle: Pair[] = pairs.map((pair) => ({ ...pair, added: false }));
  // When the server falls behind, more writes wait than there are pairs: they queue for one.
  const waiting: Array<(pair: Pair) => void> = [];
  const release = (pair: Pair) => {
    const next = waiting.shift();
    if (next) next(pair);
    else idle.push(pair);
  };
  const latencies: number[] = [];
  let failed = 0;
  let timeouts = 0;
  const send = async (due: number) => {
    const pair = idle.shift() ?? (await new Promise<Pair>((resolve) => waiting.push(resolve)));
    const path = pair.added
      ? `/api/carts/${pair.cartId}/product/${pair.productId}`
      : `/api/carts/${pair.cartId}/product`;
    const body = pair.added ? undefined : JSON.stringify({ productId: pair.productId });
    return new Promise<void>((resolve) => {
      const request = http.request(
        `${base}${path}`,
        {
          agent,
          method: pair.added ? "DELETE" : "POST",
          headers: body ? headers : { authorization: headers.authorization! },
        },
        (response) => {
          const status = response.statusCode ?? 0;
          // Only a refusal's body is read (to report it); a success's is drained unread.
          const chunks: Buffer[] = [];
          if (status < 300) response.resume();
          else response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("end", () => {
            latencies.push(performance.now() - due);
            if (status >= 300) {
              failed++;
              report(status, Buffer.concat(chunks).toString());
            } else {
              pair.added = !pair.added;
            }
            release(pair);
            resolve();
          });
        },
      );
      // As autocannon's runs: an answer later than 10 s counts as a timeout, not a latency.
      let timedOut = false;
      request.setTimeout(10_000, () => {
        timedOut = true;
        timeouts++;
        request.destroy();
      });
      request.on("error", () => {
        if (!timedOut) failed++;
        release(pair);
        resolve();
      });
      request.end(body);
    });
  };
  /** Offers `seconds` of writes and answers how long until the last was answered. */
  const offer = async (seconds: number) => {
    const start = performance.now();
    const inFlight: Array<Promise<void>> = [];
    for (let i = 0; i < seconds * rate; i++) {
      const due = start + (i * 1000) / rate;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      inFlight.push(send(due));
    }
    await Promise.all(inFlight);
    return (performance.now() - start) / 1000;
  };
  await offer(2); // warm-up, as for autocannon's runs
  latencies.length = 0;
  failed = 0;
  timeouts = 0;
  // Answers per second of the whole run, so a server that falls behind shows below the rate.
  const elapsed = await offer(SECONDS);
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    rps: latencies.length / elapsed,
    p50: Math.round(percentile(latencies, 50)),
    p95: Math.round(percentile(latencies, 95)),
    p99: Math.round(percentile(latencies, 99)),
    failed,
    timeouts,
  };
}
