/**
 * Answers kept with what they were made of: a list's answer is made once and sent again (with its
 * compressed forms, made once: encoded-body.ts) while the light query a request runs first finds
 * the same rows at the same versions (`made`: their ids and whatever moves when they change, or
 * the marks of the people they concern: features/orders/reading/kept.ts).
 * Nothing is invalidated by hand: a write anywhere changes what the next request's own query
 * reads, on this instance or another.
 *
 * The store belongs to a database handle (the app's, once: keepAnswers in src/services.ts); a
 * transaction's handle, or an app with the process caches off, keeps nothing. Bounded by
 * characters, the least recently used dropped first.
 */
import type { EncodableBody } from "./encoded-body.ts";
import { meter, type CacheName } from "./metrics.ts";

interface KeptAnswer extends EncodableBody {
  made: string;
  /** What the next request's light query should read besides (MadeAnswer's `note`). */
  note?: string;
}

/**
 * An answer made, with what it was made of when making it found more than the light query read
 * (`made`, else the light query's), and what the next light query should read besides (`note`:
 * the people an answer names, whose names it then reads in the same query).
 */
export interface MadeAnswer {
  body: string;
  made?: string;
  note?: string;
}

interface Store {
  chars: number;
  limit: number;
  answers: Map<string, KeptAnswer>;
}

/** About fifty first pages of 50 orders of 40 lines, or thousands of feeds and CSVs. */
export const KEPT_ANSWER_CHARS = 32_000_000;

const stores = new WeakMap<object, Store>();

/** Keeps answers for reads through this database handle. */
export function keepAnswers(db: object, limit = KEPT_ANSWER_CHARS): void {
  stores.set(db, { chars: 0, limit, answers: new Map() });
}

const size = (a: KeptAnswer) => (a.body.length + a.made.length + (a.note?.length ?? 0)) * 2;

/** The note kept with the answer under `cache` and `key` (MadeAnswer), if one is kept. */
export function keptNote(db: object, cache: CacheName, key: string): string | undefined {
  return stores.get(db)?.answers.get(`${cache} ${key}`)?.note;
}

/**
 * The answer kept under `cache` and `key` when it was made of the same rows (`made`), else
 * `make()`'s, kept.
 */
export async function keptAnswer(
  db: object,
  cache: CacheName,
  key: string,
  made: string,
  make: () => Promise<string | MadeAnswer>,
): Promise<EncodableBody> {
  const store = stores.get(db);
  const at = `${cache} ${key}`;
  const kept = store?.answers.get(at);
  if (store) meter.cacheLookup(cache, kept?.made === made);
  if (store && kept && kept.made === made) {
    store.answers.delete(at);
    store.answers.set(at, kept);
    return kept;
  }
  const madeNow = await make();
  const answer: KeptAnswer =
    typeof madeNow === "string"
      ? { made, body: madeNow }
      : { made: madeNow.made ?? made, body: madeNow.body, note: madeNow.note };
  if (!store) return answer;
  store.chars = putBounded(store.answers, at, answer, store.chars, store.limit, size);
  return answer;
}

/**
 * Puts `value` at `key` as the most recently used, then drops the least recently used until the
 * values' sizes add up to `limit` or less; answers the new total.
 */
export function putBounded<V>(
  map: Map<string, V>,
  key: string,
  value: V,
  total: number,
  limit: number,
  sizeOf: (value: V) => number,
): number {
  const old = map.get(key);
  if (old !== undefined) {
    map.delete(key);
    total -= sizeOf(old);
  }
  map.set(key, value);
  total += sizeOf(value);
  for (const [oldest, kept] of map) {
    if (total <= limit) break;
    map.delete(oldest);
    total -= sizeOf(kept);
  }
  return total;
}
