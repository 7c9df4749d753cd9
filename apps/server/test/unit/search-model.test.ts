/**
 * The search index against a reference written apart from it: every product scored word by word
 * as the rules say (a name word equal 8, started 6, one typo away 4; a text word started 2, one
 * typo away 1; the best match per query word, all words needed, their scores added), filtered,
 * then sorted by comparing products. Random catalogs mix rare and common words, so both the
 * listing and the scanning paths, and every sort and filter, are walked.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { searchPaths } from "../../scripts/bench-search.ts";
import { fixtureRow } from "../../scripts/catalog-feeds.ts";
import { categoryOf } from "../../src/features/catalog/categories.ts";
import { buildIndex, type SearchQuery } from "../../src/features/products/search-index.ts";
import { query } from "../../src/features/products/search-query.ts";
import {
  gtinKey,
  productWords,
  withinOneTypo,
  type IndexedProduct,
} from "../../src/features/products/search-words.ts";

const CATEGORIES = ["Drinks", "Food", "Home"];
/** Few common words and many rare ones: some queries match most of the catalog, some a few. */
const COMMON = ["milk", "bread", "apple", "apples", "ample", "grape", "grapes", "drape", "dark"];
const RARE = Array.from({ length: 60 }, (_, i) => `item${String.fromCharCode(97 + (i % 26))}${i}`);

const wordOf = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...COMMON) },
  { weight: 1, arbitrary: fc.constantFrom(...RARE) },
);
const productOf = fc.record({
  name: fc.array(wordOf, { minLength: 1, maxLength: 4 }).map((w) => w.join(" ")),
  brand: fc.option(fc.constantFrom("Acme", "Northwind"), { nil: null }),
  description: fc.array(wordOf, { maxLength: 5 }).map((w) => w.join(" ")),
  category: fc.constantFrom(...CATEGORIES),
  gtin: fc.constant(null),
  priceCents: fc.integer({ min: 1, max: 2000 }),
  rating: fc.integer({ min: 0, max: 10 }).map((r) => r / 2),
  reviews: fc.integer({ min: 0, max: 5 }),
  available: fc.boolean(),
});
const catalogOf = fc.array(productOf, { minLength: 1, maxLength: 120, size: "medium" });
/** A query word: a catalog word, a start of one, or one with a typo. */
const queryWordOf = fc.oneof(
  wordOf,
  wordOf.chain((w) => fc.integer({ min: 1, max: w.length }).map((n) => w.slice(0, n))),
  fc.tuple(wordOf, fc.nat(), fc.constantFrom("x", "e", "")).map(([w, at, letter]) => {
    const i = at % w.length;
    return w.slice(0, i) + letter + w.slice(i + 1);
  }),
);
const queryOf = fc.record({
  q: fc.array(queryWordOf, { minLength: 1, maxLength: 3 }).map((w) => w.join(" ")),
  categories: fc.option(
    fc.subarray(CATEGORIES, { minLength: 1 }).map((c) => new Set(c)),
    {
      nil: undefined,
      freq: 2,
    },
  ),
  minCents: fc.option(fc.integer({ min: 0, max: 1500 }), { nil: undefined, freq: 3 }),
  maxCents: fc.option(fc.integer({ min: 500, max: 2500 }), { nil: undefined, freq: 3 }),
  available: fc.oneof({ weight: 4, arbitrary: fc.constant(true) }, fc.constant(false)),
  sort: fc.constantFrom("relevance", "price_asc", "price_desc", "rating") as fc.Arbitrary<
    SearchQuery["sort"]
  >,
  offset: fc.integer({ min: 0, max: 12 }),
  limit: fc.option(fc.integer({ min: 1, max: 10 }), { nil: undefined }),
});

const lower = (text: string) => text.toLowerCase().match(/[a-z0-9]+/g) ?? [];

/** A query word's score for one product, as the rules say. */
function wordScore(word: string, p: IndexedProduct): number {
  const typo = (candidate: string) =>
    word.length >= 5 && !candidate.startsWith(word) && withinOneTypo(word, candidate);
  let best = 0;
  for (const t of [...lower(p.name), ...lower(p.brand ?? "")]) {
    if (t === word) best = Math.max(best, 8);
    else if (t.startsWith(word)) best = Math.max(best, 6);
    else if (typo(t)) best = Math.max(best, 4);
  }
  for (const t of [...lower(p.description), ...lower(p.category)]) {
    if (t.startsWith(word)) best = Math.max(best, 2);
    else if (typo(t)) best = Math.max(best, 1);
  }
  return best;
}

function reference(catalog: IndexedProduct[], q: SearchQuery) {
  const queryWords = lower(q.q ?? "").slice(0, 8);
  const matches = catalog.flatMap((p, doc) => {
    const scores = queryWords.map((w) => wordScore(w, p));
    if (scores.some((s) => s === 0)) return [];
    if (p.available !== q.available) return [];
    if (q.categories && !q.categories.has(p.category)) return [];
    if (p.priceCents < (q.minCents ?? -Infinity) || p.priceCents > (q.maxCents ?? Infinity)) {
      return [];
    }
    return [{ doc, p, score: scores.reduce((a, b) => a + b, 0) }];
  });
  type Match = (typeof matches)[number];
  const compare: Record<SearchQuery["sort"], (a: Match, b: Match) => number> = {
    relevance: (a, b) => b.score - a.score,
    price_asc: (a, b) => a.p.priceCents - b.p.priceCents,
    price_desc: (a, b) => b.p.priceCents - a.p.priceCents,
    rating: (a, b) => b.p.rating - a.p.rating || b.p.reviews - a.p.reviews,
  };
  matches.sort((a, b) => compare[q.sort](a, b) || a.doc - b.doc);
  const end = q.limit === undefined ? undefined : q.offset + q.limit;
  return { docs: matches.slice(q.offset, end).map((m) => m.doc), total: matches.length };
}

describe("search against its reference", () => {
  it("finds, ranks, filters, sorts and pages as the rules say, on any catalog", () => {
    fc.assert(
      fc.property(
        catalogOf,
        fc.array(queryOf, { minLength: 1, maxLength: 8, size: "medium" }),
        (catalog, queries) => {
          // One index answers many queries: what a query leaves behind must not change the next.
          const index = buildIndex(catalog, catalog.map(productWords));
          for (const q of queries) expect(query(index, q)).toEqual(reference(catalog, q));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("answers the bench's searches as the rules say, where every word matches thousands", () => {
    // The bench's catalog: few words, each held by a large share of the products, so nearly every
    // query takes the scanning path with many matches, long pages and every sort.
    const rows = Array.from({ length: 2001 }, (_, i) => fixtureRow(i));
    const catalog: IndexedProduct[] = rows.map((row, i) => ({
      name: row.title,
      brand: row.brand,
      description: row.description,
      category: categoryOf(row.product_type, row.google_product_category),
      gtin: row.gtin,
      priceCents: Math.round(Number.parseFloat(row.price) * 100),
      rating: (i % 11) / 2,
      reviews: i % 7,
      available: row.availability !== "out_of_stock",
    }));
    const index = buildIndex(catalog, catalog.map(productWords));
    const queries: SearchQuery[] = searchPaths(catalog.length, 300).flatMap((path) => {
      const params = new URLSearchParams(path.slice(path.indexOf("?") + 1));
      const q = params.get("q")!;
      if (gtinKey(q)) return []; // a GTIN finds its product, which the reference does not model
      const category = params.get("category");
      return [
        {
          q,
          categories: category ? new Set([category]) : undefined,
          available: true,
          sort: (params.get("sort") ?? "relevance") as SearchQuery["sort"],
          offset: Number(params.get("offset") ?? 0),
          limit: Number(params.get("limit")),
        },
      ];
    });
    // Eight words, each of a product's name (scores up to 64), off sale, within prices, all pages.
    for (const [i, row] of rows.slice(0, 40).entries()) {
      queries.push({
        q: [...lower(row.title), ...lower(row.description)].slice(0, 8).join(" "),
        available: i % 3 !== 0,
        minCents: i % 2 ? 1000 : undefined,
        maxCents: i % 4 ? 50_000 : undefined,
        sort: (["relevance", "price_asc", "price_desc", "rating"] as const)[i % 4]!,
        offset: i % 5,
      });
    }
    for (const q of queries) expect(query(index, q)).toEqual(reference(catalog, q));
  });
});
