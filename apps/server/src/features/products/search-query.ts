/**
 * Queries of the catalog's search index (search-index.ts): a query's words matched against the
 * vocabulary, the products scored, filtered and ranked, a page placed; browsing without words.
 */
import { groupKey, type Matches, type SearchIndex, type SearchQuery } from "./search-index.ts";
import { MAX_WORDS, score, TITLE_WORD } from "./search-score.ts";
import { recall, remember } from "./search-remembered.ts";
import { gtinKey, words } from "./search-words.ts";

/** The scores a product can have (0 to 8 words × 8), and scratch per score reused by queries. */
const SCORES = TITLE_WORD * MAX_WORDS + 1;
const scratchCounts = new Uint32Array(SCORES);
const scratchPlace = new Uint32Array(SCORES);

/** The products of a query's page (indexes into the catalog's order) and how many match in all. */
export function query(index: SearchIndex, q: SearchQuery): { docs: number[]; total: number } {
  const text = (q.q ?? "").trim();
  const end = q.limit === undefined ? Infinity : q.offset + q.limit;
  const filters = filtersOf(index, q);
  const gtin = gtinKey(text);
  if (gtin) {
    const doc = index.gtins.get(gtin);
    const found = doc !== undefined && passes(index, filters, doc) ? [doc] : [];
    return { docs: found.slice(q.offset, end), total: found.length };
  }
  const queryWords = words(text).slice(0, MAX_WORDS);
  if (queryWords.length === 0) return browse(index, q, end);
  const matches = rememberedMatches(index, queryWords, filters);
  const { bits, scores, total } = matches;
  const last = Math.min(end, total);
  if (last <= q.offset) return { docs: [], total };
  if (q.sort === "relevance") {
    // Best score first, the catalog's order among equals: a stable counting sort by score that
    // places only the page's products and those before it, and stops once they are placed.
    const { counts } = matches;
    const place = scratchPlace;
    place[SCORES - 1] = 0;
    for (let s = SCORES - 2, before = counts[SCORES - 1]!; s >= 0; s--) {
      place[s] = before;
      before += counts[s]!;
    }
    const ranked = index.page.subarray(0, last);
    let placed = 0;
    let i = 0;
    for (let w = 0; w < bits.length && placed < last; w++) {
      for (let rest = bits[w]!; rest !== 0 && placed < last; rest ^= rest & -rest) {
        const at = place[scores[i++]!]!++;
        if (at >= last) continue;
        ranked[at] = (w << 5) | (31 - Math.clz32(rest & -rest));
        placed++;
      }
    }
    return { docs: Array.from(ranked.subarray(q.offset)), total };
  }
  const order = index.orders[q.sort];
  if (total * SORT_SHARE < index.size) {
    // Few matches: their places in the pre-sorted order, sorted as numbers, read back.
    const rank = index.ranks[q.sort];
    const places = index.page.subarray(0, total);
    let n = 0;
    for (let w = 0; w < bits.length; w++) {
      for (let rest = bits[w]!; rest !== 0; rest ^= rest & -rest) {
        places[n++] = rank[(w << 5) | (31 - Math.clz32(rest & -rest))]!;
      }
    }
    places.sort();
    return { docs: Array.from(places.subarray(q.offset, last), (place) => order[place]!), total };
  }
  // Many: the pre-sorted order walked until the page is full, each product tested by its bit.
  const docs: number[] = [];
  for (let place = 0, n = 0; n < last && place < order.length; place++) {
    const doc = order[place]!;
    if ((bits[doc >>> 5]! & (1 << (doc & 31))) === 0) continue;
    if (n++ >= q.offset) docs.push(doc);
  }
  return { docs, total };
}

/** The query's matches, remembered by its words and filters (not its sort or page). */
function rememberedMatches(index: SearchIndex, queryWords: string[], filters: Filters): Matches {
  const key = `${queryWords.join(" ")}|${filters.available}|${filters.categories}|${filters.min}|${filters.max}`;
  const known = recall(index.remembered, key);
  if (known) return known;
  score(index, queryWords);
  return remember(index.remembered, key, scan(index, filters));
}

/**
 * The scored candidates (index.candidates, index.scores) that pass the query's filters, in the
 * index's scratch arrays: sale and categories drop products 32 at a time by their bitsets, the
 * price range each one left.
 */
function scan(index: SearchIndex, filters: Filters): Matches {
  const { candidates, scores, priceCents, matchedScores, matchedBits: bits } = index;
  const sale = index.saleBits[filters.available]!;
  const wanted = categoriesBits(index, filters);
  const { priced, min, max } = filters;
  const counts = scratchCounts.fill(0);
  let total = 0;
  for (let w = 0; w < candidates.length; w++) {
    let kept = candidates[w]! & sale[w]!;
    if (wanted) kept &= wanted[w]!;
    // The set bits lowest first: the products in ascending order.
    for (let rest = kept; rest !== 0; rest ^= rest & -rest) {
      const low = rest & -rest;
      const doc = (w << 5) | (31 - Math.clz32(low));
      if (priced && (priceCents[doc]! < min || priceCents[doc]! > max)) {
        kept ^= low;
        continue;
      }
      const s = scores[doc]!;
      matchedScores[total++] = s;
      counts[s]!++;
    }
    bits[w] = kept;
  }
  return { bits, scores: matchedScores.subarray(0, total), counts, total };
}

/**
 * The bitset of the categories a query wants (search-index.ts), or undefined when it wants all; a
 * category the catalog does not hold adds no product.
 */
function categoriesBits(index: SearchIndex, filters: Filters): Uint32Array | undefined {
  if (filters.categories === 0) return undefined;
  const wanted = index.categoryBits.filter((_, id) => (filters.categories >> (id + 1)) & 1);
  if (wanted.length === 1) return wanted[0];
  const bits = index.categoriesBits;
  bits.fill(0);
  for (const other of wanted) orInto(bits, other);
  return bits;
}

function orInto(bits: Uint32Array, other: Uint32Array) {
  for (let w = 0; w < bits.length; w++) bits[w]! |= other[w]!;
}

/** Below one match in this many products, a sorted page sorts its matches' places. */
const SORT_SHARE = 16;

/** The first place in ascending `values` holding `value` or more. */
function firstAtLeast(values: Int32Array, value: number): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (values[mid]! < value) low = mid + 1;
    else high = mid;
  }
  return low;
}

/**
 * Browsing (no words): the groups of the wanted categories, each counted within the price range
 * by binary search, and their lists in the wanted order merged until the page is full.
 */
function browse(index: SearchIndex, q: SearchQuery, end: number) {
  const min = q.minCents ?? -Infinity;
  const max = q.maxCents ?? Infinity;
  const wanted = q.categories?.size ? [...q.categories] : index.categories;
  const lists: Uint32Array[] = [];
  let total = 0;
  for (const category of wanted) {
    const group = index.groups.get(groupKey(q.available, category));
    if (!group) continue;
    const from = firstAtLeast(group.prices, min);
    const to = max === Infinity ? group.prices.length : firstAtLeast(group.prices, max + 1);
    if (to <= from) continue;
    total += to - from;
    // In price order the range is one slice of the list; in another order it is picked out below.
    if (q.sort === "price_asc") lists.push(group.orders.price_asc.subarray(from, to));
    else if (q.sort === "price_desc") {
      const length = group.prices.length;
      lists.push(group.orders.price_desc.subarray(length - to, length - from));
    } else lists.push(group.orders[q.sort]);
  }
  const rank = q.sort === "relevance" ? undefined : index.ranks[q.sort];
  const { priceCents } = index;
  const at = lists.map(() => 0);
  const docs: number[] = [];
  for (let n = 0; n < Math.min(end, total); n++) {
    // The next product in the order among the lists' heads (a few categories: a linear pick).
    let best = -1;
    let bestRank = Infinity;
    for (let l = 0; l < lists.length; l++) {
      const list = lists[l]!;
      let i = at[l]!;
      while (i < list.length && (priceCents[list[i]!]! < min || priceCents[list[i]!]! > max)) i++;
      at[l] = i;
      if (i === list.length) continue;
      const doc = list[i]!;
      const r = rank ? rank[doc]! : doc;
      if (r < bestRank) {
        bestRank = r;
        best = l;
      }
    }
    if (best < 0) break;
    if (n >= q.offset) docs.push(lists[best]![at[best]!]!);
    at[best]!++;
  }
  return { docs, total };
}

/** A query's filters in whole numbers, read by `passes`. */
interface Filters {
  available: number;
  /** A bit per category id wanted (0: every category). */
  categories: number;
  min: number;
  max: number;
  /** Whether min or max is set. */
  priced: boolean;
}

/** The bounds of a price range left open (prices are 32-bit integers). */
const NO_MIN = -0x80000000;
const NO_MAX = 0x7fffffff;

function filtersOf(index: SearchIndex, q: SearchQuery): Filters {
  let categories = 0;
  for (const name of q.categories ?? []) categories |= 1 << (index.categories.indexOf(name) + 1);
  return {
    available: q.available ? 1 : 0,
    categories,
    min: q.minCents ?? NO_MIN,
    max: q.maxCents ?? NO_MAX,
    priced: q.minCents !== undefined || q.maxCents !== undefined,
  };
}

/** Whether a product passes a query's filters: typed arrays and small integers only (hot loop). */
function passes(index: SearchIndex, f: Filters, doc: number): boolean {
  const price = index.priceCents[doc]!;
  return (
    index.available[doc] === f.available &&
    (f.categories === 0 || (f.categories & (1 << index.categoryIds[doc]!)) !== 0) &&
    price >= f.min &&
    price <= f.max
  );
}
