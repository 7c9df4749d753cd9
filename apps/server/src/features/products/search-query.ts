/**
 * Queries of the catalog's search index (search-index.ts): a query's words matched against the
 * vocabulary, the products scored, filtered and ranked, a page placed; browsing without words.
 */
import { groupKey, type Matches, type SearchIndex, type SearchQuery } from "./search-index.ts";
import { gtinKey, withinOneTypo, words } from "./search-words.ts";

/** How well a query word matches a product: the best of its matches counts. */
const TITLE_WORD = 8;
const TITLE_PREFIX = 6;
const TITLE_TYPO = 4;
const TEXT_PREFIX = 2;
const TEXT_TYPO = 1;
/** Query words past this many are ignored (a product's score stays within 8 bits). */
const MAX_WORDS = 8;
/** A word this long or longer may have one typo. */
const TYPO_MIN_LENGTH = 5;
/** Typo expansions remembered per index (queries repeat their words while typed). */
const MAX_REMEMBERED_TYPOS = 2000;

/** The first index in the sorted vocabulary at or after `word`. */
function lowerBound(vocabulary: string[], word: string): number {
  let low = 0;
  let high = vocabulary.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (vocabulary[mid]! < word) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** Words one typo away from `word` (not those it starts), remembered per index. */
function typoWords(index: SearchIndex, word: string): number[] {
  if (word.length < TYPO_MIN_LENGTH) return [];
  const known = index.typos.get(word);
  if (known) return known;
  const found: number[] = [];
  for (let length = word.length - 1; length <= word.length + 1; length++) {
    for (const id of index.byLength.get(length) ?? []) {
      const candidate = index.vocabulary[id]!;
      if (!candidate.startsWith(word) && withinOneTypo(word, candidate)) found.push(id);
    }
  }
  if (index.typos.size >= MAX_REMEMBERED_TYPOS) index.typos.clear();
  index.typos.set(word, found);
  return found;
}

/** The vocabulary's words a query word matches, each with its title and text score. */
function matchedWords(index: SearchIndex, word: string): Array<[number, number, number]> {
  const { vocabulary } = index;
  const found: Array<[number, number, number]> = [];
  for (let id = lowerBound(vocabulary, word); id < vocabulary.length; id++) {
    const candidate = vocabulary[id]!;
    if (!candidate.startsWith(word)) break;
    found.push([id, candidate === word ? TITLE_WORD : TITLE_PREFIX, TEXT_PREFIX]);
  }
  for (const id of typoWords(index, word)) found.push([id, TITLE_TYPO, TEXT_TYPO]);
  return found;
}

/** Past this share of the catalog, a word's products are scanned in one pass instead of listed. */
const DENSE_SHARE = 1 / 16;

/**
 * Scores the products for the query's words into index.scores (0: a word does not match). A rare
 * first word lists only the products its posting lists name, and those are answered (ascending;
 * only their scores are valid); a common one scores the whole catalog in flat passes, and null is
 * answered (every product's score is valid).
 */
function score(index: SearchIndex, queryWords: string[]): Uint32Array | null {
  const { scores, scores4, word: current, word4: current4 } = index;
  const perWord = queryWords.map((word) => matchedWords(index, word));
  const postings = (found: Array<[number, number, number]>) =>
    found.reduce((sum, [id]) => sum + index.title[id]!.length + index.text[id]!.length, 0);
  const mark = (found: Array<[number, number, number]>, touched?: number[]) => {
    for (const [id, titleScore, textScore] of found) {
      for (const [list, value] of [
        [index.title[id]!, titleScore],
        [index.text[id]!, textScore],
      ] as const) {
        for (let i = 0; i < list.length; i++) {
          const doc = list[i]!;
          const was = current[doc]!;
          if (was === 0) touched?.push(doc);
          if (was < value) current[doc] = value;
        }
      }
    }
  };
  // The rarest word first: it bounds the matches.
  perWord.sort((a, b) => postings(a) - postings(b));
  if (postings(perWord[0]!) > index.size * DENSE_SHARE) {
    perWord.forEach((found, n) => {
      current.fill(0);
      mark(found);
      if (n === 0) scores.set(current);
      else {
        for (let group = 0; group < scores4.length; group++) {
          if (scores4[group] === 0) continue;
          if (current4[group] === 0) {
            scores4[group] = 0;
            continue;
          }
          for (let doc = group * 4; doc < group * 4 + 4; doc++) {
            const s = current[doc]!;
            const was = scores[doc]!;
            scores[doc] = s === 0 || was === 0 ? 0 : was + s;
          }
        }
      }
    });
    current.fill(0); // as the listing path expects to find it
    return null;
  }
  let matched: Uint32Array | undefined;
  for (const found of perWord) {
    const touched: number[] = [];
    mark(found, touched);
    if (!matched) {
      matched = Uint32Array.from(touched).sort();
      for (const doc of matched) scores[doc] = current[doc]!;
    } else {
      matched = matched.filter((doc) => current[doc]! > 0);
      for (const doc of matched) scores[doc]! += current[doc]!;
    }
    for (const doc of touched) current[doc] = 0;
  }
  return matched!;
}

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
  const candidates = score(index, queryWords);
  const { scores, matched, matchedScores } = index;
  const counts = new Uint32Array(TITLE_WORD * MAX_WORDS + 1);
  let total = 0;
  const take = (doc: number, s: number) => {
    matched[total] = doc;
    matchedScores[total++] = s;
    counts[s]!++;
  };
  if (candidates) {
    for (let i = 0; i < candidates.length; i++) {
      const doc = candidates[i]!;
      if (passes(index, filters, doc)) take(doc, scores[doc]!);
    }
  } else {
    const { scores4 } = index;
    for (let group = 0; group < scores4.length; group++) {
      if (scores4[group] === 0) continue;
      for (let doc = group * 4; doc < group * 4 + 4; doc++) {
        const s = scores[doc]!;
        if (s !== 0 && passes(index, filters, doc)) take(doc, s);
      }
    }
  }
  return { docs: matched.slice(0, total), scores: matchedScores.slice(0, total), counts };
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
}

function filtersOf(index: SearchIndex, q: SearchQuery): Filters {
  let categories = 0;
  for (const name of q.categories ?? []) categories |= 1 << (index.categories.indexOf(name) + 1);
  return {
    available: q.available ? 1 : 0,
    categories,
    min: q.minCents ?? -0x80000000,
    max: q.maxCents ?? 0x7fffffff,
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
