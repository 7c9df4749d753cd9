/**
 * Bundle budgets for the web app, checked after `vite build` (part of `npm run build`).
 *
 * - Initial JavaScript for `/`: the entry chunk plus everything it imports statically (what the
 *   browser must download before the landing page is interactive), at most 100 KB gzip
 *   (docs/decisions/013-first-load.md has what each library costs).
 * - No single JavaScript chunk over 500 kB (minified, before compression).
 * - No zod in what `/` and `/login` (the entry), `/products` and `/orders/:id` load first: it is about 22 KB
 *   compressed and builds its schemas when it starts. Forms on those pages check their input with
 *   light functions; the server validates with the schemas. (Its internals all use the `_zod`
 *   property, which minification keeps, so a chunk holding zod contains that string.)
 *
 * The entry, the pages and their static imports come from Vite's manifest (build.manifest in
 * vite.config.ts).
 * Exits 1 with a message naming the budget and the biggest files when one is exceeded.
 */
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

const INITIAL_JS_GZIP_BUDGET = 100 * 1024;
const CHUNK_BUDGET = 500 * 1000;

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

const dist = path.resolve(import.meta.dirname, "../apps/web/dist");
const manifestPath = path.join(dist, ".vite/manifest.json");
if (!fs.existsSync(manifestPath)) {
  console.error(`check-bundle: ${manifestPath} is missing; run \`npm run build\` first.`);
  process.exit(1);
}
const manifest = JSON.parse(fs.readFileSync(manifestPath, "utf8")) as Manifest;

const gzipSize = (file: string) =>
  zlib.gzipSync(fs.readFileSync(path.join(dist, file)), { level: 9 }).length;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** A chunk and, transitively, its static imports (what loads with it; dynamic imports load later). */
function withStaticImports(key: string): ManifestChunk[] {
  const seen = new Map<string, ManifestChunk>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || seen.has(key)) return;
    seen.set(key, chunk);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit(key);
  return [...seen.values()];
}

/** The entry chunk and its static imports. */
function initialChunks(): ManifestChunk[] {
  const entry = Object.entries(manifest).find(([, chunk]) => chunk.isEntry);
  if (!entry) throw new Error("check-bundle: no entry chunk in the Vite manifest");
  return withStaticImports(entry[0]);
}

const failures: string[] = [];

const initial = initialChunks()
  .map((chunk) => ({ file: chunk.file, gzip: gzipSize(chunk.file) }))
  .sort((a, b) => b.gzip - a.gzip);
const initialTotal = initial.reduce((sum, chunk) => sum + chunk.gzip, 0);
const initialCss = [...new Set(initialChunks().flatMap((chunk) => chunk.css ?? []))];
const cssTotal = initialCss.reduce((sum, file) => sum + gzipSize(file), 0);

console.info(`Initial JavaScript for / (${initial.length} files), gzip:`);
for (const chunk of initial) console.info(`  ${kb(chunk.gzip).padStart(9)}  ${chunk.file}`);
console.info(
  `  ${kb(initialTotal).padStart(9)}  total (budget ${kb(INITIAL_JS_GZIP_BUDGET)}); CSS ${kb(cssTotal)} gzip`,
);
if (initialTotal > INITIAL_JS_GZIP_BUDGET) {
  failures.push(
    `initial JavaScript for / is ${kb(initialTotal)} gzip, over the ${kb(INITIAL_JS_GZIP_BUDGET)} budget. ` +
      `Load more of it lazily (React.lazy routes, dynamic import()); biggest: ${initial
        .slice(0, 3)
        .map((c) => `${c.file} ${kb(c.gzip)}`)
        .join(", ")}.`,
  );
}

const assets = path.join(dist, "assets");
const chunks = fs
  .readdirSync(assets)
  .filter((name) => name.endsWith(".js"))
  .map((name) => ({ file: `assets/${name}`, bytes: fs.statSync(path.join(assets, name)).size }))
  .sort((a, b) => b.bytes - a.bytes);
const largest = chunks[0];
if (largest) {
  console.info(
    `Largest chunk: ${largest.file}, ${(largest.bytes / 1000).toFixed(1)} kB ` +
      `(${kb(gzipSize(largest.file))} gzip; budget ${CHUNK_BUDGET / 1000} kB); ${chunks.length} chunks`,
  );
}
for (const chunk of chunks.filter((c) => c.bytes > CHUNK_BUDGET)) {
  failures.push(
    `${chunk.file} is ${(chunk.bytes / 1000).toFixed(1)} kB, over the ${CHUNK_BUDGET / 1000} kB chunk budget.`,
  );
}

/**
 * Lazily loaded pages (and the manifest keys of their chunks) that must load without zod too,
 * with the signed-in layout's chunk (the live connection, the session bar), which every signed-in
 * page loads alongside.
 */
const ZOD_FREE_PAGES = [
  { route: "/products", key: "src/features/products/ProductsPage.tsx" },
  { route: "/orders/:id", key: "src/features/orders/OrderPage.tsx" },
];
const SIGNED_IN_LAYOUT = "src/app/signed-in.tsx";
const zodFreeLoads = [
  { page: "/ and /login (the entry)", chunks: initialChunks() },
  ...ZOD_FREE_PAGES.map(({ route, key }) => {
    for (const needed of [key, SIGNED_IN_LAYOUT]) {
      if (!manifest[needed]) throw new Error(`check-bundle: ${needed} is not in the Vite manifest`);
    }
    return {
      page: route,
      chunks: [
        ...initialChunks(),
        ...withStaticImports(SIGNED_IN_LAYOUT),
        ...withStaticImports(key),
      ],
    };
  }),
];
const zodFailuresBefore = failures.length;
for (const { page, chunks } of zodFreeLoads) {
  const withZod = [...new Set(chunks.map((chunk) => chunk.file))].filter((file) =>
    fs.readFileSync(path.join(dist, file), "utf8").includes("_zod"),
  );
  if (withZod.length > 0) {
    failures.push(
      `zod is in the first load of ${page} (${withZod.join(", ")}). Import values the ` +
        `contract keeps apart from its schemas (packages/contract/src/constants.ts) and check ` +
        `forms with light functions (apps/web/src/features/auth/login-validation.ts).`,
    );
  }
}
if (failures.length === zodFailuresBefore) {
  console.info(`No zod in the first load of ${zodFreeLoads.map((load) => load.page).join(", ")}`);
}

if (failures.length > 0) {
  for (const failure of failures) console.error(`Bundle budget exceeded: ${failure}`);
  process.exit(1);
}
console.info("Bundle budgets: OK");
