/**
 * `npm run catalog:import -- FILE [--dry-run] [--skip-invalid] [--full]`: a Google Merchant Center
 * product feed (tab-separated, RSS 2.0 XML or CSV) into the catalog of the database the server's
 * configuration names, then each row's image_link fetched (a few at a time; one not had keeps the
 * product's picture and is listed at the end). Exit 1, nothing changed, when a row is refused
 * (unless --skip-invalid) or the file cannot be read.
 */
import fs from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { loadConfig } from "../src/config.ts";
import { openDatabase } from "../src/db/client.ts";
import { commandLineDeps, followCatalog } from "../src/features/catalog/index.ts";
import { FeedFormatError } from "../src/features/catalog/feed-read.ts";
import { changeCount, type ImportDiff } from "../src/features/catalog/import.ts";
import type { PhotoReport } from "../src/features/catalog/import-photos.ts";
import { runImport } from "../src/features/catalog/run-import.ts";
import { createMedia } from "../src/lib/media.ts";
import { createPublicFetch } from "../src/lib/public-fetch.ts";
import { embeddedInUse } from "./embedded-in-use.ts";

const USAGE = "Usage: npm run catalog:import -- FILE [--dry-run] [--skip-invalid] [--full]";

function parse() {
  return parseArgs({
    allowPositionals: true,
    options: {
      "dry-run": { type: "boolean", default: false },
      "skip-invalid": { type: "boolean", default: false },
      full: { type: "boolean", default: false },
    },
  });
}
let args: ReturnType<typeof parse>;
try {
  args = parse();
} catch (error) {
  fail(`${(error as Error).message}\n${USAGE}`);
}
const file = args.positionals[0];
if (!file || args.positionals.length > 1) fail(USAGE);
const dryRun = args.values["dry-run"];

const config = loadConfig();
const text = await fs.readFile(file, "utf8").catch((error: Error) => fail(error.message));
if (!config.databaseUrl) {
  const refusal = await embeddedInUse(config.dataDir, "Import");
  if (refusal) fail(refusal);
}

const started = performance.now();
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
const photoFetch = createPublicFetch({
  protocols: ["http:", "https:"],
  trustedOrigins: config.catalogImageOrigins,
});
const carts = commandLineDeps(database, config.currency);
let lastShown = 0;
let lastPhotoShown = 0;
try {
  const result = await runImport(
    {
      db: database.db,
      notifyServers: database.kind === "postgres",
      // Open carts follow; their members' live events reach the running servers (PostgreSQL).
      afterChange: (productIds) => followCatalog(carts, productIds),
      progress: (done, total) => {
        // Long files: a line at each tenth.
        if (total >= 5000 && Math.floor((10 * done) / total) > lastShown) {
          lastShown = Math.floor((10 * done) / total);
          console.info(`  ${done} / ${total} rows`);
        }
      },
      photos: {
        media: createMedia(config.publicUrl),
        fetch: photoFetch,
        progress: (done, total) => {
          if (total >= 100 && Math.floor((10 * done) / total) > lastPhotoShown) {
            lastPhotoShown = Math.floor((10 * done) / total);
            console.info(`  ${done} / ${total} pictures`);
          }
        },
      },
    },
    text,
    {
      fileName: file,
      currency: config.currency,
      dryRun,
      skipInvalid: args.values["skip-invalid"],
      full: args.values.full,
    },
  );
  const what = `${path.basename(file)} (${result.format.toUpperCase()}, ${result.rows} rows)`;
  const refusals = result.refusals.map((r) => `  ${r.where}: ${r.field} ${r.message}`);
  if (!result.diff) {
    console.error(
      `Import refused: ${result.refusals.length} problem(s) in ${what}; nothing was changed.\n` +
        `${refusals.join("\n")}\nFix them, or pass --skip-invalid to import the other rows.`,
    );
    process.exitCode = 1;
  } else {
    if (refusals.length > 0) {
      console.info(`Skipped (--skip-invalid):\n${refusals.join("\n")}`);
    }
    if (dryRun && changeCount(result.diff) > 0) console.info(detail(result.diff));
    // The pictures' time is said apart.
    const photoSeconds = result.photos?.seconds ?? 0;
    const seconds = ((performance.now() - started) / 1000 - photoSeconds).toFixed(1);
    const db = database.kind === "postgres" ? "PostgreSQL" : "embedded";
    console.info(
      `${dryRun ? "Dry run of" : "Imported"} ${what} ${dryRun ? "against" : "into"} the ${db}` +
        ` database in ${seconds} s: ${summary(result.diff)}` +
        (dryRun ? "; nothing was changed." : "."),
    );
    const { photos } = result;
    // Said only for a feed with pictures.
    if (photos && photos.fetched + photos.unchanged + photos.failed.length > 0) {
      console.info(photoLines(photos, dryRun));
    }
  }
} catch (error) {
  if (!(error instanceof FeedFormatError)) throw error;
  console.error(`Import refused: ${error.message}; nothing was changed.`);
  process.exitCode = 1;
} finally {
  await photoFetch.close();
  await carts.sent();
  await database.close();
}

function summary(diff: ImportDiff): string {
  return (
    `${diff.added.length} added, ${diff.changed.length} changed, ` +
    `${diff.madeUnavailable.length} made unavailable, ${diff.unchanged} unchanged ` +
    `(${changeCount(diff)} changes)`
  );
}

/** The pictures' outcome; those not had last, one line each. */
function photoLines(photos: PhotoReport, dryRun: boolean): string {
  if (dryRun) {
    return `Pictures: ${photos.fetched} to fetch, ${photos.unchanged} unchanged.`;
  }
  const head =
    `Pictures: ${photos.fetched} fetched, ${photos.unchanged} unchanged, ` +
    `${photos.failed.length} not fetched in ${photos.seconds.toFixed(1)} s`;
  if (photos.failed.length === 0) return `${head}.`;
  return [
    `${head} (these keep the picture they had):`,
    ...photos.failed.map((f) => `  ${f.key}  ${f.link}: ${f.reason}`),
  ].join("\n");
}

function shown(value: unknown): string {
  return value === null ? "(none)" : JSON.stringify(value);
}

/** The dry run's diff, a line per product. */
function detail(diff: ImportDiff): string {
  return [
    ...diff.added.map((p) => `+ ${p.key}  ${p.name}  ${p.price.toFixed(2)}`),
    ...diff.changed.map(
      (p) =>
        `~ ${p.key}  ${p.name}  ` +
        p.changes.map((c) => `${c.field} ${shown(c.from)} -> ${shown(c.to)}`).join("; "),
    ),
    ...diff.madeUnavailable.map((p) => `- ${p.key}  ${p.name}  made unavailable`),
  ].join("\n");
}

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}
