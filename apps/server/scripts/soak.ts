/**
 * `npm run soak`: minutes of mixed load from several virtual users against the real server process
 * (browse the catalog, add to the shared cart, change quantities, remove, read the cart and the
 * summary), sampling the server's resident memory every 10 s. Fails (exit 1) on any error answer
 * or on clear memory growth: after a warm-up (the first 20 %), RSS rising faster than
 * SOAK_MAX_RSS_SLOPE and making new highs, more than 32 MB above the warm-up's highest sample
 * (memory is judged on runs of 2 minutes or more).
 *
 *   SOAK_MINUTES        duration per database (default 10)
 *   SOAK_USERS          virtual users, four to a shared session (default 8)
 *   SOAK_THINK_MS       mean pause between one user's requests (default 50)
 *   SOAK_DATABASE_URL   postgres://… of a server where the script may create a database: runs the
 *                       same soak on PostgreSQL as well, in a fresh `soak_<random>` database that
 *                       it drops afterwards
 *   SOAK_MAX_RSS_SLOPE  MB per minute of RSS growth after warm-up that counts as a leak (default 2)
 *   SOAK_NODE_ARGS      Node options for the server, e.g. "--trace-gc" to tell the JavaScript heap
 *                       from the rest of the memory
 *   SOAK_SERVER_LOG     a file that receives everything the server prints
 */
import { createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { percentile, rssMb, withPostgresDatabase } from "./bench-support.ts";
import { startServer, type ServerProcess } from "./server-process.ts";
import {
  MAX_PER_LINE,
  THINK_MS,
  Stats,
  client,
  formSessions,
  signUp,
  visit,
  type VirtualUser,
} from "./soak-users.ts";

const MINUTES = Number(process.env.SOAK_MINUTES ?? 10);
const USERS = Number(process.env.SOAK_USERS ?? 8);
const DATABASE_URL = process.env.SOAK_DATABASE_URL;
const MAX_SLOPE = Number(process.env.SOAK_MAX_RSS_SLOPE ?? 2);
const SAMPLE_MS = 10_000;
/** Memory samples from the first part of the run (caches filling, JIT) are not judged. */
const WARM_UP_FRACTION = 0.2;
/** MB above the warm-up's highest RSS that count as new highs (garbage collection's noise below). */
const MAX_NEW_HIGH_MB = 32;
/** Shorter runs have too few samples after the warm-up to tell a leak from one refill. */
const MIN_MINUTES_TO_JUDGE_MEMORY = 2;

/** The server under soak: a clean environment (nothing of the shell's), its output kept. */
async function startSoakServer(env: Record<string, string>): Promise<ServerProcess> {
  // One stream keeps the log's lines in order (an append per chunk could reorder them).
  const log = process.env.SOAK_SERVER_LOG
    ? createWriteStream(process.env.SOAK_SERVER_LOG, { flags: "a" })
    : undefined;
  return startServer({
    env,
    nodeArgs: (process.env.SOAK_NODE_ARGS ?? "").split(" ").filter(Boolean),
    ...(log ? { onOutput: (chunk: Buffer) => void log.write(chunk) } : {}),
    timeoutMs: 60_000,
  });
}

/** Least-squares slope of y over x. */
function slope(points: Array<[number, number]>): number {
  const n = points.length;
  if (n < 2) return 0;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const sxy = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const sxx = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  return sxx === 0 ? 0 : sxy / sxx;
}

interface Result {
  database: string;
  minutes: number;
  users: number;
  requests: number;
  errors: number;
  errorSamples: string[];
  rps: number;
  p50: number;
  p99: number;
  max: number;
  byOp: Array<{ op: string; n: number; p99: number }>;
  rss: {
    first: number;
    last: number;
    max: number;
    warmUpMax: number;
    judgedMax: number;
    slopePerMin: number;
    samples: number[];
  };
  leak: boolean;
  memoryJudged: boolean;
  mismatches: string[];
}

async function soak(database: string, env: Record<string, string>): Promise<Result> {
  const server = await startSoakServer(env);
  const stats = new Stats();
  try {
    const setup = client(server.url, undefined);
    const users: VirtualUser[] = [];
    for (let i = 0; i < USERS; i++) users.push(await signUp(setup, server.url, `User${i + 1}`));
    await formSessions(setup, users);
    const { body } = await setup("products", "GET", "/api/products", { token: users[0]!.token });
    const productIds = (body.products as Array<{ _id: string; stock: number }>)
      .filter((p) => p.stock >= MAX_PER_LINE * 4)
      .map((p) => p._id);

    const pid = server.child.pid!;
    const started = Date.now();
    const until = started + MINUTES * 60_000;
    const samples: Array<[number, number]> = [[0, await rssMb(pid)]];
    const sampler = setInterval(() => {
      rssMb(pid)
        .then((mb) => samples.push([(Date.now() - started) / 60_000, mb]))
        .catch(() => {});
    }, SAMPLE_MS);
    const progress = setInterval(() => {
      const minutes = ((Date.now() - started) / 60_000).toFixed(1);
      const last = samples.at(-1)![1].toFixed(0);
      console.info(
        `  ${database}: ${minutes} min, ${stats.latencies.length} requests, ${stats.errors} errors, RSS ${last} MB`,
      );
    }, 60_000);
    const api = client(server.url, stats);
    try {
      await Promise.all(users.map((u) => visit(api, u, productIds, until)));
    } finally {
      clearInterval(sampler);
      clearInterval(progress);
    }
    const seconds = (Date.now() - started) / 1000;
    samples.push([(Date.now() - started) / 60_000, await rssMb(pid)]);

    // The server's carts hold exactly what each user's answers said.
    const mismatches: string[] = [];
    for (const u of users) {
      const { body: cart } = await setup("final cart", "GET", `/api/carts/${u.cartId}`, {
        token: u.token,
      });
      const lines = (
        cart.cart.products as Array<{
          productId: { _id: string };
          addedBy: { _id: string };
          quantity: number;
        }>
      ).filter((l) => l.addedBy._id === u.userId);
      const actual = new Map(lines.map((l) => [l.productId._id, l.quantity]));
      const expected = u.lines;
      for (const id of new Set([...actual.keys(), ...expected.keys()])) {
        if (actual.get(id) !== expected.get(id)) {
          mismatches.push(`${u.name} ${id}: server ${actual.get(id)}, answers ${expected.get(id)}`);
        }
      }
    }

    const warmUp = samples.filter(([t]) => t < MINUTES * WARM_UP_FRACTION);
    const judged = samples.filter(([t]) => t >= MINUTES * WARM_UP_FRACTION);
    const rssValues = samples.map(([, mb]) => mb);
    const slopePerMin = slope(judged.length >= 3 ? judged : samples);
    const first = rssValues[0]!;
    const last = rssValues.at(-1)!;
    const warmUpMax = Math.max(...warmUp.map(([, mb]) => mb));
    const judgedMax = Math.max(...judged.map(([, mb]) => mb));
    // A leak makes new highs. RSS here is a sawtooth: the JavaScript heap (about 50 MB live after
    // each full collection) and PGlite's memory fill up to a level, then a collection hands back
    // 100 MB or more at once, and it fills again. Climbing back to the level the warm-up already
    // reached is that refill, however steep; growing well past it, steadily, is a leak.
    const memoryJudged = MINUTES >= MIN_MINUTES_TO_JUDGE_MEMORY;
    const leak = memoryJudged && slopePerMin > MAX_SLOPE && judgedMax - warmUpMax > MAX_NEW_HIGH_MB;
    const sorted = Float64Array.from(stats.latencies).sort();
    return {
      database,
      minutes: seconds / 60,
      users: USERS,
      requests: stats.latencies.length,
      errors: stats.errors,
      errorSamples: stats.errorSamples,
      rps: stats.latencies.length / seconds,
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      max: sorted.at(-1) ?? 0,
      byOp: [...stats.byOp].map(([op, list]) => ({
        op,
        n: list.length,
        p99: percentile(Float64Array.from(list).sort(), 99),
      })),
      rss: {
        first,
        last,
        max: Math.max(...rssValues),
        warmUpMax,
        judgedMax,
        slopePerMin,
        samples: rssValues,
      },
      leak,
      memoryJudged,
      mismatches,
    };
  } finally {
    await server.stop();
  }
}

function report(r: Result) {
  const f = (x: number) => x.toFixed(0);
  console.info(`\n## ${r.database}: ${r.minutes.toFixed(1)} min, ${r.users} virtual users`);
  console.info(
    `requests ${r.requests} (${r.rps.toFixed(0)}/s), errors ${r.errors}, latency p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms, max ${f(r.max)} ms`,
  );
  console.info(
    `RSS first ${f(r.rss.first)} MB, last ${f(r.rss.last)} MB, highest ${f(r.rss.warmUpMax)} MB in the warm-up and ${f(r.rss.judgedMax)} MB after it, slope after warm-up ${r.rss.slopePerMin.toFixed(2)} MB/min${r.leak ? "  <-- GROWING" : ""}${r.memoryJudged ? "" : ` (memory not judged: runs under ${MIN_MINUTES_TO_JUDGE_MEMORY} min are too short)`}`,
  );
  console.info(`RSS samples (MB, every 10 s): ${r.rss.samples.map(f).join(" ")}`);
  console.info("| operation | requests | p99 ms |\n|---|---|---|");
  for (const o of r.byOp) console.info(`| ${o.op} | ${o.n} | ${o.p99.toFixed(1)} |`);
  for (const e of r.errorSamples) console.error(`error: ${e}`);
  for (const m of r.mismatches.slice(0, 10)) console.error(`cart mismatch: ${m}`);
}

const results: Result[] = [];
const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "cartner-soak-"));
console.info(
  `soak: ${MINUTES} min per database, ${USERS} users, ~${THINK_MS} ms think time; ${os.cpus().length} cores, Node ${process.version}`,
);
try {
  const r = await soak("embedded (PGlite)", { DATA_DIR: path.join(dataDir, "pglite") });
  report(r);
  results.push(r);
  if (DATABASE_URL) {
    const r2 = await withPostgresDatabase(DATABASE_URL, "soak", (url) =>
      soak("PostgreSQL", { DATA_DIR: path.join(dataDir, "pg"), DATABASE_URL: url }),
    );
    report(r2);
    results.push(r2);
  }
} finally {
  await fs.rm(dataDir, { recursive: true, force: true });
}
const failed = results.filter((r) => r.errors > 0 || r.leak || r.mismatches.length > 0);
if (failed.length > 0) {
  console.error(`\nsoak FAILED on ${failed.map((r) => r.database).join(", ")}`);
  process.exitCode = 1;
} else {
  const memory = MINUTES >= MIN_MINUTES_TO_JUDGE_MEMORY ? ", no memory growth" : "";
  console.info(`\nsoak passed: no errors, carts as answered${memory}`);
}
