/**
 * `npm run catalog:import` as the operator runs it, on the database the configuration names: on
 * PostgreSQL while the real server serves (it shows each import without a restart), on the
 * embedded database with the server stopped. The catalog is compared row by row before and after
 * every run that must change nothing.
 */
import { spawn } from "node:child_process";
import fs from "node:fs/promises";
import http from "node:http";
import type net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { asc, count, inArray } from "drizzle-orm";
import sharp from "sharp";
import { afterEach, expect, it, vi } from "vitest";
import { openDatabase } from "../../src/db/client.ts";
import { catalogChanges, productImages, products } from "../../src/db/schema.ts";
import { fixtureRows, formatRows, type FixtureFormat } from "../../scripts/catalog-feeds.ts";
import { call, serverFixture, signUp, waitUntil, type ServerProcess } from "./server-process.ts";

vi.setConfig({ testTimeout: 240_000 });
const onPostgres = process.env.TEST_DB === "postgres";
const scripts = path.join(path.dirname(fileURLToPath(import.meta.url)), "../../scripts");
const fixture = serverFixture("cartner-catalog-", onPostgres);
afterEach(() => fixture.cleanup());

function importFeed(file: string, flags: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [path.join(scripts, "catalog-import.ts"), file, ...flags], {
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  return new Promise<{ code: number | null; output: string }>((resolve) =>
    child.once("exit", (code) => resolve({ code, output })),
  );
}

/** Every product as stored, and how many changes are logged. */
async function catalogOf(env: Record<string, string>) {
  const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR! });
  try {
    const rows = await database.db
      .select({
        key: products.key,
        name: products.name,
        description: products.description,
        category: products.category,
        priceCents: products.priceCents,
        stock: products.stock,
        brand: products.brand,
        gtin: products.gtin,
        color: products.color,
        available: products.available,
        updatedAt: products.updatedAt,
      })
      .from(products)
      .orderBy(asc(products.key));
    const [logged] = await database.db.select({ n: count() }).from(catalogChanges);
    return { products: rows, changes: logged!.n };
  } finally {
    await database.close();
  }
}

it(`imports a feed: dry run, re-import, a bad row, --skip-invalid, --full (${onPostgres ? "PostgreSQL, server running" : "embedded"})`, async () => {
  const env = { ...(await fixture.backend()), CURRENCY: "USD" };
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "cartner-feeds-"));
  const write = async (
    name: string,
    rows: ReturnType<typeof fixtureRows>,
    format: FixtureFormat,
  ) => {
    const file = path.join(dir, `${name}.${format}`);
    await fs.writeFile(file, formatRows(rows, format));
    return file;
  };
  const rows = fixtureRows({ rows: 100, format: "tsv", seed: 5 });
  const feed = await write("feed", rows, "tsv");

  let server: ServerProcess | undefined;
  let token = "";
  const listed = async (query = "") => {
    const res = await call(server!.url, "GET", `/api/products?limit=1${query}`, { token });
    expect(res.status).toBe(200);
    return res.body.total as number;
  };
  if (onPostgres) {
    server = await fixture.start(env);
    token = (await signUp(server.url, "Olive", "olive@example.com")).token;
  }
  const start = await catalogOf(env);
  const seeded = start.products.length;
  // The server holds its catalog in memory from here on.
  if (server) expect(await listed()).toBe(seeded);

  const dry = await importFeed(feed, ["--dry-run"], env);
  expect(dry.code, dry.output).toBe(0);
  expect(dry.output).toContain("+ A0000");
  expect(dry.output).toMatch(
    /100 added, 0 changed, 0 made unavailable, 0 unchanged \(100 changes\); nothing was changed/,
  );
  expect(await catalogOf(env)).toEqual(start);

  const first = await importFeed(feed, [], env);
  expect(first.code, first.output).toBe(0);
  expect(first.output).toMatch(
    /Imported feed\.tsv \(TSV, 100 rows\).*: 100 added, .*\(100 changes\)/,
  );
  const imported = await catalogOf(env);
  expect(imported.products).toHaveLength(seeded + 100);
  expect(imported.changes).toBe(100);
  const polo = imported.products.find((p) => p.key === "A0000")!;
  expect(polo).toMatchObject({ name: rows[0]!.title, brand: rows[0]!.brand, gtin: rows[0]!.gtin });
  // A running server shows the import without a restart.
  if (server)
    await waitUntil(
      () => listed(),
      (total) => total === seeded + 100,
    );

  const again = await importFeed(feed, [], env);
  expect(again.code, again.output).toBe(0);
  expect(again.output).toMatch(
    /0 added, 0 changed, 0 made unavailable, 100 unchanged \(0 changes\)/,
  );
  expect(await catalogOf(env)).toEqual(imported);

  // One bad row (line 43: the header is line 1) and a price change: the whole file is refused.
  const changedRows = rows.map((row) => ({ ...row }));
  changedRows[5] = { ...changedRows[5]!, price: "999.00 USD", sale_price: "" };
  changedRows[41] = { ...changedRows[41]!, price: changedRows[41]!.price.replace("USD", "GBP") };
  const bad = await write("bad", changedRows, "tsv");
  const refused = await importFeed(bad, [], env);
  expect(refused.code, refused.output).toBe(1);
  expect(refused.output).toContain("line 43: price is in GBP, but this shop's currency is USD");
  expect(refused.output).toContain("nothing was changed");
  expect(await catalogOf(env)).toEqual(imported);

  const skipped = await importFeed(bad, ["--skip-invalid"], env);
  expect(skipped.code, skipped.output).toBe(0);
  expect(skipped.output).toMatch(/Skipped \(--skip-invalid\):\n {2}line 43: price is in GBP/);
  expect(skipped.output).toMatch(/0 added, 1 changed, 0 made unavailable, 98 unchanged/);
  const repriced = await catalogOf(env);
  expect(repriced.products.find((p) => p.key === rows[5]!.id)!.priceCents).toBe(99_900);
  expect(repriced.changes).toBe(101);

  // The first 80 rows as the whole catalog, in XML: the other 20 (and the seed's) go off sale.
  const whole = await write("whole", rows.slice(0, 80), "xml");
  const offSale = repriced.products.filter(
    (p) => p.available && !rows.slice(0, 80).some((r) => r.id === p.key),
  );
  expect(offSale.length).toBe(seeded + 20);
  const fullDry = await importFeed(whole, ["--full", "--dry-run"], env);
  expect(fullDry.code, fullDry.output).toBe(0);
  expect(fullDry.output).toContain(`- ${rows[99]!.id}  ${rows[99]!.title}  made unavailable`);
  expect(fullDry.output).toContain(`~ ${rows[5]!.id}  ${rows[5]!.title}  price 999 -> `);
  expect(await catalogOf(env)).toEqual(repriced);

  const full = await importFeed(whole, ["--full"], env);
  expect(full.code, full.output).toBe(0);
  expect(full.output).toContain(`1 changed, ${offSale.length} made unavailable, 79 unchanged`);
  const after = await catalogOf(env);
  // Never deleted: the same products, those missing from the feed off sale.
  expect(after.products.map((p) => p.key)).toEqual(repriced.products.map((p) => p.key));
  for (const p of after.products) {
    expect(p.available, p.key).toBe(!offSale.some((o) => o.key === p.key));
  }
  expect(after.changes).toBe(101 + 1 + offSale.length);

  if (!server) {
    server = await fixture.start(env);
    token = (await signUp(server.url, "Olive", "olive@example.com")).token;
  }
  // The shop lists what is on sale; the rest is asked for by name.
  await waitUntil(
    () => listed(),
    (total) => total === 80,
  );
  expect(await listed("&available=false")).toBe(offSale.length);
});

it("refuses a busy embedded database and a file it cannot read", async () => {
  const env = { ...(await fixture.backend()), CURRENCY: "USD" };
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "cartner-feeds-"));
  const broken = path.join(dir, "broken.xml");
  await fs.writeFile(broken, "<rss><channel><item><g:id>1</g:id></item>");
  const unreadable = await importFeed(broken, [], env);
  expect(unreadable.code, unreadable.output).toBe(1);
  expect(unreadable.output).toMatch(
    /Import refused: the XML file cannot be read: .*nothing was changed/,
  );
  expect((await importFeed(path.join(dir, "missing.tsv"), [], env)).code).toBe(1);
  if (onPostgres) return;
  const server = await fixture.start(env);
  const busy = await importFeed(broken, [], env);
  expect(busy.code, busy.output).toBe(1);
  expect(busy.output).toMatch(/pglite is in use \(postmaster\.pid\): stop the server/);
  await server.stop();
});

it(`fetches the rows' pictures, lists those it cannot at the end, and fetches none again (${onPostgres ? "PostgreSQL" : "embedded"})`, async () => {
  const jpeg = await sharp({
    create: { width: 600, height: 400, channels: 3, background: "#2e86de" },
  })
    .jpeg()
    .toBuffer();
  const asked: string[] = [];
  const shop = http.createServer((req, res) => {
    asked.push(req.url ?? "");
    if (req.url === "/A0002.jpg") return res.writeHead(404).end();
    res.writeHead(200, { "content-type": "image/jpeg" }).end(jpeg);
  });
  await new Promise<void>((resolve) => shop.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(shop.address() as net.AddressInfo).port}`;
  try {
    const env: Record<string, string> = {
      ...(await fixture.backend()),
      CURRENCY: "USD",
      CATALOG_IMAGE_ORIGINS: origin,
    };
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "cartner-feeds-"));
    const file = path.join(dir, "pictures.tsv");
    await fs.writeFile(
      file,
      formatRows(fixtureRows({ rows: 3, format: "tsv", seed: 9, imageBase: origin }), "tsv"),
    );

    const first = await importFeed(file, [], env);
    expect(first.code, first.output).toBe(0);
    expect(first.output.trimEnd()).toMatch(
      /Pictures: 2 fetched, 0 unchanged, 1 not fetched in \d+\.\d s \(these keep the picture they had\):\n {2}A0002 {2}http:\/\/127\.0\.0\.1:\d+\/A0002\.jpg: the server answered 404$/,
    );
    const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR! });
    try {
      const shown = await database.db
        .select({ key: products.key, type: products.imageType, hash: products.imageHash })
        .from(products)
        .where(inArray(products.key, ["A0000", "A0001", "A0002"]))
        .orderBy(asc(products.key));
      expect(shown.map((p) => p.type)).toEqual(["webp", "webp", "svg"]);
      const stored = await database.db.select({ hash: productImages.hash }).from(productImages);
      expect(stored.map((s) => s.hash).sort()).toEqual([shown[0]!.hash, shown[1]!.hash].sort());
    } finally {
      await database.close();
    }
    const before = await catalogOf(env);

    asked.length = 0;
    const again = await importFeed(file, [], env);
    expect(again.code, again.output).toBe(0);
    expect(again.output).toMatch(
      /0 added, 0 changed, 0 made unavailable, 3 unchanged \(0 changes\)/,
    );
    expect(again.output).toContain("Pictures: 0 fetched, 2 unchanged, 1 not fetched");
    // Only the one it could not have is asked for again.
    expect(asked).toEqual(["/A0002.jpg"]);
    expect(await catalogOf(env)).toEqual(before);
  } finally {
    shop.closeAllConnections();
    await new Promise((resolve) => shop.close(resolve));
  }
});
