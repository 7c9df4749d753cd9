/**
 * Upgrades: the data earlier releases made with their own code (test/fixtures/upgrade/<date>/,
 * see make-fixture.ts) opens with today's server on the project's database: every migration runs
 * and every figure reads back as that release answered it, and every figure the release did not
 * have yet reads as the migrations since fill it in. A migration that fails half-way leaves the
 * database as it was and the server refuses to start, naming the migration.
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import zlib from "node:zlib";
import { fromCents, settlePlan, toCents } from "@cartner/contract";
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
/**
 * Each release's folder (make-fixture.ts names the commits): 2026-11-24 has shares owed, paid and
 * confirmed; 2026-11-26 also a deleted account; 2026-11-28 (main before the ledger) every way
 * money moves. A release is skipped while today's code has no migration newer than its own.
 */
const RELEASES = ["2026-11-24", "2026-11-26", "2026-11-28"] as const;
const journal = (
  JSON.parse(readFileSync(path.join(here, "../../drizzle/meta/_journal.json"), "utf8")) as {
    entries: Array<{ tag: string }>;
  }
).entries;
const fixtureOf = (release: string) =>
  JSON.parse(readFileSync(path.join(fixtures, release, `${kind}.json`), "utf8")) as Fixture;

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const step of cleanups.splice(0).reverse()) await step().catch(() => {});
});

type Query = (sql: string) => Promise<Array<Record<string, unknown>>>;

interface Fixture {
  release: string;
  /** How many migrations the release had. */
  migrations: number;
  household: Omit<Household, "people"> & {
    people: Array<{ name: string; email: string; userId: string; deleted?: boolean }>;
  };
  figures: Awaited<ReturnType<typeof readFigures>>;
}

const applied = `select count(*)::int as n from drizzle.__drizzle_migrations`;

/**
 * A database holding the release's data, not yet opened by today's code, and how many migrations
 * the release had run.
 */
async function earlierReleaseData(release: string) {
  const dir = path.join(fixtures, release);
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "cartner-upgrade-"));
  cleanups.push(() => fs.rm(dataDir, { recursive: true, force: true }));
  const env: Record<string, string> = { DATA_DIR: dataDir };
  let withDb: <T>(use: (query: Query) => Promise<T>) => Promise<T>;
  let migrations: number;
  if (onPostgres) {
    const database = await createPostgresDatabase(process.env.TEST_DATABASE_URL!, "cartner_upg");
    cleanups.push(database.drop);
    execFileSync("psql", [
      "-q",
      "-v",
      "ON_ERROR_STOP=1",
      "-f",
      `${dir}/postgres.sql`,
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
    migrations = (await withDb((query) => query(applied)))[0]!.n as number;
  } else {
    const tar = zlib.brotliDecompressSync(await fs.readFile(`${dir}/pglite.tar.br`), {
      params: { [zlib.constants.BROTLI_DECODER_PARAM_LARGE_WINDOW]: 1 },
    });
    const client = await PGlite.create(path.join(dataDir, "pglite"), {
      loadDataDir: new Blob([tar]),
    });
    migrations = (await client.query<{ n: number }>(applied)).rows[0]!.n;
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
  return { env, withDb, fixture: fixtureOf(release), migrations };
}

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

/** A difference without who reads it, ids and times (the two databases' fixtures differ in them). */
const knownForm = (diff: string) =>
  diff
    .replace(/^\.people\.\w+\./, "")
    .replace(/"\d{4}-\d\d-\d\dT[\d:.]+Z"/g, '"<time>"')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "<id>");

/** The release's known changes (its known-changes.json), none when it has no such file. */
function knownChanges(release: string): string[] {
  const file = path.join(fixtures, release, "known-changes.json");
  return existsSync(file)
    ? (JSON.parse(readFileSync(file, "utf8")) as { changes: string[] }).changes
    : [];
}

/**
 * A share's `paid` as the ledger counts it (decision 033, migration 0030): what its member paid
 * the others towards it. A share of another member confirmed as a transfer or taken in cash was
 * paid in full; before the ledger `paid` held only what was paid before an adjustment changed a
 * share (`before`, 0 where the release had no such field), which still counts when it is more.
 */
function paidByLedger(share: Json, order: Json, before: number): number {
  const settled = share.status === "confirmed" && share.settledAs !== "written_off";
  return share.userId !== order.payee._id && settled ? Math.max(before, share.total) : before;
}

/** The release's orders with each share's `paid` as the ledger counts it (paidByLedger). */
function withLedgerPaid(then: Json): Json {
  const orderOf = (order: Json) => ({
    ...order,
    split: order.split.map((s: Json) =>
      "paid" in s ? { ...s, paid: paidByLedger(s, order, s.paid) } : s,
    ),
  });
  const people: Record<string, Json> = {};
  for (const [name, read] of Object.entries(then.people) as Array<[string, Json]>) {
    people[name] = {
      ...read,
      orders: { ...read.orders, orders: read.orders.orders.map(orderOf) },
      order: Object.fromEntries(
        Object.entries(read.order as Record<string, Json>).map(([k, page]) => [
          k,
          { ...page, order: orderOf(page.order) },
        ]),
      ),
    };
  }
  return { ...then, people };
}

/**
 * A cart's split is computed again on every read, and its rounding changed on purpose since these
 * releases (decision 034: each share rounded once over the whole cart, where they rounded each
 * line, then the fees and the tax, on their own). So each component of a cart's split still adds
 * up to the same amount, and each member's figure moves by less than a cent a line plus a cent
 * each for fees, tax and the new rounding. Gives the release's figures with today's splits in,
 * for the exact comparison of the rest (orders keep the shares stored at checkout).
 */
function checkCartSplits(then: Json, now: Json): Json {
  const carts: Record<string, Json> = {};
  for (const [name, read] of Object.entries(then.carts) as Array<[string, Json]>) {
    const before = read.cart.split;
    const after = now.carts[name].cart.split;
    expect(
      after.map((s: Json) => s.userId),
      name,
    ).toEqual(before.map((s: Json) => s.userId));
    const bound = read.cart.products.length + 3;
    for (const key of ["subtotal", "fees", "tax", "total"]) {
      const sum = (split: Json[]) => split.reduce((cents, s) => cents + toCents(s[key]), 0);
      expect(sum(after), `${name}: the split's ${key}`).toBe(sum(before));
      before.forEach((share: Json, i: number) => {
        const moved = Math.abs(toCents(after[i][key]) - toCents(share[key]));
        expect(moved, `${name}: ${share.name}'s ${key}`).toBeLessThan(bound);
      });
    }
    carts[name] = { ...read, cart: { ...read.cart, split: after } };
  }
  return { ...then, carts };
}

/** What the expected values of later fields may read: the release's household and figures. */
interface Context {
  deleted: Set<string>;
  /** The person whose figures these are. */
  person: string;
  then: Json;
}

/**
 * The fields today's answers have that a release's did not, each with the migration that came
 * with it (`since`: a release whose latest migration is older lacks it) and the value the upgraded
 * data must give (`owner` is the object holding the field, `root` its order, cart or person's
 * figures): what the migrations since then filled in for rows made before them.
 */
const LATER_FIELDS: Record<
  string,
  { since: number; value: (owner: Json, root: Json, context: Context) => unknown }
> = {
  // The activity log (0012): nothing was logged before it, and no migration writes entries.
  "figures.activity": {
    since: 12,
    value: (_owner, _root, { then }) =>
      Object.fromEntries(Object.keys(then.carts).map((name) => [name, []])),
  },
  // Ready marks hold at a total (0017): a mark set before has none; nobody here marked ready.
  "cart.sessionId.invitedUsers[].shareChanged": { since: 17, value: () => false },
  // How a share was settled (0018): a confirmed share of another member was a transfer; the
  // payee's own share (settled by paying the shop) and an unsettled one have none.
  "order.split[].settledAs": {
    since: 18,
    value: (share, order) =>
      share.status === "confirmed" && share.userId !== order.payee._id ? "transfer" : null,
  },
  // Account deletion with unsettled shares (0018): the member deleted their account.
  "order.split[].accountDeleted": {
    since: 18,
    value: (share, _order, { deleted }) => deleted.has(share.userId),
  },
  // Staple lines (0022): lines made before were not staples.
  "cart.products[].staple": { since: 22, value: () => false },
  // Deadlines (0023): sessions made before have none.
  "cart.sessionId.deadline": { since: 23, value: () => null },
  // Adjustments (0024): none yet; what was charged is the original figure, nothing was paid
  // towards a share that changed, so nobody has a credit.
  "order.adjustments": { since: 24, value: () => [] },
  "order.lines[].adjusted": { since: 24, value: () => null },
  "order.originalTotal": { since: 24, value: (_owner, order) => order.total },
  "order.split[].originalTotal": { since: 24, value: (share) => share.total },
  // What was paid towards a share (0024), counted from the ledger since 0030: everything paid,
  // a confirmed share in full (before, only what was paid before an adjustment changed it).
  "order.split[].paid": { since: 24, value: (share, order) => paidByLedger(share, order, 0) },
  "order.split[].credit": { since: 24, value: () => 0 },
  "balance.orders[].credit": { since: 24, value: () => false },
  // Several payers (0026): an order made before was paid to the shop by its payee alone.
  "order.payers": {
    since: 26,
    value: (_owner, order) => [{ user: order.payee, amount: order.total }],
  },
  // What each share owes each payer (0026): with the payee the only payer, every other member's
  // share is owed to the payee whole, open until confirmed, in member id order; no credits, since
  // nothing was adjusted.
  "order.parts": {
    since: 26,
    value: (_owner, order) =>
      [...order.split]
        .filter((share: Json) => share.userId !== order.payee._id)
        .sort((a: Json, b: Json) => (a.userId < b.userId ? -1 : 1))
        .map((share: Json) => ({
          debtor: share.userId,
          payer: order.payee._id,
          amount: share.total,
          open: share.status === "confirmed" ? 0 : share.total,
          credit: 0,
          // Said paid and waiting for the payee (0030: a claim in the ledger).
          claimed: share.status === "paid" ? share.total : 0,
          // Nobody owed a credit back, so nobody said they paid one back.
          claimedBack: 0,
        })),
  },
  // What a debtor says they paid and the payer has not confirmed (0030, the ledger's claims): what
  // is open of a share marked paid.
  "order.parts[].claimed": {
    since: 30,
    value: (part, order) =>
      order.split.find((s: Json) => s.userId === part.debtor)?.status === "paid" ? part.open : 0,
  },
  // A credit said paid back and not yet confirmed (the ledger's claims, 0030): a release before
  // the ledger had no claim of paying a credit back.
  "order.parts[].claimedBack": { since: 30, value: () => 0 },
  // A line's price when added and last seen (0035): an open cart's lines take the price they
  // show, so nothing shows as changed; every product is still on sale, and checkouts before took
  // no stock, so no line is short.
  "cart.products[].unitPrice": { since: 35, value: (line) => line.productId.price },
  "cart.products[].addedPrice": { since: 35, value: (line) => line.productId.price },
  "cart.products[].seenPrice": { since: 35, value: (line) => line.productId.price },
  "cart.products[].priceChanged": { since: 35, value: () => false },
  "cart.products[].available": { since: 35, value: () => true },
  "cart.products[].stockShort": { since: 35, value: () => 0 },
  // My Orders a page at a time (with 0033's releases): a household's few orders are one page.
  "person.orders.nextCursor": { since: 33, value: () => null },
  // Free lines, notes and substitutes (0036): every line made before named a product, had no
  // note and took any substitute; an order's lines are read the same way.
  "cart.products[].free": { since: 36, value: () => false },
  "cart.products[].estimated": { since: 36, value: () => false },
  "cart.products[].note": { since: 36, value: () => null },
  "cart.products[].substitute": { since: 36, value: () => "any" },
  "order.lines[].free": { since: 36, value: () => false },
  "order.lines[].estimated": { since: 36, value: () => false },
  "order.lines[].note": { since: 36, value: () => null },
  "order.lines[].substitute": { since: 36, value: () => "any" },
  // Presets (0041): members made before warn at their budget and are not marked as children.
  "cart.sessionId.invitedUsers[].budgetMode": { since: 41, value: () => "warn" },
  "cart.sessionId.invitedUsers[].child": { since: 41, value: () => false },
  // Approvals over budget (0042): no line made before waits for approval, nothing waits in total,
  // and a session made before names no approvers.
  "cart.products[].pending": { since: 42, value: () => null },
  "cart.pendingTotal": { since: 42, value: () => 0 },
  "cart.sessionId.approvers": { since: 42, value: () => [] },
  // Private lines (0043): no line made before is hidden from anyone, in a cart or an order.
  "cart.products[].hiddenFrom": { since: 43, value: () => [] },
  "cart.privateCount": { since: 43, value: () => 0 },
  "order.lines[].hiddenFrom": { since: 43, value: () => [] },
  "order.privateCount": { since: 43, value: () => 0 },
  // The settle plan (0026): the fewest transfers that settle what the person's orders, as the
  // release answered them, left open.
  "person.settlePlan": {
    since: 26,
    value: (_owner, _root, { then, person }) => planOf(then.people[person].orders.orders),
  },
};

/**
 * The settle plan of these orders as a release before adjustments and several payers answered
 * them: every share not confirmed (other than the payee's) owed whole to the payee; nets by the
 * plan's one rule (the contract's settlePlan); a transfer recordable when it settles the oldest
 * shares between the two exactly, less what the other owes back.
 */
function planOf(orders: Json[]) {
  const open = [...orders]
    .sort((a, b) => (a.placedAt < b.placedAt ? -1 : 1))
    .flatMap((order) =>
      order.split
        .filter((s: Json) => s.userId !== order.payee._id && s.status !== "confirmed")
        .map((s: Json) => ({
          from: { _id: s.userId, name: s.name },
          to: { _id: order.payee._id, name: order.payee.name },
          cents: toCents(s.total),
        })),
    );
  const nets = new Map<string, number>();
  const people = new Map<string, { _id: string; name: string }>();
  for (const { from, to, cents } of open) {
    nets.set(from._id, (nets.get(from._id) ?? 0) - cents);
    nets.set(to._id, (nets.get(to._id) ?? 0) + cents);
    people.set(from._id, from).set(to._id, to);
  }
  const between = (from: string, to: string) =>
    open.filter((p) => p.from._id === from && p.to._id === to).map((p) => p.cents);
  return {
    transfers: settlePlan(nets).map((t) => {
      const owedBack = between(t.to, t.from).reduce((a, c) => a + c, 0);
      let running = -owedBack;
      const settles = between(t.from, t.to).map((c) => (running += c));
      return {
        from: people.get(t.from),
        to: people.get(t.to),
        amount: fromCents(t.cents),
        recordable: settles.includes(t.cents),
      };
    }),
  };
}

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

/** A figure's path with the person, order and cart names taken out ("order.split[].paid"). */
const fieldOf = (at: string) =>
  at
    .replace(/^\.people\.[^.]+\.(order\.[^.]+\.order|orders\.orders\[\])/, "order")
    .replace(/^\.people\.[^.]+\.balances\.balances\[\]/, "balance")
    .replace(/^\.people\.[^.]+\.settlePlan/, "person.settlePlan")
    .replace(/^\.people\.[^.]+\.orders\.nextCursor/, "person.orders.nextCursor")
    .replace(/^\.carts\.[^.]+\.cart/, "cart")
    .replace(/^\./, "figures.");

/**
 * Opens the release's data with today's server: every migration runs, every figure the release
 * answered reads back the same, and each later field holds what LATER_FIELDS says.
 */
async function upgradeAndCompare(release: string) {
  const { env, withDb, fixture, migrations } = await earlierReleaseData(release);
  expect(migrations).toBe(fixture.migrations);
  expect(migrations).toBeLessThan(journal.length);

  const server = await startServer(env);
  cleanups.push(() => server.stop());
  const people = [];
  for (const person of fixture.household.people) {
    people.push(
      person.deleted ? { ...person, token: "" } : await signIn(server.url, person, PASSWORD),
    );
  }
  const figures = await readFigures(server.url, { ...fixture.household, people });
  const added = new Set<string>();
  const diffs: string[] = [];
  const then = withLedgerPaid(checkCartSplits(sameOrigin(fixture.figures), sameOrigin(figures)));
  compare(then, sameOrigin(figures), "", added, diffs);
  // Figures that changed on purpose (known-changes.json beside the release's data: the several
  // payers the old settlement columns got wrong), as each person reads them; none elsewhere.
  expect([...new Set(diffs.map(knownForm))].sort()).toEqual(knownChanges(release));
  const latest = migrations - 1;
  const newer = Object.keys(LATER_FIELDS).filter((f) => LATER_FIELDS[f]!.since > latest);
  // A field inside one the release lacked altogether comes with it (its rule gives it).
  const later = newer.filter((f) => !newer.some((g) => g !== f && f.startsWith(`${g}[]`)));
  expect([...new Set([...added].map(fieldOf))].sort()).toEqual(later.sort());

  const deleted = new Set(people.filter((p) => p.deleted).map((p) => p.userId));
  const check = (roots: Record<string, Json>, person = "") => {
    for (const field of later) {
      for (const [value, owner] of valuesAt(field, roots)) {
        const root = Object.values(roots)[0];
        expect(value, field).toEqual(
          LATER_FIELDS[field]!.value(owner, root, { deleted, person, then }),
        );
      }
    }
  };
  const now = figures as Json;
  check({ figures: now });
  for (const cart of Object.values(now.carts) as Json[]) check({ cart: cart.cart });
  for (const [person, read] of Object.entries(now.people) as Array<[string, Json]>) {
    check({ person: read }, person);
    for (const order of read.orders.orders) check({ order });
    for (const page of Object.values(read.order) as Json[]) check({ order: page.order });
    for (const balance of read.balances.balances) check({ balance });
  }
  await server.stop();

  const after = await withDb((query) => query(applied));
  expect(after[0]!.n).toBe(journal.length);
}

describe.each(RELEASES)(`the %s release's data on ${kind}`, (release) => {
  it.skipIf(fixtureOf(release).migrations === journal.length)(
    "opens with today's server: every migration runs, every figure reads back the same",
    () => upgradeAndCompare(release),
  );
});

describe(`an earlier release's data on ${kind}`, () => {
  it("a migration failing half-way changes nothing and the server refuses to start, naming it", async () => {
    const { env, withDb } = await earlierReleaseData("2026-11-26");
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
