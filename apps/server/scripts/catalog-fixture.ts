/**
 * `npm run catalog:fixture -- FILE [--rows N] [--format tsv|csv|xml] [--seed S] [--currency C]
 * [--image-base URL]`: writes a product feed of N rows (default 1000), the same file for the same
 * seed; the format defaults to FILE's extension, the currency to the CURRENCY setting. With
 * --image-base, each row's image_link is URL/<id>.jpg; without it, rows have no picture.
 */
import fs from "node:fs/promises";
import { parseArgs } from "node:util";
import { loadConfig } from "../src/config.ts";
import { feedText, type FixtureFormat } from "./catalog-feeds.ts";

const USAGE =
  "Usage: npm run catalog:fixture -- FILE [--rows N] [--format tsv|csv|xml] [--seed S] [--currency C] [--image-base URL]";

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

let parsed;
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: {
      rows: { type: "string", default: "1000" },
      format: { type: "string" },
      seed: { type: "string", default: "1" },
      currency: { type: "string" },
      "image-base": { type: "string" },
    },
  });
} catch (error) {
  fail(`${(error as Error).message}\n${USAGE}`);
}
const [file] = parsed.positionals;
if (!file || parsed.positionals.length > 1) fail(USAGE);
const rows = Number(parsed.values.rows);
const seed = Number(parsed.values.seed);
if (!Number.isInteger(rows) || rows < 0) fail(`--rows must be a whole number\n${USAGE}`);
if (!Number.isInteger(seed)) fail(`--seed must be a whole number\n${USAGE}`);
const format = (parsed.values.format ?? /\.(tsv|csv|xml)$/i.exec(file)?.[1]?.toLowerCase()) as
  FixtureFormat | undefined;
if (format !== "tsv" && format !== "csv" && format !== "xml") {
  fail(`name the format: --format tsv|csv|xml, or a FILE ending in one\n${USAGE}`);
}
const currency = parsed.values.currency?.toUpperCase() ?? loadConfig().currency;

const imageBase = parsed.values["image-base"]?.replace(/\/+$/, "");
await fs.writeFile(
  file,
  feedText({ rows, format, seed, currency, ...(imageBase ? { imageBase } : {}) }),
);
console.info(`Wrote ${rows} rows (${format.toUpperCase()}, seed ${seed}, ${currency}) to ${file}`);
