/**
 * Upgrades: the data an earlier release made with its own code (test/fixtures/upgrade, see
 * make-fixture.ts) opens with today's server on the project's database: every migration runs and
 * every figure reads back as that release answered it. A migration that fails half-way leaves the
 * database as it was and the server refuses to start, naming the migration.
 */
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import zlib from "node:zlib";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterEach, describe, expect, it, vi } from "vitest";
import { quietServerEnv } from "../../scripts/server-process.ts";
import { readFigures, sameOrigin, signIn, type Household } from "./figures.ts";
import { createPostgresDatabase, freePort, PASSWORD, startServer } from "./server-process.ts";

vi.setConfig({ testTimeout: 180_000 });
const here = path.dirname(fileURLToPath(import.meta.url));
const fixtures = path.join(here, "../fixtures/upgrade");
const MAIN = path.join(here, "../../src/main.ts");
const onPostgres = process.env.TEST_DB === "postgres";
const kind = onPostgres ? "postgres" : "pglite";

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const step of cleanups.splice(0).reverse()) await step().catch(() => {});
});

type Query = (sql: string) => Promise<Array<Record<string, unknown>>>;

interface Fixture {
  release: string;
  household: Omit<Household, "people"> & {
    people: Array<{ name: string; email: string; userId: string }>;
  };
  figures: Awaited<ReturnType<typeof readFigures>>;
}

/** A database holding the earlier release's data, not yet opened by today's code. */
async function earlierReleaseData() {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "cartner-upgrade-"));
  cleanups.push(() => fs.rm(dataDir, { recursive: true, force: true }));
  const env: Record<string, string> = { DATA_DIR: dataDir };
  let withDb: <T>(use: (query: Query) => Promise<T>) => Promise<T>;
  if (onPostgres) {
    const database = await createPostgresDatabase(process.env.TEST_DATABASE_URL!, "cartner_upg");
    cleanups.push(database.drop);
    execFileSync("psql", [
      "-q",
      "-v",
      "ON_ERROR_STOP=1",
      "-f",
      `${fixtures}/postgres.sql`,
      database.url,
    ]);
    env.DATABASE_URL = database.url;
    withDb = async (use) => {
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        return await use(async (sql) => (await client.query(sql)).rows);
      } finally {
        await client.end();
      }
    };
  } else {
    const tar = zlib.brotliDecompressSync(await fs.readFile(`${fixtures}/pglite.tar.br`));
    const client = await PGlite.create(path.join(dataDir, "pglite"), {
      loadDataDir: new Blob([tar]),
    });
    await client.close();
    // Opened around each use and closed again: the server opens the same directory.
    withDb = async (use) => {
      const db = await PGlite.create(path.join(dataDir, "pglite"));
      try {
        return await use(async (sql) => (await db.query<Record<string, unknown>>(sql)).rows);
      } finally {
        await db.close();
      }
    };
  }
  const fixture = JSON.parse(await fs.readFile(`${fixtures}/${kind}.json`, "utf8")) as Fixture;
  return { env, withDb, fixture };
}

const journal = async () =>
  (
    JSON.parse(await fs.readFile(path.join(here, "../../drizzle/meta/_journal.json"), "utf8")) as {
      entries: Array<{ tag: string }>;
    }
  ).entries;

/**
 * Compares what the release answered with today's answer: every value the release answered reads
 * back the same (arrays as long, in order); keys only today's answer has are collected by path
 * (array positions as []), to be checked against the list of fields later releases added.
 */
function compare(then: unknown, now: unknown, at: string, added: Set<string>, diffs: string[]) {
  if (Array.isArray(then)) {
    if (!Array.isArray(now) || now.length !== then.length) {
      diffs.push(`${at}: ${JSON.stringify(then)} became ${JSON.stringify(now)}`);
      return;
    }
    then.forEach((item, i) => compare(item, now[i], `${at}[]`, added, diffs));
  } else if (then && typeof then === "object") {
    if (!now || typeof now !== "object") {
      diffs.push(`${at}: ${JSON.stringify(then)} became ${JSON.stringify(now)}`);
      return;
    }
    const nowRecord = now as Record<string, unknown>;
    for (const [key, value] of Object.entries(then)) {
      if (!(key in nowRecord)) diffs.push(`${at}.${key}: gone`);
      else compare(value, nowRecord[key], `${at}.${key}`, added, diffs);
    }
    for (const key of Object.keys(nowRecord)) if (!(key in then)) added.add(`${at}.${key}`);
  } else if (then !== now) {
    diffs.push(`${at}: ${JSON.stringify(then)} became ${JSON.stringify(now)}`);
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/**
 * The fields today's answers have that the release's did not, each with the value the upgraded
 * data must give (`owner` is the object holding the field, `root` its order or cart): what the
 * migrations since then filled in for rows made before them.
 */
const LATER_FIELDS: Record<string, (owner: Json, root: Json) => unknown> = {
  // Staple lines (0022): lines made before were not staples.
  "cart.products[].staple": () => false,
  // Deadlines (0023): sessions made before have none.
  "cart.sessionId.deadline": () => null,
  // Adjustments (0024): none yet; what was charged is the original figure.
  "order.adjustments": () => [],
  "order.lines[].adjusted": () => null,
  "order.originalTotal": (_owner, order) => order.total,
  "order.split[].originalTotal": (share) => share.total,
  "order.split[].paid": () => 0,
  "order.split[].credit": () => 0,
  // Account deletion with unsettled shares (0018): nobody's account was deleted.
  "order.split[].accountDeleted": () => false,
  // How a share was settled (0018): a confirmed share of another member was a transfer; the
  // payee's own share (settled by paying the shop) and an unpaid one have none.
  "order.split[].settledAs": (share, order) =>
    share.status === "confirmed" && share.userId !== order.payee._id ? "transfer" : null,
  // Several payers (0026): an order made before was paid to the shop by its payee alone.
  "order.payers": (_owner, order) => [{ user: order.payee, amount: order.total }],
  // What each share owes each payer (0026): with the payee the only payer, every other member's
  // share is owed to the payee whole, open until confirmed, in member id order; no credits, since
  // nothing was adjusted.
  "order.parts": (_owner, order) =>
    [...order.split]
      .filter((share: Json) => share.userId !== order.payee._id)
      .sort((a: Json, b: Json) => (a.userId < b.userId ? -1 : 1))
      .map((share: Json) => ({
        debtor: share.userId,
        payer: order.payee._id,
        amount: share.total,
        open: share.status === "confirmed" ? 0 : share.total,
        credit: 0,
      })),
  // Credits owed back (0024): nothing was adjusted, so no balance is a credit.
  "balance.orders[].credit": () => false,
};

/** The values at `field` ("order.split[].paid") under `roots`, each with the object holding it. */
function valuesAt(field: string, roots: Record<string, Json>): Array<[unknown, Json]> {
  const [rootName, ...steps] = field.split(".");
  let owners: Json[] = roots[rootName!] ? [roots[rootName!]] : [];
  for (const step of steps.slice(0, -1)) {
    const key = step.replace("[]", "");
    owners = owners.flatMap((owner) => (step.endsWith("[]") ? owner[key] : [owner[key]]));
  }
  const last = steps.at(-1)!;
  return owners.map((owner) => [owner[last], owner]);
}

describe(`an earlier release's data on ${kind}`, () => {
  it("opens with today's server: every migration runs, every figure reads back the same", async () => {
    const { env, withDb, fixture } = await earlierReleaseData();
    const applied = `select count(*)::int as n from drizzle.__drizzle_migrations`;
    const before = await withDb((query) => query(applied));
    const entries = await journal();
    expect(before[0]!.n).toBeLessThan(entries.length);

    const server = await startServer(env);
    cleanups.push(() => server.stop());
    const people = [];
    for (const person of fixture.household.people) {
      people.push(await signIn(server.url, person, PASSWORD));
    }
    const figures = await readFigures(server.url, { ...fixture.household, people });
    const added = new Set<string>();
    const diffs: string[] = [];
    compare(sameOrigin(fixture.figures), sameOrigin(figures), "", added, diffs);
    expect(diffs).toEqual([]);
    const laterPaths = [...added].map((at) =>
      at
        .replace(/^\.people\.\w+\.(order\.order|orders\.orders\[\])/, "order")
        .replace(/^\.carts\.\w+\.cart/, "cart")
        .replace(/^\.people\.\w+\.balances\.balances\[\]/, "balance"),
    );
    expect([...new Set(laterPaths)].sort()).toEqual(Object.keys(LATER_FIELDS).sort());
    const read = figures as Json;
    for (const order of [read.people.Ann.order.order, ...read.people.Ann.orders.orders]) {
      for (const [field, expected] of Object.entries(LATER_FIELDS)) {
        for (const [value, owner] of valuesAt(field, { order, cart: null })) {
          expect(value, field).toEqual(expected(owner, order));
        }
      }
    }
    for (const who of Object.values(read.people) as Json[]) {
      for (const balance of who.balances.balances) {
        for (const [field, expected] of Object.entries(LATER_FIELDS)) {
          for (const [value, owner] of valuesAt(field, { balance })) {
            expect(value, field).toEqual(expected(owner, balance));
          }
        }
      }
    }
    for (const cart of [read.carts.open.cart, read.carts.ordered.cart]) {
      for (const [field, expected] of Object.entries(LATER_FIELDS)) {
        for (const [value, owner] of valuesAt(field, { cart, order: null })) {
          expect(value, field).toEqual(expected(owner, cart));
        }
      }
    }
    await server.stop();

    const after = await withDb((query) => query(applied));
    expect(after[0]!.n).toBe(entries.length);
  });

  it("a migration failing half-way changes nothing and the server refuses to start, naming it", async () => {
    const { env, withDb } = await earlierReleaseData();
    // An index of the name a pending migration's last statement creates (0026's): the
    // migrations before it, and that migration's own first statements, succeed first.
    const before = await withDb(async (query) => {
      await query(`create index "order_payers_user_idx" on "users" ("name")`);
      return snapshot(query);
    });

    const port = await freePort();
    const child = spawn(process.execPath, [MAIN], {
      env: { PATH: process.env.PATH ?? "", ...quietServerEnv(port), ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.stdout.on("data", () => {});
    const code = await new Promise((resolve) => child.once("exit", resolve));
    expect(code).toBe(1);
    expect(stderr).toContain("migration 0026_several_payers.sql failed");
    expect(stderr).toContain('relation "order_payers_user_idx" already exists');
    expect(stderr).toContain("the database is as it was before this start");

    expect(await withDb(snapshot)).toEqual(before);
  });
});

/** Every table of the app and of the migrations' journal: its columns and an md5 of its rows. */
async function snapshot(query: Query) {
  const tables = await query(
    `select table_schema || '.' || table_name as name from information_schema.tables
      where table_schema in ('public', 'drizzle') order by 1`,
  );
  const columns = await query(
    `select table_schema, table_name, column_name, data_type from information_schema.columns
      where table_schema in ('public', 'drizzle') order by 1, 2, 3`,
  );
  const indexes = await query(
    `select indexname, indexdef from pg_indexes where schemaname in ('public', 'drizzle') order by 1`,
  );
  const rows: Record<string, unknown> = {};
  for (const { name } of tables) {
    const [schema, table] = String(name).split(".");
    const [row] = await query(
      `select count(*)::int as n, md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as sum
         from "${schema}"."${table}" t`,
    );
    rows[String(name)] = row;
  }
  return { tables, columns, indexes, rows };
}
