/**
 * `npm run bench:history`: the reads of a group after three years of weekly shops, with autocannon
 * at 50 connections, next to a bare Fastify route measured in the same run. The data is built
 * fast: ten thousand accounts are inserted directly; four orders of the group of six (40 lines
 * each, then paid, confirmed, settled in cash, adjusted and settled by a transfer) are placed
 * through the API, so every row is what the app writes; then each of the 152 older weeks is a
 * copy of one of them made in SQL, its ids, times and sequence numbers moved (the ledger's
 * entries, the activity and the notifications with them). BENCH_SECONDS (default 10) sets the
 * duration per route; BENCH_DATABASE_URL also runs everything against PostgreSQL (in a fresh
 * database created there and dropped afterwards); BENCH_ONLY picks routes by name;
 * BENCH_SERVER=<checkout>/apps/server/src/main.ts runs another checkout's server.
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import pg from "pg";
import { loadConfig } from "../src/config.ts";
import { CONNECTIONS, SECONDS, loadBenchEnv, report } from "./bench-load.ts";
import { cpuMs } from "./bench-search.ts";
import {
  benchNodeArgs,
  percentile,
  start,
  waitFor,
  withPostgresDatabase,
} from "./bench-support.ts";
import {
  LINES,
  USERS,
  WEEKS,
  buildGroup,
  buildHistory,
  caller,
  withDatabase,
  type Call,
  type Group,
  type Member,
} from "./history-data.ts";
import { freePort, startServer, stopProcess } from "./server-process.ts";

interface Row {
  database: string;
  route: string;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  bareRps: number;
  /** The server process's CPU time (user and system) per answer, in ms. */
  cpuPerAnswer: number;
  /** PostgreSQL's: its backends serving the bench's database (NaN on the embedded one). */
  dbCpuPerAnswer: number;
  failed: number;
}

/**
 * The CPU time so far (ms) of each PostgreSQL backend serving the database at `url` but this
 * query's own (the server's pool; PostgreSQL runs on this machine).
 */
async function backendsCpu(url: string): Promise<Map<number, number>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>(
      "select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()",
    );
    const cpu = new Map<number, number>();
    for (const { pid } of rows) cpu.set(pid, await cpuMs(pid).catch(() => 0));
    return cpu;
  } finally {
    await client.end();
  }
}

/** What the backends spent between two readings (a backend started meanwhile: all of it). */
const spent = (before: Map<number, number>, after: Map<number, number>) =>
  [...after].reduce((sum, [pid, ms]) => sum + ms - (before.get(pid) ?? 0), 0);

/**
 * autocannon at CONNECTIONS for SECONDS (after a 2 s warm-up), with p95 from every answer and,
 * given the server's pid, its CPU time per answer (which holds on a busy machine, latency not),
 * and given its PostgreSQL database, the database's.
 */
async function measureUrl(
  url: string,
  headers: Record<string, string> = {},
  pid?: number,
  databaseUrl?: string,
) {
  const once = (duration: number) =>
    new Promise<{ result: autocannon.Result; times: number[] }>((resolve, reject) => {
      const times: number[] = [];
      const instance = autocannon(
        { url, connections: CONNECTIONS, headers, duration },
        (error, result) => (error ? reject(error) : resolve({ result, times })),
      );
      instance.on("response", (_client, status, _bytes, time) => {
        if (status < 300) times.push(time);
        else report(status, "");
      });
    });
  // The embedded database answers one query at a time: what a run left queued is answered
  // before the next run starts, or the next would measure the wait for it.
  const drained = () => fetch(url, { headers });
  await once(2);
  await drained();
  const cpuBefore = pid === undefined ? 0 : await cpuMs(pid);
  const dbBefore = databaseUrl ? await backendsCpu(databaseUrl) : undefined;
  const { result, times } = await once(SECONDS);
  await drained();
  const cpu = pid === undefined ? 0 : await cpuMs(pid);
  const dbCpu = dbBefore && databaseUrl ? spent(dbBefore, await backendsCpu(databaseUrl)) : NaN;
  const answers = result.requests.total + 1;
  times.sort((a, b) => a - b);
  return {
    cpuPerAnswer: (cpu - cpuBefore) / answers,
    dbCpuPerAnswer: dbCpu / answers,
    rps: result.requests.average,
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    p99: percentile(times, 99),
    failed: result.errors + result.non2xx + result.timeouts,
  };
}

async function benchDatabase(name: string, env: Record<string, string>): Promise<Row[]> {
  const port = await freePort();
  const main = loadBenchEnv().BENCH_SERVER;
  const first = await startServer({ port, env, inheritEnv: true, output: "show", main });
  let group: Group;
  try {
    group = await buildGroup(first.url);
  } finally {
    await first.stop();
  }
  await withDatabase(env, (database) => buildHistory(database, group));
  const barePort = await freePort(3400, 3499);
  const bare = start("bare-server.ts", [String(barePort)]);
  const server = await startServer({
    port,
    env,
    inheritEnv: true,
    output: "show",
    nodeArgs: benchNodeArgs(),
    main,
  });
  try {
    await waitFor(`http://127.0.0.1:${barePort}/bare`, bare);
    const me = group.members[1]!;
    const auth = { authorization: `Bearer ${me.token}`, "accept-encoding": "gzip, deflate, br" };
    const call = caller(server.url);
    const { orders } = (await call(me, "GET", "/api/orders?limit=10")) as {
      orders: Array<{ _id: string; sessionId: string }>;
    };
    const order = orders[0]!;
    await checkShares(call, me, orders);
    const routes: Array<[string, string]> = [
      ["GET /api/orders (My Orders, first page)", "/api/orders"],
      ["GET /api/orders?limit=10 (a first page of 10)", "/api/orders?limit=10"],
      ["GET /api/balances", "/api/balances"],
      ["GET /api/balances/settle-plan", "/api/balances/settle-plan"],
      ["GET /api/orders/:id (40 lines, six shares)", `/api/orders/${order._id}`],
      ["GET /api/sessions/:id/activity", `/api/sessions/${order.sessionId}/activity`],
      ["GET /api/notifications", "/api/notifications"],
      ["GET /api/orders/export.csv (every order)", "/api/orders/export.csv"],
    ];
    const only = loadBenchEnv().BENCH_ONLY;
    const rows: Row[] = [];
    for (const [route, p] of routes) {
      if (only && !route.includes(only)) continue;
      const bareResult = await measureUrl(`http://127.0.0.1:${barePort}/bare`);
      const result = await measureUrl(
        `${server.url}${p}`,
        auth,
        server.child.pid,
        env.DATABASE_URL,
      );
      rows.push({ database: name, route, ...result, bareRps: bareResult.rps });
    }
    return rows;
  } finally {
    await Promise.all([server.stop(), stopProcess(bare)]);
  }
}

/**
 * The copies are the app's own rows: on a few orders, the shares add up to the order's total to
 * the cent; refuses to measure otherwise.
 */
async function checkShares(call: Call, me: Member, orders: Array<{ _id: string }>): Promise<void> {
  for (const { _id } of orders.slice(0, 3).concat(orders.slice(-2))) {
    const { order } = (await call(me, "GET", `/api/orders/${_id}`)) as {
      order: { total: number; split: Array<{ total: number }> };
    };
    const cents = (n: number) => Math.round(n * 100);
    const sum = order.split.reduce((a, s) => a + cents(s.total), 0);
    if (sum !== cents(order.total)) {
      throw new Error(`bench: order ${_id}: shares add up to ${sum} cents, not ${order.total}`);
    }
  }
}

loadConfig(); // fail early on a broken environment, as the server would
const rows: Row[] = [];
const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "cartner-history-"));
try {
  rows.push(...(await benchDatabase("embedded (PGlite)", { DATA_DIR: dataDir })));
  const pgUrl = loadBenchEnv().BENCH_DATABASE_URL;
  if (pgUrl) {
    const pgDir = await fs.mkdtemp(path.join(os.tmpdir(), "cartner-history-pg-"));
    try {
      rows.push(
        ...(await withPostgresDatabase(pgUrl, "cartner_history", (url) =>
          benchDatabase("PostgreSQL", { DATA_DIR: pgDir, DATABASE_URL: url }),
        )),
      );
    } finally {
      await fs.rm(pgDir, { recursive: true, force: true });
    }
  }
} finally {
  await fs.rm(dataDir, { recursive: true, force: true });
}

console.info(
  `\n${os.cpus().length} cores, ${os.cpus()[0]?.model}, Node ${process.version}, ${CONNECTIONS} connections, ${SECONDS} s per route; one of a group of six with ${WEEKS} weekly orders of ${LINES} lines among ${USERS} accounts\n`,
);
const ms = (n: number) => (Number.isNaN(n) ? "—" : n.toFixed(1));
const ms2 = (n: number) => (Number.isNaN(n) ? "—" : n.toFixed(2));
console.info(
  "| database | route | req/s | p50 ms | p95 ms | p99 ms | server CPU ms per answer | PostgreSQL CPU ms per answer | bare route req/s | errors |",
);
console.info("|---|---|---|---|---|---|---|---|---|---|");
for (const r of rows) {
  console.info(
    `| ${r.database} | ${r.route} | ${Math.round(r.rps)} | ${ms(r.p50)} | ${ms(r.p95)} | ${ms(r.p99)} | ${r.cpuPerAnswer.toFixed(2)} | ${ms2(r.dbCpuPerAnswer)} | ${Math.round(r.bareRps)} | ${r.failed} |`,
  );
}
if (rows.some((r) => r.failed > 0)) {
  console.error("Some requests got errors or non-2xx answers: the figures above are not valid.");
  process.exitCode = 1;
}
