/**
 * The light queries of balances, the settle plan and the CSV of all orders, timed in process on
 * bench:history's data (history-data.ts: one of a group of six with 156 weekly orders among ten
 * thousand accounts): as they were before decision 061 (the ids and versions of every order of
 * the reader, and of each person of the plan's pairs of others) and as the server runs them now
 * (the people's marks). A diagnostic, not a benchmark of the routes: each statement goes through
 * Database.prepared, as the server sends it, the old and the new taken in turn, LIGHT_RUNS times
 * (default 300) after a warm-up; then EXPLAIN ANALYZE of each, LIGHT_EXPLAINS times (default 30),
 * its median planning and execution times; and what marking the group's six people costs a
 * writing transaction (order_mark(), each call its own transaction). LIGHT_DATABASE_URL (an administrator's URL of a
 * PostgreSQL) also measures on a fresh database there, dropped afterwards.
 * `node apps/server/scripts/light-query-times.ts`
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { sql, type SQL } from "drizzle-orm";
import { loadConfig } from "../src/config.ts";
import type { Database } from "../src/db/client.ts";
import { balancesLight } from "../src/features/orders/balances/balances.ts";
import {
  beyondRefs,
  currentNames,
  openParts,
  pairsText,
  peopleOf,
  readerRefs,
} from "../src/features/orders/balances/open-parts.ts";
import { settlePlanFor, settlePlanLight } from "../src/features/orders/balances/settle-plan.ts";
import { idsText } from "../src/features/orders/reading/kept.ts";
import { allOrdersLight, allRefsText } from "../src/features/orders/reading/orders.ts";
import { percentile, withPostgresDatabase } from "./bench-support.ts";
import { buildGroup, buildHistory, withDatabase } from "./history-data.ts";
import { freePort, startServer } from "./server-process.ts";

const RUNS = Number(process.env.LIGHT_RUNS ?? 300);
const EXPLAINS = Number(process.env.LIGHT_EXPLAINS ?? 30);

interface Timing {
  database: string;
  query: string;
  median: number;
  p95: number;
  planning: number;
  execution: number;
}

/** Each answer's light query before and after, for the group's second member, as in the bench. */
async function lightQueries(database: Database, userId: string): Promise<Array<[string, SQL]>> {
  const deps = { db: database.db };
  const people = peopleOf(await openParts(database.db, userId));
  const pairs = (await settlePlanFor(deps, userId))
    .filter((t) => t.from._id !== userId && t.to._id !== userId)
    .map((t): [string, string] => [t.from._id, t.to._id]);
  console.info(`light-query-times: ${pairs.length} pairs of others in the plan`);
  const zone = sql`(select u.time_zone from users u where u.id = ${userId}) as "timeZone"`;
  return [
    [
      "balances, before",
      sql`select ${readerRefs(userId)} as refs, ${currentNames(people)} as names`,
    ],
    ["balances, marks", balancesLight(userId, people)],
    [
      "settle plan, before",
      sql`select ${readerRefs(userId)} as refs, ${currentNames(people)} as names,
        ${beyondRefs(pairsText(pairs), userId)} as beyond`,
    ],
    ["settle plan, marks", settlePlanLight(userId, { people, others: idsText(pairs.flat()) })],
    ["CSV of all orders, before", sql`select (${allRefsText(userId)}) as refs, ${zone}`],
    ["CSV of all orders, marks", allOrdersLight(userId)],
  ];
}

const median = (xs: number[]) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    50,
  );

/** A plan's "Planning Time" and "Execution Time", in ms. */
async function explained(database: Database, query: SQL) {
  const plan = await database.rows<{ "QUERY PLAN": string }>(sql`explain analyze ${query}`);
  const time = (label: string) =>
    Number(
      plan
        .map((r) => r["QUERY PLAN"])
        .find((l) => l.startsWith(label))
        ?.match(/([\d.]+) ms/)?.[1] ?? NaN,
    );
  return { planning: time("Planning Time"), execution: time("Execution Time") };
}

/** One transaction's marks for these people (order_mark()), each call its own transaction. */
async function markCost(name: string, database: Database, people: string[]): Promise<Timing> {
  const times: number[] = [];
  const query = sql`select order_mark(${idsText(people)}::uuid[])`;
  for (let run = -20; run < RUNS; run++) {
    const started = performance.now();
    await database.prepared(query);
    if (run >= 0) times.push(performance.now() - started);
  }
  const plans = [];
  for (let run = 0; run < EXPLAINS; run++) plans.push(await explained(database, query));
  const sorted = times.sort((a, b) => a - b);
  return {
    database: name,
    query: `marking ${people.length} people (a write's cost)`,
    median: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    planning: median(plans.map((p) => p.planning)),
    execution: median(plans.map((p) => p.execution)),
  };
}

async function measure(name: string, database: Database, userId: string): Promise<Timing[]> {
  const queries = await lightQueries(database, userId);
  const times = queries.map((): number[] => []);
  for (let run = -20; run < RUNS; run++) {
    for (const [i, [, query]] of queries.entries()) {
      const started = performance.now();
      await database.prepared(query);
      if (run >= 0) times[i]!.push(performance.now() - started);
    }
  }
  const [marks] = await database.rows<{ rows: string; people: string }>(
    sql`select count(*)::text as rows, count(distinct person_id)::text as people from order_marks`,
  );
  console.info(`light-query-times: ${name}: order_marks holds`, marks);
  const timings: Timing[] = [];
  for (const [i, [query, text]] of queries.entries()) {
    const plans = [];
    for (let run = 0; run < EXPLAINS; run++) plans.push(await explained(database, text));
    const sorted = [...times[i]!].sort((a, b) => a - b);
    timings.push({
      database: name,
      query,
      median: percentile(sorted, 50),
      p95: percentile(sorted, 95),
      planning: median(plans.map((p) => p.planning)),
      execution: median(plans.map((p) => p.execution)),
    });
  }
  return timings;
}

/** Builds the data through a server, then measures with the server stopped. */
async function run(name: string, env: Record<string, string>): Promise<Timing[]> {
  const server = await startServer({
    port: await freePort(),
    env,
    inheritEnv: true,
    output: "show",
  });
  let group;
  try {
    group = await buildGroup(server.url);
  } finally {
    await server.stop();
  }
  return withDatabase(env, async (database) => {
    await buildHistory(database, group);
    const timings = await measure(name, database, group.members[1]!.userId);
    const people = group.members.map((m) => m.userId);
    return [...timings, await markCost(name, database, people)];
  });
}

loadConfig(); // fail early on a broken environment, as the server would
const timings: Timing[] = [];
const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "cartner-light-"));
try {
  timings.push(...(await run("embedded (PGlite)", { DATA_DIR: dataDir })));
  const pgUrl = process.env.LIGHT_DATABASE_URL;
  if (pgUrl) {
    const pgDir = await fs.mkdtemp(path.join(os.tmpdir(), "cartner-light-pg-"));
    try {
      timings.push(
        ...(await withPostgresDatabase(pgUrl, "cartner_light", (url) =>
          run("PostgreSQL", { DATA_DIR: pgDir, DATABASE_URL: url }),
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
  `\n${os.cpus().length} cores, load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(
      " ",
    )}, Node ${process.version}, ${RUNS} calls each through Database.prepared, ${EXPLAINS} EXPLAIN ANALYZE each\n`,
);
console.info(
  "| database | light query | median ms a call | p95 ms a call | planning ms (EXPLAIN ANALYZE) | execution ms (EXPLAIN ANALYZE) |",
);
console.info("|---|---|---|---|---|---|");
for (const t of timings) {
  console.info(
    `| ${t.database} | ${t.query} | ${t.median.toFixed(3)} | ${t.p95.toFixed(3)} | ${t.planning.toFixed(3)} | ${t.execution.toFixed(3)} |`,
  );
}
