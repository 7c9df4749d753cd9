/**
 * Queries of the catalog's search index (search-index.ts): a query's words matched against the
 * vocabulary, the products scored, filtered and ranked, a page placed; browsing without words.
 */
import { groupKey, type Matches, type SearchIndex, type SearchQuery } from "./search-index.ts";
import { MAX_WORDS, score, TITLE_WORD } from "./search-score.ts";
import { gtinKey, words } from "./search-words.ts";

/**
 * Matches remembered per index, counted in products: a search is paged, re-sorted and typed on, so
 * the same words and filters come back; at most this many products' worth (about 5 bytes each).
 */
const MAX_REMEMBERED_MATCHES = 1_000_000;

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
  const total = matches.docs.length;
  const last = Math.min(end, total);
  if (last <= q.offset) return { docs: [], total };
  if (q.sort === "relevance") {
    // Best score first, the catalog's order among equals: a stable counting sort by score that
    // places only the page's products and those before it.
    const { counts } = matches;
    const place = new Uint32Array(counts.length);
    for (let s = counts.length - 2, before = counts[counts.length - 1]!; s >= 0; s--) {
      place[s] = before;
      before += counts[s]!;
    }
    const ranked = new Uint32Array(last);
    for (let i = 0; i < total; i++) {
      const at = place[matches.scores[i]!]!++;
      if (at < last) ranked[at] = matches.docs[i]!;
    }
    return { docs: Array.from(ranked.subarray(q.offset)), total };
  }
  const order = index.orders[q.sort];
  const rank = index.ranks[q.sort];
  if (total * SORT_SHARE < index.size) {
    // Few matches: their places in the pre-sorted order, sorted as numbers, read back.
    const places = matches.docs.map((doc) => rank[doc]!).sort();
    return { docs: Array.from(places.subarray(q.offset, last), (place) => order[place]!), total };
  }
  // Many: the pre-sorted order walked until the page is full, each product tested by a stamp.
  const { stamps } = index;
  const stamp = (index.stamp = (index.stamp + 1) >>> 0 || 1);
  if (stamp === 1) stamps.fill(0);
  for (let i = 0; i < total; i++) stamps[matches.docs[i]!] = stamp;
  const docs: number[] = [];
  for (let place = 0, n = 0; n < last; place++) {
    const doc = order[place]!;
    if (stamps[doc] !== stamp) continue;
    if (n++ >= q.offset) docs.push(doc);
  }
  return { docs, total };
}

/** The query's matches, remembered by its words and filters (not its sort or page). */
function rememberedMatches(index: SearchIndex, queryWords: string[], filters: Filters): Matches {
  const key = `${queryWords.join(" ")}|${filters.available}|${filters.categories}|${filters.min}|${filters.max}`;
  const { remembered } = index;
  const known = remembered.get(key);
  if (known) return known;
  const found = matchesOf(index, queryWords, filters);
  for (const [old, { docs }] of remembered) {
    if (index.rememberedSize + found.docs.length <= MAX_REMEMBERED_MATCHES) break;
    remembered.delete(old);
    index.rememberedSize -= docs.length;
  }
  if (found.docs.length <= MAX_REMEMBERED_MATCHES) {
    remembered.set(key, found);
    index.rememberedSize += found.docs.length;
  }
  return found;
}

function matchesOf(index: SearchIndex, queryWords: string[], filters: Filters): Matches {
  const scored = score(index, queryWords);
  const counts = new Uint32Array(TITLE_WORD * MAX_WORDS + 1);
  const total =
    "listed" in scored
      ? pick(index, scored.listed, filters, counts)
      : inPrice(index, filters, counts, scan(index, scored.scores4, filters, counts));
  return {
    docs: index.matched.slice(0, total),
    scores: index.matchedScores.slice(0, total),
    counts,
  };
}

/** The listed products that pass the filters into index.matched, with their scores and counts. */
function pick(index: SearchIndex, listed: Uint32Array, filters: Filters, counts: Uint32Array) {
  const { scores, matched, matchedScores } = index;
  let total = 0;
  for (let i = 0; i < listed.length; i++) {
    const doc = listed[i]!;
    if (!passes(index, filters, doc)) continue;
    const s = scores[doc]!;
    matched[total] = doc;
    matchedScores[total++] = s;
    counts[s]!++;
  }
  return total;
}

/** Where each of a group's four products sits in its 32-bit number, as the platform lays bytes. */
const LITTLE_ENDIAN = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;
const SHIFT_0 = LITTLE_ENDIAN ? 0 : 24;
const SHIFT_1 = LITTLE_ENDIAN ? 8 : 16;
const SHIFT_2 = LITTLE_ENDIAN ? 16 : 8;
const SHIFT_3 = LITTLE_ENDIAN ? 24 : 0;

/**
 * The products with a score in `scores4` (every product's, four a number) on the query's sale and
 * in its categories into index.matched, ascending, with their scores and counts; answers how many.
 * Sale and categories drop products four at a time by their masks.
 */
function scan(index: SearchIndex, scores4: Uint32Array, filters: Filters, counts: Uint32Array) {
  const sale = index.saleMasks4[filters.available]!;
  const wanted = categoriesMask(index, filters);
  const { matched, matchedScores } = index;
  let total = 0;
  // The group's four products written out, not looped over: V8 compiles a loop nested in a hot
  // loop on the stack and throws that away on every exit to the outer loop, query after query.
  for (let group = 0; group < scores4.length; group++) {
    const onSale = scores4[group]! & sale[group]!;
    const kept = wanted ? onSale & wanted[group]! : onSale;
    if (kept === 0) continue;
    const doc = group * 4;
    total = take(matched, matchedScores, counts, doc, (kept >>> SHIFT_0) & 0xff, total);
    total = take(matched, matchedScores, counts, doc + 1, (kept >>> SHIFT_1) & 0xff, total);
    total = take(matched, matchedScores, counts, doc + 2, (kept >>> SHIFT_2) & 0xff, total);
    total = take(matched, matchedScores, counts, doc + 3, (kept >>> SHIFT_3) & 0xff, total);
  }
  return total;
}

/** scan()'s step: a product with score `s` (0: none) taken as the `total`th match. */
function take(
  matched: Uint32Array,
  matchedScores: Uint8Array,
  counts: Uint32Array,
  doc: number,
  s: number,
  total: number,
) {
  if (s === 0) return total;
  matched[total] = doc;
  matchedScores[total] = s;
  counts[s]!++;
  return total + 1;
}

/** The first `total` matches whose price is in the query's range, kept in place; how many. */
function inPrice(index: SearchIndex, filters: Filters, counts: Uint32Array, total: number) {
  if (!filters.priced) return total;
  const { matched, matchedScores, priceCents } = index;
  let kept = 0;
  for (let i = 0; i < total; i++) {
    const doc = matched[i]!;
    const price = priceCents[doc]!;
    if (price < filters.min || price > filters.max) counts[matchedScores[i]!]!--;
    else {
      matched[kept] = doc;
      matchedScores[kept++] = matchedScores[i]!;
    }
  }
  return kept;
}

/**
 * The mask of the categories a query wants (search-index.ts), or undefined when it wants all; a
 * category the catalog does not hold adds no product.
 */
function categoriesMask(index: SearchIndex, filters: Filters): Uint32Array | undefined {
  if (filters.categories === 0) return undefined;
  const wanted = index.categoryMasks4.filter((_, id) => (filters.categories >> (id + 1)) & 1);
  if (wanted.length === 1) return wanted[0];
  const mask = index.categoriesMask4;
  mask.fill(0);
  for (const other of wanted) orInto(mask, other);
  return mask;
}

function orInto(mask: Uint32Array, other: Uint32Array) {
  for (let group = 0; group < mask.length; group++) mask[group]! |= other[group]!;
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
