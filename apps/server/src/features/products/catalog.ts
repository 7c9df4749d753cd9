import crypto from "node:crypto";
import zlib from "node:zlib";
import {
  fromCents,
  toCents,
  type Product,
  type ProductCategory,
  type ProductSort,
} from "@cartner/contract";
import { asc } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { products } from "../../db/schema.ts";
import { notFound } from "../../lib/errors.ts";
import { productImageFile, type Media } from "../../lib/media.ts";

export interface ProductFilter {
  q?: string | undefined;
  category?: ProductCategory[] | undefined;
  minPrice?: number | undefined;
  maxPrice?: number | undefined;
  sort: ProductSort;
  limit?: number | undefined;
  offset: number;
  /** Products on sale (true, the default) or those taken off sale (false). */
  available?: boolean | undefined;
}

/** A ready-to-send JSON answer and its ETag. */
export interface CachedBody {
  body: string;
  etag: string;
  /** The body gzipped once, for clients that accept it (browsers do). */
  gzip?: Buffer;
}

const MIN_GZIP_BYTES = 1024;
const withGzip = (answer: CachedBody): CachedBody =>
  answer.body.length >= MIN_GZIP_BYTES ? { ...answer, gzip: zlib.gzipSync(answer.body) } : answer;

interface Entry {
  product: Product;
  priceCents: number;
  /** Lower-cased text for search. */
  name: string;
  category: string;
  description: string;
  position: number;
}

interface Snapshot {
  entries: Entry[];
  byId: Map<string, Entry>;
  images: Map<string, CachedBody>;
}

/** Distinct list answers kept per snapshot; the catalog is small, queries repeat a lot. */
const MAX_CACHED_ANSWERS = 1000;

const etagOf = (body: string) =>
  `"${crypto.createHash("sha1").update(body).digest("base64url").slice(0, 22)}"`;

/**
 * The catalog is the hottest read of the app and changes rarely: it is loaded once into memory and
 * every answer is cached as a serialised body with its ETag. Any write to products must call
 * invalidate(); the next read reloads. Created once per app (services.ts): it holds state (the
 * snapshot and the cached answers), so it stays one object rather than plain functions.
 */
export function createCatalog(db: Db, media: Media) {
  let snapshot: Promise<Snapshot> | undefined;
  let answers = new Map<string, CachedBody>();

  async function load(): Promise<Snapshot> {
    const rows = await db
      .select()
      .from(products)
      .orderBy(asc(products.position), asc(products.name));
    const entries: Entry[] = rows.map((row) => ({
      product: {
        _id: row.id,
        name: row.name,
        price: fromCents(row.priceCents),
        imageUrl: media.productImage(row.slug, row.imageHash),
        rating: row.ratingTenths / 10,
        reviews: row.reviews,
        description: row.description,
        category: row.category as ProductCategory,
        stock: row.stock,
        ...(row.color ? { color: row.color } : {}),
        brand: row.brand,
        gtin: row.gtin,
        available: row.available,
        key: row.key,
      },
      priceCents: row.priceCents,
      name: row.name.toLowerCase(),
      category: row.category.toLowerCase(),
      description: row.description.toLowerCase(),
      position: row.position,
    }));
    const images = new Map(
      rows.map((row) => [
        productImageFile(row.slug, row.imageHash),
        withGzip({ body: row.imageSvg, etag: `"${row.imageHash}"` }),
      ]),
    );
    return { entries, byId: new Map(entries.map((e) => [e.product._id, e])), images };
  }

  function current(): Promise<Snapshot> {
    snapshot ??= load().catch((error) => {
      snapshot = undefined; // a failed load (database down) is retried by the next request
      throw error;
    });
    return snapshot;
  }

  async function list(filter: ProductFilter): Promise<CachedBody> {
    const snap = await current();
    const key = JSON.stringify([
      filter.q?.toLowerCase() ?? "",
      [...(filter.category ?? [])].sort(),
      filter.minPrice ?? null,
      filter.maxPrice ?? null,
      filter.sort,
      filter.limit ?? null,
      filter.offset,
      filter.available ?? true,
    ]);
    const hit = answers.get(key);
    if (hit) return hit;

    const found = search(snap.entries, filter);
    const page = found.slice(
      filter.offset,
      filter.limit ? filter.offset + filter.limit : undefined,
    );
    const body = JSON.stringify({ products: page.map((e) => e.product), total: found.length });
    const answer = withGzip({ body, etag: etagOf(body) });
    if (answers.size >= MAX_CACHED_ANSWERS) answers = new Map();
    answers.set(key, answer);
    return answer;
  }

  async function get(id: string): Promise<Product> {
    const entry = (await current()).byId.get(id);
    if (!entry) throw notFound("Product not found.");
    return entry.product;
  }

  async function image(file: string): Promise<CachedBody> {
    const found = (await current()).images.get(file);
    if (!found) throw notFound("No such image");
    return found;
  }

  function invalidate(): void {
    snapshot = undefined;
    answers = new Map();
  }

  return { list, get, image, invalidate };
}

export type Catalog = ReturnType<typeof createCatalog>;

/** Filters and sorts in memory; pure, so it is tested on its own. */
export function search(entries: Entry[], filter: ProductFilter): Entry[] {
  const terms = (filter.q ?? "").toLowerCase().split(/\s+/).filter(Boolean);
  const categories = filter.category?.length ? new Set<string>(filter.category) : undefined;
  const min = filter.minPrice === undefined ? undefined : toCents(filter.minPrice);
  const max = filter.maxPrice === undefined ? undefined : toCents(filter.maxPrice);

  const scored: Array<{ entry: Entry; score: number }> = [];
  const available = filter.available ?? true;
  for (const entry of entries) {
    if (entry.product.available !== available) continue;
    if (categories && !categories.has(entry.product.category)) continue;
    if (min !== undefined && entry.priceCents < min) continue;
    if (max !== undefined && entry.priceCents > max) continue;
    let score = 0;
    let matchesAll = true;
    for (const term of terms) {
      const inName = entry.name.includes(term);
      const inCategory = entry.category.includes(term);
      const inDescription = entry.description.includes(term);
      if (!inName && !inCategory && !inDescription) {
        matchesAll = false;
        break;
      }
      score += (inName ? 4 : 0) + (inCategory ? 2 : 0) + (inDescription ? 1 : 0);
    }
    if (!matchesAll) continue;
    scored.push({ entry, score });
  }

  const byPosition = (a: Entry, b: Entry) => a.position - b.position;
  const compare: Record<ProductSort, (a: (typeof scored)[0], b: (typeof scored)[0]) => number> = {
    relevance: (a, b) => b.score - a.score || byPosition(a.entry, b.entry),
    price_asc: (a, b) => a.entry.priceCents - b.entry.priceCents || byPosition(a.entry, b.entry),
    price_desc: (a, b) => b.entry.priceCents - a.entry.priceCents || byPosition(a.entry, b.entry),
    rating: (a, b) =>
      b.entry.product.rating - a.entry.product.rating ||
      b.entry.product.reviews - a.entry.product.reviews ||
      byPosition(a.entry, b.entry),
  };
  return scored.sort(compare[filter.sort]).map((s) => s.entry);
}
