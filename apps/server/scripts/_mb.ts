import crypto from "node:crypto";
import zlib from "node:zlib";
import { fixtureRow } from "./catalog-feeds.ts";
import { searchPaths, SEARCH_ROWS } from "./bench-search.ts";
import { buildIndex } from "../src/features/products/search-index.ts";
import { query } from "../src/features/products/search-query.ts";
import { productWords, type IndexedProduct } from "../src/features/products/search-words.ts";

const cat = ["Groceries", "Home", "Electronics", "Clothing", "Beauty", "Toys", "Sports", "Books"];
const products: IndexedProduct[] = [];
const jsons: string[] = [];
for (let i = 0; i < SEARCH_ROWS; i++) {
  const r = fixtureRow(i);
  const p: IndexedProduct = { name: r.title, brand: r.brand, description: r.description, category: cat[i % 8]!, gtin: r.gtin.padStart(14, "0"), priceCents: Math.round(parseFloat(r.price) * 100), rating: (i % 50) / 10, reviews: i % 300, available: true };
  products.push(p);
  jsons.push(JSON.stringify({ _id: crypto.randomUUID(), name: p.name, price: p.priceCents / 100, imageUrl: `/api/catalog/images/${r.id.toLowerCase()}-abcdef0123456789.svg`, rating: p.rating, reviews: p.reviews, description: p.description, category: p.category, stock: 10, brand: p.brand, gtin: p.gtin, available: true, key: r.id }));
}
const index = buildIndex(products, products.map(productWords));
const paths = searchPaths();
const qs = paths.map((p) => new URLSearchParams(p.split("?")[1]));
const mode = process.argv[2] ?? "all";
let bytes = 0;
function one(params: URLSearchParams) {
  const { docs, total } = query(index, { q: params.get("q") ?? undefined, categories: params.get("category") ? new Set([params.get("category")!]) : undefined, available: true, sort: (params.get("sort") ?? "relevance") as never, offset: Number(params.get("offset") ?? 0), limit: Number(params.get("limit")) });
  if (mode === "query") return;
  const body = `{"products":[${docs.map((d) => jsons[d]).join(",")}],"total":${total}}`;
  bytes += body.length;
  crypto.hash("sha1", body, "base64url");
  if (mode === "noz") return;
  zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1, [zlib.constants.BROTLI_PARAM_LGWIN]: 16, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(body) } });
}
for (let round = 0; round < 6; round++) {
  bytes = 0;
  const t = performance.now();
  for (const p of qs) one(p);
  const ms = performance.now() - t;
  console.log(`round ${round} ${mode}: ${((ms / qs.length) * 1000).toFixed(1)} µs per search, body ${Math.round(bytes / qs.length)} B`);
}
if (process.argv[3] === "slow") {
  const times: Array<[number, string]> = [];
  for (const [i, p] of qs.entries()) { const t = performance.now(); one(p); times.push([performance.now() - t, paths[i]!]); }
  times.sort((a, b) => b[0] - a[0]);
  const sum = times.reduce((s, [t]) => s + t, 0);
  console.log("total", sum.toFixed(0), "ms; top 20 share", (times.slice(0, 20).reduce((s, [t]) => s + t, 0) / sum * 100).toFixed(1), "%; top 200 share", (times.slice(0, 200).reduce((s, [t]) => s + t, 0) / sum * 100).toFixed(1));
  for (const [t, p] of times.slice(0, 25)) console.log(t.toFixed(2), decodeURIComponent(p));
}
if (process.argv[3] === "cold") {
  console.log("vocabulary", index.vocabulary.length, "byLength", [...index.byLength].map(([l, w]) => `${l}:${w.length}`).join(" "));
  for (let r = 0; r < 3; r++) {
    const kinds = new Map<string, [number, number]>();
    for (const [i, p] of qs.entries()) {
      index.wordMatches.clear(); index.remembered.clear(); index.rememberedSize = 0;
      const t = performance.now(); one(p); const dt = performance.now() - t;
      const q = p.get("q")!;
      const kind = /^\d+$/.test(q) ? "gtin" : q.includes(" ") ? "two" : q.length < 5 ? "short" : "long";
      const k = kinds.get(kind) ?? [0, 0]; k[0] += dt; k[1]++; kinds.set(kind, k);
      void i;
    }
    console.log([...kinds].map(([k, [t, n]]) => `${k}: n=${n} mean ${(t / n * 1000).toFixed(0)} µs`).join("; "));
  }
}
import { score } from "../src/features/products/search-score.ts";
import { words } from "../src/features/products/search-words.ts";
if (process.argv[3] === "cpu") {
  for (let r = 0; r < 6; r++) {
    const c0 = process.cpuUsage(); let n = 0;
    for (const p of qs) { index.remembered.clear(); index.rememberedSize = 0; one(p); n++; }
    const c = process.cpuUsage(c0);
    console.log(`cold query CPU ${((c.user + c.system) / n).toFixed(1)} µs`);
  }
}
if (process.argv[3] === "parts") {
  for (let r = 0; r < 4; r++) {
    let tScore = 0, tAll = 0, n = 0, dense = 0, matchedTotal = 0;
    for (const p of qs) {
      const q = p.get("q")!; if (/^\d+$/.test(q)) continue;
      index.remembered.clear(); index.rememberedSize = 0;
      const w = words(q).slice(0, 8);
      const t0 = performance.now(); score(index, w); const t1 = performance.now();

      index.remembered.clear(); index.rememberedSize = 0;
      const t2 = performance.now(); const res = query(index, { q, available: true, sort: (p.get("sort") ?? "relevance") as never, offset: 0, limit: 24, categories: p.get("category") ? new Set([p.get("category")!]) : undefined }); const t3 = performance.now();
      matchedTotal += res.total;
      tScore += t1 - t0; tAll += t3 - t2; n++;
    }
    console.log(`score ${(tScore / n * 1000).toFixed(0)} µs, whole query ${(tAll / n * 1000).toFixed(0)} µs, dense ${dense}/${n}, mean matches ${(matchedTotal / n).toFixed(0)}`);
  }
}
if (process.argv[3] === "body") {
  const bodies = qs.map((p) => { const { docs, total } = query(index, { q: p.get("q") ?? undefined, available: true, sort: "relevance", offset: 0, limit: 24 }); return `{"products":[${docs.map((d) => jsons[d]).join(",")}],"total":${total}}`; });
  for (let r = 0; r < 3; r++) {
    let t = performance.now(); for (const b of bodies) crypto.hash("sha1", b, "base64url"); const sha = (performance.now() - t) / bodies.length * 1000;
    t = performance.now(); for (const b of bodies) zlib.brotliCompressSync(b, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1, [zlib.constants.BROTLI_PARAM_LGWIN]: 16, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(b) } }); const br = (performance.now() - t) / bodies.length * 1000;
    t = performance.now(); for (const b of bodies) zlib.gzipSync(b, { level: 1 }); const gz = (performance.now() - t) / bodies.length * 1000;
    t = performance.now(); for (const b of bodies) zlib.deflateRawSync(b, { level: 1 }); const df = (performance.now() - t) / bodies.length * 1000;
    t = performance.now(); for (const b of bodies) Buffer.from(b); const buf = (performance.now() - t) / bodies.length * 1000;
    console.log(`sha1 ${sha.toFixed(1)} µs, brotli ${br.toFixed(1)} µs, gzip1 ${gz.toFixed(1)}, deflateRaw1 ${df.toFixed(1)}, Buffer.from ${buf.toFixed(1)}, mean body ${Math.round(bodies.reduce((s, b) => s + b.length, 0) / bodies.length)}`);
  }
}
