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
import crypto from "node:crypto";
import { createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { freshPostgresDatabase, mailboxCode, percentile, rssMb } from "./bench-support.ts";
import { startServer, type ServerProcess } from "./server-process.ts";

const MINUTES = Number(process.env.SOAK_MINUTES ?? 10);
const USERS = Number(process.env.SOAK_USERS ?? 8);
const THINK_MS = Number(process.env.SOAK_THINK_MS ?? 50);
const DATABASE_URL = process.env.SOAK_DATABASE_URL;
const MAX_SLOPE = Number(process.env.SOAK_MAX_RSS_SLOPE ?? 2);
const SAMPLE_MS = 10_000;
/** Memory samples from the first part of the run (caches filling, JIT) are not judged. */
const WARM_UP_FRACTION = 0.2;
/** MB above the warm-up's highest RSS that count as new highs (garbage collection's noise below). */
const MAX_NEW_HIGH_MB = 32;
/** Shorter runs have too few samples after the warm-up to tell a leak from one refill. */
const MIN_MINUTES_TO_JUDGE_MEMORY = 2;
/** A user keeps at most this many of a product in its own line (stock allows all users that). */
const MAX_PER_LINE = 5;
const PASSWORD = "soak-marker-2026";
const REQUEST_TIMEOUT_MS = 30_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

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

// ---------------------------------------------------------------------------------------------

class Stats {
  readonly latencies: number[] = [];
  readonly byOp = new Map<string, number[]>();
  errors = 0;
  readonly errorSamples: string[] = [];

  record(op: string, ms: number) {
    this.latencies.push(ms);
    let list = this.byOp.get(op);
    if (!list) this.byOp.set(op, (list = []));
    list.push(ms);
  }

  error(op: string, detail: string) {
    this.errors += 1;
    if (this.errorSamples.length < 10) this.errorSamples.push(`${op}: ${detail}`);
  }
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

interface Api {
  (
    op: string,
    method: string,
    url: string,
    options?: { token?: string; body?: unknown },
  ): Promise<{ status: number; body: any }>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** Every call is timed and counted; any answer but 2xx (or a failed connection) is an error. */
function client(base: string, stats: Stats | undefined): Api {
  return async (op, method, url, options = {}) => {
    const started = performance.now();
    try {
      const res = await fetch(`${base}${url}`, {
        method,
        headers: {
          ...(options.body === undefined ? {} : { "content-type": "application/json" }),
          ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        },
        ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      const text = await res.text();
      stats?.record(op, performance.now() - started);
      if (res.status < 200 || res.status >= 300) {
        stats?.error(op, `${res.status} ${text.slice(0, 200)}`);
        if (!stats) throw new Error(`${op}: ${res.status} ${text}`);
      }
      return { status: res.status, body: text ? JSON.parse(text) : null };
    } catch (error) {
      if (!stats) throw error;
      stats.record(op, performance.now() - started);
      stats.error(op, String(error));
      return { status: 0, body: null };
    }
  };
}

interface VirtualUser {
  name: string;
  email: string;
  userId: string;
  token: string;
  cartId: string;
  sessionId: string;
  /** The user's own lines: product id -> quantity, as the server must have them. */
  lines: Map<string, number>;
}

async function signUp(api: Api, base: string, name: string): Promise<VirtualUser> {
  const email = `soak.${name.toLowerCase()}.${crypto.randomBytes(4).toString("hex")}@example.com`;
  const { body } = await api("register", "POST", "/api/auth/register", {
    body: { name, email, password: PASSWORD },
  });
  const code = await mailboxCode(base, email);
  const verified = await api("verify", "POST", "/api/auth/verify-otp", {
    body: { userId: body.userId, code },
  });
  return {
    name,
    email,
    userId: body.userId,
    token: verified.body.token,
    cartId: "",
    sessionId: "",
    lines: new Map(),
  };
}

/** Sessions of four: the first user creates, the others join by code and are approved. */
async function formSessions(api: Api, users: VirtualUser[]) {
  for (let i = 0; i < users.length; i += 4) {
    const [creator, ...others] = users.slice(i, i + 4);
    const { body } = await api("create session", "POST", "/api/sessions", {
      token: creator!.token,
      body: {
        sessionName: `Soak ${i / 4 + 1}`,
        sessionType: "Friends",
        participants: "3+",
        passcode: "soak",
      },
    });
    const { _id, cartId, sessionCode } = body.session;
    for (const u of [creator!, ...others]) Object.assign(u, { sessionId: _id, cartId });
    for (const u of others) {
      await api("join", "POST", "/api/sessions/join/code", {
        token: u.token,
        body: { sessionCode, passcode: "soak" },
      });
      await api("approve", "POST", `/api/sessions/approve/${sessionCode}`, {
        token: creator!.token,
        body: { userId: u.userId },
      });
    }
  }
}

const QUERIES = [
  "",
  "?sort=price_asc",
  "?sort=rating",
  "?category=Electronics",
  "?category=Groceries&category=Drinks",
  "?q=tea",
  "?minPrice=5&maxPrice=50&sort=price_desc",
  "?limit=12&offset=12",
];
const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)]!;

/** One user's endless visit: mostly browsing and reading, a third cart writes. */
async function visit(api: Api, user: VirtualUser, productIds: string[], until: number) {
  let refreshAt = Date.now() + 10 * 60_000; // tokens live 15 minutes
  while (Date.now() < until) {
    const auth = { token: user.token };
    const roll = Math.random();
    const own = [...user.lines.keys()];
    if (Date.now() > refreshAt) {
      const { body } = await api("refresh token", "POST", "/api/auth/refresh-token", auth);
      if (body?.token) user.token = body.token;
      refreshAt = Date.now() + 10 * 60_000;
    } else if (roll < 0.2) {
      await api("browse products", "GET", `/api/products${pick(QUERIES)}`, auth);
    } else if (roll < 0.3) {
      await api("product detail", "GET", `/api/products/${pick(productIds)}`, auth);
    } else if (roll < 0.45) {
      const productId = pick(productIds);
      const has = user.lines.get(productId) ?? 0;
      if (has < MAX_PER_LINE) {
        const { status } = await api("add to cart", "POST", `/api/carts/${user.cartId}/product`, {
          ...auth,
          body: { productId, quantity: 1 },
        });
        if (status === 200) user.lines.set(productId, has + 1);
      }
    } else if (roll < 0.57 && own.length > 0) {
      const productId = pick(own);
      const has = user.lines.get(productId)!;
      const change = has >= MAX_PER_LINE ? -1 : Math.random() < 0.5 ? 1 : -1;
      const { status } = await api(
        "change quantity",
        "PATCH",
        `/api/carts/${user.cartId}/quantity`,
        {
          ...auth,
          body: { productId, change },
        },
      );
      // Minus at 1 does nothing (SPEC).
      if (status === 200) user.lines.set(productId, Math.max(1, has + change));
    } else if (roll < 0.62 && own.length > 0) {
      const productId = pick(own);
      const { status } = await api(
        "remove line",
        "DELETE",
        `/api/carts/${user.cartId}/product/${productId}`,
        auth,
      );
      if (status === 200) user.lines.delete(productId);
    } else if (roll < 0.82) {
      await api("read cart", "GET", `/api/carts/${user.cartId}`, auth);
    } else if (roll < 0.94) {
      await api("summary", "GET", `/api/sessions/${user.sessionId}/summary`, auth);
    } else {
      await api("my carts", "GET", "/api/carts", auth);
    }
    await sleep(Math.random() * 2 * THINK_MS);
  }
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

async function withPostgresDatabase<T>(adminUrl: string, run: (url: string) => Promise<T>) {
  const fresh = await freshPostgresDatabase(adminUrl, "soak");
  try {
    return await run(fresh.url);
  } finally {
    await fresh.drop();
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
    const r2 = await withPostgresDatabase(DATABASE_URL, (url) =>
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
