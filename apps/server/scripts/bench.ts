/**
 * `npm run bench`: API throughput and latency with autocannon, each route next to a bare Fastify
 * route measured in the same run. The server runs as its own process, as `npm start` runs it.
 * BENCH_SECONDS (default 10) sets the duration per route; BENCH_DATABASE_URL also runs everything
 * against PostgreSQL (in a fresh database it creates there and drops afterwards); BENCH_ONLY picks
 * routes by name; BENCH_ORIGIN measures a deployment that is already running (docs/deploy.md);
 * BENCH_INSTANCES=2 runs the PostgreSQL part with two instances on that database and adds writes
 * on 50 carts through one instance and through both. BENCH_INSTANCE_CPU=0.4 caps each server
 * instance at that many cores (a cgroup quota; root), as if each ran on a host of its own.
 */
import fs from "node:fs/promises";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { loadConfig } from "../src/config.ts";
import {
  freshPostgresDatabase,
  percentile,
  signUp,
  benchNodeArgs,
  capCpu,
  start,
  waitFor,
} from "./bench-support.ts";
import { startServer, stopProcess, type ServerProcess } from "./server-process.ts";

const SECONDS = Number(loadBenchEnv().BENCH_SECONDS ?? 10);
/** Cores each server instance may use (BENCH_INSTANCE_CPU); none: no cap. */
const INSTANCE_CPU = instanceCpu();
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
/** Write rates (requests per second) measured as a steady, evenly spaced stream. */
const STEADY_RATES = [100, 400];

function loadBenchEnv() {
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

type Requests = autocannon.Options["requests"];

let reported = 0;
/** Shows the first few failed answers, so a failing figure explains itself. */
function report(status: number, body: string) {
  if (status < 300 || reported >= 5) return;
  reported++;
  console.error(`bench: ${status} ${body.slice(0, 300)}`);
}

async function run(url: string, headers: Record<string, string> = {}, requests?: Requests) {
  return runAcross([url], headers, requests);
}

/**
 * The same load spread over several instances at once (CONNECTIONS in all, shared evenly): the
 * answers per second add up; p50 and p99 are the slowest instance's (autocannon reports
 * percentiles per run, which cannot be merged exactly).
 */
async function runAcross(urls: string[], headers: Record<string, string>, requests?: Requests) {
  const once = (duration: number) =>
    Promise.all(
      urls.map((url, i) => {
        const connections =
          Math.floor(CONNECTIONS / urls.length) + (i < CONNECTIONS % urls.length ? 1 : 0);
        return autocannon({
          url,
          connections,
          headers,
          duration,
          ...(requests ? { requests } : {}),
        });
      }),
    );
  // A short warm-up lets the JIT and the caches settle before measuring.
  await once(2);
  const results = await once(SECONDS);
  const sum = (pick: (r: autocannon.Result) => number) =>
    results.reduce((total, r) => total + pick(r), 0);
  return {
    rps: sum((r) => r.requests.average),
    p50: Math.max(...results.map((r) => r.latency.p50)),
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
async function steadyWrites(
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
    p99: Math.round(percentile(latencies, 99)),
    failed,
    timeouts,
  };
}

interface Row {
  database: string;
  route: string;
  rps: number;
  p50: number;
  p99: number;
  /** The bare route's req/s just before; none for steady rates (a fixed rate has no ratio). */
  bareRps?: number;
  failed: number;
  /** Requests not answered within 10 s (autocannon's limit, and steadyWrites'). */
  timeouts: number;
}

async function benchServer(
  database: string,
  env: Record<string, string>,
  instances = 1,
): Promise<Row[]> {
  // 3198 is the bare route's; more instances take 3200 and up.
  const ports = Array.from({ length: instances }, (_, k) => (k === 0 ? 3196 : 3199 + k));
  const bare = start("bare-server.ts", ["3198"]);
  const servers: ServerProcess[] = [];
  const uncaps: Array<() => Promise<void>> = [];
  try {
    // One after the other: the first applies the migrations, the next find them done.
    for (const port of ports) {
      const server = await startServer({
        port,
        env,
        inheritEnv: true,
        output: "show",
        nodeArgs: benchNodeArgs(),
      });
      servers.push(server);
      if (INSTANCE_CPU) {
        uncaps.push(await capCpu(server.child.pid!, INSTANCE_CPU, `cartner-bench-${port}`));
      }
    }
    await waitFor("http://127.0.0.1:3198/bare", bare);
    return await benchRoutes(
      database,
      ports.map((port) => `http://127.0.0.1:${port}`),
    );
  } finally {
    // All gone before the next database's run takes the same ports, or its data is removed.
    await Promise.all([...servers.map((server) => server.stop()), stopProcess(bare)]);
    await Promise.all(uncaps.map((uncap) => uncap()));
  }
}

/**
 * Every route against a server already running at `bases[0]` (ours, or a load balancer before
 * several); with more bases (instances on one database), also the writes spread over all of them.
 */
async function benchRoutes(database: string, bases: string[]): Promise<Row[]> {
  const base = bases[0]!;
  const { token } = await signUp(base);
  // As a browser asks: signed in, accepting gzip.
  const auth = { authorization: `Bearer ${token}`, "accept-encoding": "gzip, deflate, br" };
  const routes: Array<[string, string]> = [
    ["GET /api/products", "/api/products"],
    [
      "GET /api/products?q=&category=&sort=",
      "/api/products?q=a&category=Electronics&category=Beauty&sort=price_asc",
    ],
  ];
  const rows: Row[] = [];
  const wanted = (name: string) => {
    const only = loadBenchEnv().BENCH_ONLY;
    return !only || name.includes(only);
  };
  /** One route through `targets` (the first instance unless told), next to the bare route. */
  const measure = async (name: string, url: string, requests?: Requests, targets = [base]) => {
    if (!wanted(name)) return;
    // The yardstick is measured right before each route, so both see the same machine state.
    const bareResult = await run("http://127.0.0.1:3198/bare");
    const result = await runAcross(
      targets.map((target) => `${target}${url}`),
      auth,
      requests,
    );
    rows.push({ database, route: name, ...result, bareRps: bareResult.rps });
  };
  for (const [name, url] of routes) await measure(name, url);

  // A session whose cart holds ten lines, for the cart routes.
  const json = { ...auth, "content-type": "application/json" };
  const { session } = (await (
    await fetch(`${base}/api/sessions`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ sessionName: "Bench", sessionType: "Friends", participants: "3+" }),
    })
  ).json()) as { session: { _id: string; cartId: string } };
  const { products } = (await (await fetch(`${base}/api/products`, { headers: auth })).json()) as {
    products: Array<{ _id: string; stock: number }>;
  };
  const stocked = products.filter((p) => p.stock >= 5);
  for (const p of stocked.slice(0, 10)) {
    await fetch(`${base}/api/carts/${session.cartId}/product`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ productId: p._id, quantity: 2 }),
    });
  }
  /**
   * Writes as autocannon requests: each connection adds its own product to its own cart and
   * removes it again, so every write is valid. `carts` new Solo sessions give the (cart, product)
   * pairs, each cart with up to `perCart` products; there must be enough for 50 connections also
   * after each warm-up's and run's last unfinished rounds strand up to 50 pairs each (the rows
   * using one load share its pairs).
   */
  const writeLoad = async (carts: number, perCart: number) => {
    const pairs: Array<{ cartId: string; productId: string }> = [];
    for (let i = 0; i < carts; i++) {
      const { session: extra } = (await (
        await fetch(`${base}/api/sessions`, {
          method: "POST",
          headers: json,
          body: JSON.stringify({
            sessionName: `Bench ${i}`,
            sessionType: "Solo",
            participants: "1",
          }),
        })
      ).json()) as { session: { cartId: string } };
      for (const p of stocked.slice(0, perCart)) {
        pairs.push({ cartId: extra.cartId, productId: p._id });
      }
    }
    // autocannon clears a connection's context at the end of each POST+DELETE round, so a pair
    // is taken from the free pool for one round and given back when its DELETE is answered: no
    // two connections ever work on the same line.
    type Pair = { cartId: string; productId: string };
    const free = [...pairs];
    const own = (context: object) => {
      const c = context as { pair?: Pair };
      c.pair ??= free.shift();
      if (!c.pair) throw new Error("bench: more connections than (cart, product) pairs");
      return c.pair;
    };
    const requests: Requests = [
      {
        method: "POST",
        setupRequest: (request, context) => {
          const pair = own(context);
          return {
            ...request,
            path: `/api/carts/${pair.cartId}/product`,
            headers: json,
            body: JSON.stringify({ productId: pair.productId }),
          };
        },
        onResponse: (status, body) => report(status, body),
      },
      {
        method: "DELETE",
        setupRequest: (request, context) => {
          const pair = own(context);
          return { ...request, path: `/api/carts/${pair.cartId}/product/${pair.productId}` };
        },
        onResponse: (status, body, context) => {
          report(status, body);
          const c = context as { pair?: Pair };
          if (c.pair) free.push(c.pair);
          c.pair = undefined;
        },
      },
    ];
    return { pairs, requests };
  };
  // Six carts: several writers wait for each cart's row lock, as in a busy shared cart.
  const { pairs, requests: writes } = await writeLoad(6, stocked.length);
  // Scale-out: the same writes over 50 carts (as many shoppers in many sessions, where one cart's
  // row lock is not what limits), through one instance and then through all of them. Set up
  // here, before any write row: a fetch sent right after autocannon's write run hung in this
  // process (the server, asked the same by curl meanwhile, answered at once).
  const spread = bases.length > 1 ? await writeLoad(50, 6) : undefined;
  // As fast as answers come (throughput), then at steady rates (the latency a shopper sees
  // while the server is busy but not saturated).
  const writeUrl = `/api/carts/${session.cartId}/product`;
  await measure("POST add to cart + DELETE line (alternating)", writeUrl, writes);
  if (spread) {
    await measure("POST add + DELETE on 50 carts, 1 instance", writeUrl, spread.requests);
    const all = `POST add + DELETE on 50 carts, ${bases.length} instances`;
    await measure(all, writeUrl, spread.requests, bases);
  }
  for (const rate of STEADY_RATES) {
    const name = `POST add + DELETE at a steady ${rate} req/s`;
    if (!wanted(name)) continue;
    rows.push({ database, route: name, ...(await steadyWrites(base, json, pairs, rate)) });
  }
  await measure("GET /api/carts/:id (10 lines)", `/api/carts/${session.cartId}`);
  await measure("GET /api/sessions/:id/summary", `/api/sessions/${session._id}/summary`);
  return rows;
}

loadConfig(); // fail early on a broken environment, as the server would
const rows: Row[] = [];
const origin = loadBenchEnv().BENCH_ORIGIN?.replace(/\/$/, "");
if (origin) {
  // A running deployment (docs/deploy.md): only the bare route is started here, as a yardstick.
  const bare = start("bare-server.ts", ["3198"]);
  try {
    await waitFor("http://127.0.0.1:3198/bare", bare);
    rows.push(...(await benchRoutes(origin, [origin])));
  } finally {
    await stopProcess(bare);
  }
} else {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "cartner-bench-"));
  try {
    rows.push(...(await benchServer("embedded (PGlite)", { DATA_DIR: dataDir })));
    const pgUrl = loadBenchEnv().BENCH_DATABASE_URL;
    if (pgUrl) {
      const fresh = await freshPostgresDatabase(pgUrl);
      try {
        const instances = Number(loadBenchEnv().BENCH_INSTANCES ?? 1);
        rows.push(
          ...(await benchServer(
            "PostgreSQL",
            { DATA_DIR: dataDir, DATABASE_URL: fresh.url },
            instances,
          )),
        );
      } finally {
        await fresh.drop();
      }
    }
  } finally {
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

console.info(
  `\n${os.cpus().length} cores, ${os.cpus()[0]?.model}, Node ${process.version}, ${CONNECTIONS} connections, ${SECONDS} s per route${INSTANCE_CPU ? `, each server instance capped at ${INSTANCE_CPU} cores (no ratio: the bare route is not)` : ""}\n`,
);
console.info(
  "| database | route | req/s | p50 ms | p99 ms | bare route req/s | ratio | errors | timeouts |",
);
console.info("|---|---|---|---|---|---|---|---|---|");
for (const r of rows) {
  console.info(
    `| ${r.database} | ${r.route} | ${Math.round(r.rps)} | ${r.p50} | ${r.p99} | ${r.bareRps ? Math.round(r.bareRps) : "—"} | ${r.bareRps && !INSTANCE_CPU ? `${Math.round((r.rps / r.bareRps) * 100)} %` : "—"} | ${r.failed} | ${r.timeouts} |`,
  );
}
if (rows.some((r) => r.failed > 0)) {
  console.error("Some requests got errors or non-2xx answers: the figures above are not valid.");
  process.exitCode = 1;
}
