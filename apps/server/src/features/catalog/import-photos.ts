/**
 * An import's pictures: after its rows are written, each row's image_link is fetched (through the
 * public-fetch module: public addresses only, every redirect checked) a few at a time and stored
 * by storeProductImage. A link is fetched only when the product's photo does not already come
 * from it, so the same file twice fetches nothing; a picture that cannot be had leaves the
 * product's picture as it was (its drawn one, for a new product) and is listed.
 */
import { eq, sql } from "drizzle-orm";
import { productImages, products } from "../../db/schema.ts";
import type { Db } from "../../db/types.ts";
import { AppError } from "../../lib/errors.ts";
import type { Media } from "../../lib/media.ts";
import { BodyTooLargeError, NotPublicError, type PublicFetch } from "../../lib/public-fetch.ts";
import type { FeedProduct } from "./feed-row.ts";
import { notifyServers } from "./import.ts";
import { PHOTO_MAX_BYTES, storeProductImage } from "./photo.ts";

/** Pictures fetched at once: enough to overlap the network's waits, few for a shop's server. */
export const PHOTO_CONCURRENCY = 4;
export const PHOTO_TIMEOUT_MS = 20_000;
/** Redirects followed (a CDN's http to https, a moved file), each hop checked. */
const PHOTO_REDIRECTS = 3;
const KEYS_PER_QUERY = 1000;

export interface PhotoImportDeps {
  db: Db;
  media: Media;
  fetch: PublicFetch;
  /** PostgreSQL: tell the running servers once, after the last picture, to reload the catalog. */
  notifyServers?: boolean;
  concurrency?: number;
  /** After each picture: pictures done, pictures in all. */
  progress?: (done: number, total: number) => void;
}

export interface PhotoWork {
  productId: string;
  key: string;
  link: string;
}

export interface PhotoReport {
  fetched: number;
  /** Rows whose link the product's photo already comes from. */
  unchanged: number;
  /** Pictures not had, each with why; the product keeps its picture. */
  failed: Array<PhotoWork & { reason: string }>;
  /** How long fetching and storing took. */
  seconds: number;
}

/**
 * The written rows' pictures still to fetch, how many rows' pictures are already stored, and how
 * many rows have a link. The stored photos' links are read in one pass (a second for 50,000 on
 * the embedded database, where looking each row up took three): a re-import with nothing new
 * asks nothing more.
 */
export async function photosToFetch(
  db: Db,
  rows: FeedProduct[],
): Promise<{ work: PhotoWork[]; unchanged: number; linked: number }> {
  const linked = rows.filter((row) => row.imageLink !== null);
  if (linked.length === 0) return { work: [], unchanged: 0, linked: 0 };
  const stored = await db
    .select({ key: products.key, source: productImages.source })
    .from(productImages)
    .innerJoin(products, eq(products.id, productImages.productId));
  const sourceOf = new Map(stored.map((row) => [row.key, row.source]));
  const wanted = linked.filter((row) => sourceOf.get(row.key) !== row.imageLink);
  const work: PhotoWork[] = [];
  for (let start = 0; start < wanted.length; start += KEYS_PER_QUERY) {
    const batch = wanted.slice(start, start + KEYS_PER_QUERY);
    const found = await db
      .select({ id: products.id, key: products.key })
      .from(products)
      .where(
        sql`${products.key} in (select json_array_elements_text(${JSON.stringify(batch.map((row) => row.key))}::json))`,
      );
    const idOf = new Map(found.map((row) => [row.key, row.id]));
    for (const row of batch) {
      const productId = idOf.get(row.key);
      // A row not written yet (a dry run's new product) has nothing to store its picture on.
      if (productId) work.push({ productId, key: row.key, link: row.imageLink! });
    }
  }
  return { work, unchanged: linked.length - wanted.length, linked: linked.length };
}

/** Why a picture was not had, in a few words for the operator. */
function reasonOf(error: unknown): string {
  if (error instanceof NotPublicError) return error.message;
  if (error instanceof BodyTooLargeError) {
    return `the picture is larger than ${PHOTO_MAX_BYTES / 1024 / 1024} MB`;
  }
  if (error instanceof AppError) return error.message;
  const name = (error as { name?: string }).name;
  if (name === "TimeoutError" || name === "AbortError") {
    return `no answer within ${PHOTO_TIMEOUT_MS / 1000} s`;
  }
  const code = (error as { code?: string }).code;
  const message = error instanceof Error ? error.message : String(error);
  return code && !message.includes(code) ? `${message} (${code})` : message;
}

async function fetchOne(deps: PhotoImportDeps, item: PhotoWork): Promise<string | undefined> {
  try {
    const answer = await deps.fetch(item.link, {
      timeoutMs: PHOTO_TIMEOUT_MS,
      maxBytes: PHOTO_MAX_BYTES,
      maxRedirects: PHOTO_REDIRECTS,
      headers: { accept: "image/webp,image/png,image/jpeg;q=0.9,*/*;q=0.1" },
    });
    if (answer.status !== 200) return `the server answered ${answer.status}`;
    await storeProductImage({ db: deps.db, media: deps.media }, item.productId, answer.body, {
      source: "import",
      link: item.link,
    });
    return undefined;
  } catch (error) {
    return reasonOf(error);
  }
}

/** Fetches and stores the pictures, PHOTO_CONCURRENCY at a time. */
export async function importPhotos(
  deps: PhotoImportDeps,
  work: PhotoWork[],
  unchanged = 0,
): Promise<PhotoReport> {
  const started = performance.now();
  const report: PhotoReport = { fetched: 0, unchanged, failed: [], seconds: 0 };
  let next = 0;
  let done = 0;
  const stored: string[] = [];
  const worker = async () => {
    while (next < work.length) {
      const item = work[next++]!;
      const reason = await fetchOne(deps, item);
      if (reason === undefined) {
        report.fetched++;
        stored.push(item.productId);
      } else report.failed.push({ ...item, reason });
      deps.progress?.(++done, work.length);
    }
  };
  const workers = Math.min(deps.concurrency ?? PHOTO_CONCURRENCY, work.length);
  await Promise.all(Array.from({ length: workers }, worker));
  // Listed in the feed's order, whichever finished first.
  const order = new Map(work.map((item, i) => [item.key, i]));
  report.failed.sort((a, b) => order.get(a.key)! - order.get(b.key)!);
  if (deps.notifyServers) await notifyServers(deps.db, stored);
  report.seconds = (performance.now() - started) / 1000;
  return report;
}
