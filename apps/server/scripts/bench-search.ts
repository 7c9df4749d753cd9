/**
 * The bench's search at 50,000 products: a generated feed imported with `npm run catalog:import`
 * into a database of its own, a server started on it, and searches as people type them: word
 * starts, words with a typo, brands, two words, GTINs, with sorts, categories and pages, several
 * thousand different ones, so that the server's cache of answers (1,000 per catalog) answers few.
 */
import { spawn } from "node:child_process";
import fs from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PRODUCT_CATEGORIES, PRODUCT_SORTS } from "@cartner/contract";
import { feedText, fixtureRow, random } from "./catalog-feeds.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
export const SEARCH_ROWS = 50_000;
/** More than the server's cache of answers holds (MAX_CACHED_ANSWERS, 1,000). */
const DIFFERENT_SEARCHES = 5000;
const PAGE = 24;

/** One letter left out, doubled or two swapped: the typos people make. */
function typo(word: string, next: () => number): string {
  const at = 1 + Math.floor(next() * (word.length - 2));
  const kind = Math.floor(next() * 3);
  if (kind === 0) return word.slice(0, at) + word.slice(at + 1);
  if (kind === 1) return word.slice(0, at) + word[at] + word.slice(at);
  return word.slice(0, at) + word[at + 1] + word[at] + word.slice(at + 2);
}

/** The searches' paths: varied words from the feed's own rows, with sorts, filters and pages. */
export function searchPaths(rows = SEARCH_ROWS, count = DIFFERENT_SEARCHES): string[] {
  const next = random(41);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const paths = new Set<string>();
  while (paths.size < count) {
    const row = fixtureRow(Math.floor(next() * rows));
    const titleWords = row.title
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((w) => w.length >= 2 && !/^\d+$/.test(w));
    const word = pick(titleWords);
    const kind = Math.floor(next() * 6);
    const q =
      kind === 0
        ? word.slice(0, 2 + Math.floor(next() * (word.length - 1))) // a word being typed
        : kind === 1 && word.length >= 5
          ? typo(word, next)
          : kind === 2
            ? row.brand.toLowerCase()
            : kind === 3
              ? `${pick(titleWords)} ${word.slice(0, 3)}`
              : kind === 4
                ? row.gtin
                : word;
    const params = new URLSearchParams({ q, limit: String(PAGE) });
    const roll = next();
    if (roll < 0.3) params.set("sort", pick(PRODUCT_SORTS));
    if (roll > 0.8) params.set("category", pick(PRODUCT_CATEGORIES));
    if (next() < 0.25) params.set("offset", String(PAGE * (1 + Math.floor(next() * 3))));
    paths.add(`/api/products?${params}`);
  }
  return [...paths];
}

/** Browsing without words: categories, a price range, a sort and a page. */
export function browsePaths(count = DIFFERENT_SEARCHES): string[] {
  const next = random(43);
  const paths = new Set<string>();
  while (paths.size < count) {
    const params = new URLSearchParams({ limit: String(PAGE) });
    params.set("sort", PRODUCT_SORTS[Math.floor(next() * PRODUCT_SORTS.length)]!);
    params.append("category", PRODUCT_CATEGORIES[Math.floor(next() * PRODUCT_CATEGORIES.length)]!);
    if (next() < 0.5) {
      params.append(
        "category",
        PRODUCT_CATEGORIES[Math.floor(next() * PRODUCT_CATEGORIES.length)]!,
      );
    }
    const low = Math.floor(next() * 50);
    params.set("minPrice", String(low));
    params.set("maxPrice", String(low + 5 + Math.floor(next() * 200)));
    params.set("offset", String(PAGE * Math.floor(next() * 4)));
    paths.add(`/api/products?${params}`);
  }
  return [...paths];
}

/**
 * Writes the feed and imports it into the database `env` names, as an operator would: the
 * seconds it took.
 */
export async function importFixture(
  dir: string,
  env: Record<string, string>,
  currency: string,
): Promise<number> {
  const file = path.join(dir, "bench-feed.tsv");
  await fs.writeFile(file, feedText({ rows: SEARCH_ROWS, format: "tsv", currency }));
  const started = performance.now();
  const child = spawn(process.execPath, [path.join(here, "catalog-import.ts"), file], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  if (code !== 0) throw new Error(`bench: the import of ${SEARCH_ROWS} rows exited with ${code}`);
  return (performance.now() - started) / 1000;
}

/** CPU time a process has used so far, user and system, in ms (Linux). */
export async function cpuMs(pid: number): Promise<number> {
  const stat = await fs.readFile(`/proc/${pid}/stat`, "utf8");
  // The fields after the command's name (which may hold spaces), from the third: utime is the 14th.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1000) / 100; // Linux counts in USER_HZ, 100 per second
}
