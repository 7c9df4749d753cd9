/**
 * `npm run bench`: API throughput and latency with autocannon, each route next to a bare Fastify
 * route measured in the same run. The server runs as its own process, as `npm start` runs it.
 * BENCH_SECONDS (default 10) sets the duration per route; BENCH_DATABASE_URL also runs everything
 * against PostgreSQL (in a fresh database it creates there and drops afterwards); BENCH_ONLY picks
 * routes by name; BENCH_ORIGIN measures a deployment that is already running (docs/deploy.md);
 * BENCH_INSTANCES=2 runs the PostgreSQL part with two instances on that database and adds writes
 * on 50 carts through one instance and through both. BENCH_INSTANCE_CPU=0.4 caps each server
 * instance at that many cores (a cgroup quota; root), as if each ran on a host of its own.
 * Search at 50,000 products runs on a server of its own per database, after importing a generated
 * feed of that size (bench-search.ts); BENCH_ONLY=50,000 runs only it.
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { loadConfig } from "../src/config.ts";
import {
  CONNECTIONS,
  INSTANCE_CPU,
  SECONDS,
  STEADY_RATES,
  loadBenchEnv,
  report,
  run,
  runAcross,
  steadyWrites,
  type Requests,
} from "./bench-load.ts";
import { browsePaths, cpuMs, importFixture, searchPaths, SEARCH_ROWS } from "./bench-search.ts";
import {
  benchOrders,
  rssMb,
  signUp,
  benchNodeArgs,
  capCpu,
  startBare,
  withPostgresDatabase,
} from "./bench-support.ts";
import { startServer, stopProcess, type ServerProcess } from "./server-process.ts";

interface Row {
  database: string;
  route: string;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  /** The bare route's req/s just before; none for steady rates (a fixed rate has no ratio). */
  bareRps?: number;
  failed: number;
  /** Requests not answered within 10 s (autocannon's limit, and steadyWrites'). */
  timeouts: number;
}

const wanted = (name: string) => {
  const only = loadBenchEnv().BENCH_ONLY;
  return !only || name.includes(only);
};

const SEARCH_ROUTE = `GET /api/products?q= (${SEARCH_ROWS.toLocaleString("en")} products, ${searchPaths().length.toLocaleString("en")} different searches)`;
const BROWSE_ROUTE = `GET /api/products?category=&minPrice=&sort= (${SEARCH_ROWS.toLocaleString("en")} products, no words)`;
/** What the search runs measured besides latency, printed under the table. */
const searchNotes: string[] = [];

/**
 * Search at 50,000 products: the feed imported into a database of its own before its server
 * starts, then the first catalog read (the server loads the catalog and its index), the server's
 * memory, and searches and browsing with many different queries, each next to the bare route.
 */
async function benchSearch(database: string, env: Record<string, string>): Promise<Row[]> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "cartner-bench-search-"));
  const bare = await startBare();
  let server: ServerProcess | undefined;
  try {
    const own = { ...env, DATA_DIR: dir };
    const importSeconds = await importFixture(dir, own, loadConfig().currency);
    server = await startServer({
      env: own,
      inheritEnv: true,
      output: "show",
      nodeArgs: benchNodeArgs(),
    });
    const base = server.url;
    const { token } = await signUp(base);
    const auth = { authorization: `Bearer ${token}`, "accept-encoding": "gzip, deflate, br" };
    const rssBefore = await rssMb(server.child.pid!);
    const loadStarted = performance.now();
    const first = await fetch(`${base}/api/products?limit=1`, { headers: auth });
    const { total } = (await first.json()) as { total: number };
    const loadMs = performance.now() - loadStarted;
    const rssAfter = await rssMb(server.child.pid!);
    searchNotes.push(
      `${database}: import of ${SEARCH_ROWS.toLocaleString("en")} rows ${importSeconds.toFixed(1)} s; ` +
        `first catalog read (load and index ${total.toLocaleString("en")} products on sale) ${Math.round(loadMs)} ms; ` +
        `server RSS ${Math.round(rssBefore)} MB before it, ${Math.round(rssAfter)} MB after`,
    );
    const rows: Row[] = [];
    for (const [name, paths] of [
      [SEARCH_ROUTE, searchPaths()],
      [BROWSE_ROUTE, browsePaths()],
    ] as const) {
      if (!wanted(name)) continue;
      const bareResult = await run(bare.url);
      let next = 0;
      const requests: Requests = [
        {
          setupRequest: (request) => ({ ...request, path: paths[next++ % paths.length]! }),
          onResponse: (status, body) => report(status, body),
        },
      ];
      const cpuBefore = await cpuMs(server.child.pid!);
      const result = await run(`${base}/api/products`, auth, requests);
      const cpu = (await cpuMs(server.child.pid!)) - cpuBefore;
      rows.push({ database, route: name, ...result, bareRps: bareResult.rps });
      // The server's own CPU time per answer (the warm-up's answers counted too): what the route
      // costs whatever else the machine runs, which the latencies of a busy machine do not show.
      const answers = result.rps * (SECONDS + 2);
      searchNotes.push(
        `${database}, ${name}: about ${(cpu / answers).toFixed(2)} ms of server CPU per answer`,
      );
    }
    searchNotes.push(
      `${database}: server RSS after the searches ${Math.round(await rssMb(server.child.pid!))} MB`,
    );
    return rows;
  } finally {
    await Promise.all([server?.stop(), stopProcess(bare.child)]);
    await fs.rm(dir, { recursive: true, force: true });
  }
}

async function benchServer(
  database: string,
  env: Record<string, string>,
  instances = 1,
): Promise<Row[]> {
  const bare = await startBare();
  const servers: ServerProcess[] = [];
  const uncaps: Array<() => Promise<void>> = [];
  try {
    // One after the other: the first applies the migrations, the next find them done.
    for (let k = 0; k < instances; k++) {
      const server = await startServer({
        env,
        inheritEnv: true,
        output: "show",
        nodeArgs: benchNodeArgs(),
      });
      servers.push(server);
      if (INSTANCE_CPU) {
        uncaps.push(await capCpu(server.child.pid!, INSTANCE_CPU, `cartner-bench-${server.port}`));
      }
    }
    return await benchRoutes(
      database,
      servers.map((server) => server.url),
      bare.url,
    );
  } finally {
    // All gone before the next database's run, or its data is removed.
    await Promise.all([...servers.map((server) => server.stop()), stopProcess(bare.child)]);
    await Promise.all(uncaps.map((uncap) => uncap()));
  }
}

/**
 * Every route against a server already running at `bases[0]` (ours, or a load balancer before
 * several); with more bases (instances on one database), also the writes spread over all of them.
 */
async function benchRoutes(database: string, bases: string[], bareUrl: string): Promise<Row[]> {
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
  /** One route through `targets` (the first instance unless told), next to the bare route. */
  const measure = async (name: string, url: string, requests?: Requests, targets = [base]) => {
    if (!wanted(name)) return;
    // The yardstick is measured right before each route, so both see the same machine state.
    const bareResult = await run(bareUrl);
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
  // A session write other than a line's (writeSession(): the locks, the gate, the entry, the
  // version): the creator's ready mark, on and off, on the session of ten lines.
  const ready = (on: boolean) => ({
    method: "PUT" as const,
    headers: json,
    body: JSON.stringify({ ready: on }),
    onResponse: report,
  });
  await measure("PUT /api/sessions/:id/ready (on, off)", `/api/sessions/${session._id}/ready`, [
    ready(true),
    ready(false),
  ]);
  await measure("GET /api/carts/:id (10 lines)", `/api/carts/${session.cartId}`);
  await measure("GET /api/sessions/:id/summary", `/api/sessions/${session._id}/summary`);
  // Money: five orders of two people, each partly settled; the order page and the balances.
  if (wanted("GET /api/orders/:id") || wanted("GET /api/balances")) {
    const orderId = await benchOrders(base, auth, stocked, 5);
    await measure("GET /api/orders/:id (two shares, paid and open)", `/api/orders/${orderId}`);
    await measure("GET /api/balances (five orders)", "/api/balances");
    await measure("GET /api/balances/settle-plan (five orders)", "/api/balances/settle-plan");
  }
  return rows;
}

loadConfig(); // fail early on a broken environment, as the server would
const rows: Row[] = [];
const origin = loadBenchEnv().BENCH_ORIGIN?.replace(/\/$/, "");
if (origin) {
  // A running deployment (docs/deploy.md): only the bare route is started here, as a yardstick.
  const bare = await startBare();
  try {
    rows.push(...(await benchRoutes(origin, [origin], bare.url)));
  } finally {
    await stopProcess(bare.child);
  }
} else {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "cartner-bench-"));
  try {
    const searching = wanted(SEARCH_ROUTE) || wanted(BROWSE_ROUTE);
    rows.push(...(await benchServer("embedded (PGlite)", { DATA_DIR: dataDir })));
    if (searching) rows.push(...(await benchSearch("embedded (PGlite)", {})));
    const pgUrl = loadBenchEnv().BENCH_DATABASE_URL;
    if (pgUrl) {
      const instances = Number(loadBenchEnv().BENCH_INSTANCES ?? 1);
      rows.push(
        ...(await withPostgresDatabase(pgUrl, "cartner_bench", (url) =>
          benchServer("PostgreSQL", { DATA_DIR: dataDir, DATABASE_URL: url }, instances),
        )),
      );
      if (searching) {
        rows.push(
          ...(await withPostgresDatabase(pgUrl, "cartner_bench_search", (url) =>
            benchSearch("PostgreSQL", { DATABASE_URL: url }),
          )),
        );
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
  "| database | route | req/s | p50 ms | p95 ms | p99 ms | bare route req/s | ratio | errors | timeouts |",
);
console.info("|---|---|---|---|---|---|---|---|---|---|");
for (const r of rows) {
  console.info(
    `| ${r.database} | ${r.route} | ${Math.round(r.rps)} | ${r.p50} | ${r.p95} | ${r.p99} | ${r.bareRps ? Math.round(r.bareRps) : "—"} | ${r.bareRps && !INSTANCE_CPU ? `${Math.round((r.rps / r.bareRps) * 100)} %` : "—"} | ${r.failed} | ${r.timeouts} |`,
  );
}
for (const note of searchNotes) console.info(`\n${note}`);
if (rows.some((r) => r.failed > 0)) {
  console.error("Some requests got errors or non-2xx answers: the figures above are not valid.");
  process.exitCode = 1;
}
