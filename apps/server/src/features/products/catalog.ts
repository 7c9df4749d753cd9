import crypto from "node:crypto";
import { toCents, type Product, type ProductCategory, type ProductSort } from "@cartner/contract";
import { getTableColumns, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { products } from "../../db/schema.ts";
import { notFound } from "../../lib/errors.ts";
import { type EncodableBody } from "../../lib/encoded-body.ts";
import { productImageFile, type Media } from "../../lib/media.ts";
import { productOf } from "./product-row.ts";
import { buildIndex, type SearchIndex } from "./search-index.ts";
import { query } from "./search-query.ts";
import { productWords, type IndexedProduct, type ProductWords } from "./search-words.ts";

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

/**
 * A ready-to-send answer (JSON or a drawn picture) and its ETag; its compressed forms are made the
 * first time a client accepting them asks (encodedBody).
 */
export interface CachedBody extends EncodableBody {
  etag: string;
}

interface Entry {
  product: Product;
  /** The product as JSON, made the first time a list answer holds it. */
  json?: string;
  /** What the search index reads of it, and its words (kept, so a refresh re-reads only changes). */
  indexed: IndexedProduct;
  words: ProductWords;
  /** Its row's updated_at, as the database writes it (to the microsecond): a refresh re-reads
   * only products whose row moved on. */
  version: string;
  position: number;
  /** Its picture's file name (the key of the snapshot's images). */
  imageFile: string;
  /** A 64-bit hash of its id and version, as two numbers: the snapshot's tag XORs them all. */
  tag: [number, number];
}

interface Snapshot {
  /** In the catalog's order: position, then name. */
  entries: Entry[];
  byId: Map<string, Entry>;
  images: Map<string, CachedBody>;
  index: SearchIndex;
  /** Answers cached from this snapshot (a new snapshot starts with none). */
  answers: Map<string, CachedBody>;
  /**
   * What the snapshot holds, as the XOR of its products' tags: any product's change changes it,
   * and every instance holding the same rows has the same one. A list answer is a function of the
   * snapshot and the query, so its ETag is made from those two, not from hashing the body.
   */
  tag: [number, number];
}

/** Distinct list answers kept per snapshot; queries repeat a lot (a search typed letter by letter). */
const MAX_CACHED_ANSWERS = 1000;

/** A 64-bit hash of a text, as two numbers. */
function hash64(text: string): [number, number] {
  const digest = crypto.hash("sha1", text, "buffer");
  return [digest.readUInt32LE(0), digest.readUInt32LE(4)];
}

/** The XOR of tags (to add one to a snapshot's tag, or take one away). */
const xor = (a: [number, number], b: [number, number]): [number, number] => [
  (a[0] ^ b[0]) >>> 0,
  (a[1] ^ b[1]) >>> 0,
];

/** A list answer's ETag: the snapshot's tag and the query's key. */
const etagOf = (tag: [number, number], key: string) =>
  `"${tag[0].toString(36)}.${tag[1].toString(36)}.${crypto.hash("sha1", key, "base64url").slice(0, 11)}"`;

/** Whether the search would read two versions of a product the same (search-words.ts). */
const sameIndexed = (a: IndexedProduct, b: IndexedProduct) =>
  (Object.keys(a) as Array<keyof IndexedProduct>).every((key) => a[key] === b[key]);

/** updated_at as text: compared as it is, with no date to parse per row. */
const version = sql<string>`${products.updatedAt}::text`;
type ProductRow = typeof products.$inferSelect & { version: string };

/**
 * The catalog is the hottest read of the app: it is held in memory with its search index
 * (search-index.ts) and every answer is cached as a serialised body with its ETag. After a write to
 * products, refresh() reads again only the rows whose updated_at moved (one repeatable-read
 * transaction, so a refresh sees every import batch whole or not at all) and swaps in the new
 * snapshot; reads meanwhile are answered from the old one. Created once per app (services.ts): it
 * holds state (the snapshot and the cached answers), so it stays one object rather than plain
 * functions.
 */
export function createCatalog(db: Db, media: Media) {
  let snapshot: Promise<Snapshot> | undefined;

  function entryOf(row: ProductRow): Entry {
    const indexed: IndexedProduct = {
      name: row.name,
      brand: row.brand,
      description: row.description,
      category: row.category,
      gtin: row.gtin,
      priceCents: row.priceCents,
      rating: row.ratingTenths / 10,
      reviews: row.reviews,
      available: row.available,
    };
    return {
      product: productOf(row, media),
      indexed,
      words: productWords(indexed),
      version: row.version,
      position: row.position,
      imageFile: productImageFile(row.slug, row.imageHash),
      tag: hash64(`${row.id} ${row.version}`),
    };
  }

  const imageOf = (row: ProductRow): [string, CachedBody] => [
    productImageFile(row.slug, row.imageHash),
    { body: row.imageSvg, etag: `"${row.imageHash}"` },
  ];

  function snapshotOf(entries: Entry[], images: Map<string, CachedBody>): Snapshot {
    entries.sort((a, b) =>
      a.position !== b.position
        ? a.position - b.position
        : a.product.name < b.product.name
          ? -1
          : a.product.name > b.product.name
            ? 1
            : 0,
    );
    return {
      entries,
      byId: new Map(entries.map((e) => [e.product._id, e])),
      images,
      index: buildIndex(
        entries.map((e) => e.indexed),
        entries.map((e) => e.words),
      ),
      answers: new Map(),
      tag: entries.reduce<[number, number]>((tag, entry) => xor(tag, entry.tag), [0, 0]),
    };
  }

  async function load(): Promise<Snapshot> {
    const rows = await db.select({ ...getTableColumns(products), version }).from(products);
    // The drawn pictures shown; photos are read from the database when asked for.
    const drawn = rows.filter((row) => row.imageType === "svg");
    return snapshotOf(rows.map(entryOf), new Map(drawn.map(imageOf)));
  }

  /**
   * The snapshot brought up to date: every row's updated_at compared with what is held, and only
   * the rows that differ (or `ids`, when the caller names what it changed) read in full.
   */
  async function reread(old: Snapshot, ids?: readonly string[]): Promise<Snapshot> {
    const changed = await db.transaction(
      async (tx) => {
        let wanted = ids ? [...ids] : [];
        if (!ids) {
          const versions = await tx.select({ id: products.id, version }).from(products);
          wanted = versions
            .filter((v) => old.byId.get(v.id)?.version !== v.version)
            .map((v) => v.id);
        }
        if (wanted.length === 0) return [];
        return tx
          .select({ ...getTableColumns(products), version })
          .from(products)
          .where(
            sql`${products.id} in (select json_array_elements_text(${JSON.stringify(wanted)}::json)::uuid)`,
          );
      },
      { isolationLevel: "repeatable read", accessMode: "read only" },
    );
    // Rows named but already held as they are (this server's own change, heard back over the
    // bus) change nothing: no new snapshot, no index rebuilt.
    const moved = changed.filter((row) => old.byId.get(row.id)?.version !== row.version);
    if (moved.length === 0) return old;
    const byId = new Map(old.byId);
    const images = new Map(old.images);
    const fresh = moved.map(entryOf);
    for (const [k, row] of moved.entries()) {
      const before = byId.get(row.id);
      if (before) images.delete(before.imageFile);
      byId.set(row.id, fresh[k]!);
      if (row.imageType === "svg") images.set(...imageOf(row));
    }
    // Nothing the search reads moved (a checkout's stock, a picture): the products keep their
    // places and the index stays; rebuilding it costs about a second at 50,000 products.
    const searchSame = fresh.every((entry) => {
      const before = old.byId.get(entry.product._id);
      return (
        before && before.position === entry.position && sameIndexed(before.indexed, entry.indexed)
      );
    });
    if (searchSame) {
      const place = new Map(old.entries.map((entry, doc) => [entry.product._id, doc]));
      const entries = [...old.entries];
      let { tag } = old;
      for (const entry of fresh) {
        const at = place.get(entry.product._id)!;
        tag = xor(xor(tag, entries[at]!.tag), entry.tag);
        entries[at] = entry;
      }
      return { entries, byId, images, index: old.index, answers: new Map(), tag };
    }
    return snapshotOf([...byId.values()], images);
  }

  function current(): Promise<Snapshot> {
    snapshot ??= load().catch((error) => {
      snapshot = undefined; // a failed load (database down) is retried by the next request
      throw error;
    });
    return snapshot;
  }

  /** The refresh running now, and the one queued after it for what changed meanwhile. */
  let running: Promise<void> | undefined;
  let queued: { ids: Set<string> | "all"; done: Promise<void> } | undefined;
  /** A refresh failed (the database down): the next read tries again. */
  let stale = false;

  function start(ids: readonly string[] | undefined): Promise<void> {
    const run = (async () => {
      const old = await current();
      const next = await reread(old, ids).catch((error: unknown) => {
        stale = true;
        throw error;
      });
      if (next !== old) snapshot = Promise.resolve(next);
    })();
    running = run.finally(() => (running = undefined));
    return running;
  }

  /**
   * Brings the catalog up to what is committed now: the products named, or every product whose
   * row changed. One refresh runs at a time; calls during one share the next.
   */
  function refresh(ids?: readonly string[]): Promise<void> {
    if (!snapshot) return Promise.resolve(); // nothing held yet: the first read loads it all
    if (!running) return start(ids);
    if (!queued) {
      const next: { ids: Set<string> | "all"; done: Promise<void> } = {
        ids: ids ? new Set(ids) : "all",
        done: running
          .catch(() => undefined)
          .then(() => {
            queued = undefined;
            return start(next.ids === "all" ? undefined : [...next.ids]);
          }),
      };
      queued = next;
    } else if (queued.ids !== "all") {
      if (ids) for (const id of ids) queued.ids.add(id);
      else queued.ids = "all";
    }
    return queued.done;
  }

  /** The snapshot to answer from; after a failed refresh, a new one is started meanwhile. */
  function fresh(): Promise<Snapshot> {
    if (stale && !running) {
      stale = false;
      refresh().catch(() => undefined); // failed again: stale once more, retried by the next read
    }
    return current();
  }

  async function list(filter: ProductFilter): Promise<CachedBody> {
    const snap = await fresh();
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
    const { answers } = snap;
    const hit = answers.get(key);
    if (hit) return hit;

    const { docs, total } = query(snap.index, {
      q: filter.q,
      categories: filter.category?.length ? new Set(filter.category) : undefined,
      minCents: filter.minPrice === undefined ? undefined : toCents(filter.minPrice),
      maxCents: filter.maxPrice === undefined ? undefined : toCents(filter.maxPrice),
      available: filter.available ?? true,
      sort: filter.sort,
      offset: filter.offset,
      limit: filter.limit,
    });
    const json = docs.map((doc) => {
      const entry = snap.entries[doc]!;
      return (entry.json ??= JSON.stringify(entry.product));
    });
    const body = `{"products":[${json.join(",")}],"total":${total}}`;
    const answer: CachedBody = { body, etag: etagOf(snap.tag, key) };
    if (answers.size >= MAX_CACHED_ANSWERS) answers.clear();
    answers.set(key, answer);
    return answer;
  }

  async function get(id: string): Promise<Product> {
    const entry = (await fresh()).byId.get(id);
    if (!entry) throw notFound("Product not found.");
    return entry.product;
  }

  async function image(file: string): Promise<CachedBody> {
    const found = (await fresh()).images.get(file);
    if (!found) throw notFound("No such image");
    return found;
  }

  return { list, get, image, refresh };
}

export type Catalog = ReturnType<typeof createCatalog>;
