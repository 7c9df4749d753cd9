/**
 * Scoring of a query's words (search-query.ts answers queries with it): each query word matched
 * against the vocabulary, and the products holding the words it matches scored into the index's
 * scratch arrays (search-index.ts).
 */
import type { SearchIndex, WordMatches } from "./search-index.ts";
import { withinOneTypo } from "./search-words.ts";

/** How well a query word matches a product: the best of its matches counts. */
export const TITLE_WORD = 8;
const TITLE_PREFIX = 6;
const TITLE_TYPO = 4;
const TEXT_PREFIX = 2;
const TEXT_TYPO = 1;
/**
 * Query words past this many are ignored: a product's score stays under 128 (8 × 8 = 64), which
 * the four-at-a-time sums below rely on (no byte carries into the next, no byte's top bit set).
 */
export const MAX_WORDS = 8;
/** A word this long or longer may have one typo. */
const TYPO_MIN_LENGTH = 5;
/** Query words' matches remembered per index (queries repeat their words while typed). */
const MAX_REMEMBERED_WORDS = 2000;

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

/**
 * The vocabulary's words a query word matches (those it equals or starts, then those one typo away
 * from five letters on), remembered per index: finding typos reads every word of three lengths.
 */
function wordMatchesOf(index: SearchIndex, word: string): WordMatches {
  const known = index.wordMatches.get(word);
  if (known) return known;
  const { vocabulary } = index;
  const found: Array<{ list: Uint32Array; value: number }> = [];
  const add = (id: number, titleScore: number, textScore: number) => {
    found.push({ list: index.title[id]!, value: titleScore });
    found.push({ list: index.text[id]!, value: textScore });
  };
  for (let id = lowerBound(vocabulary, word); id < vocabulary.length; id++) {
    const candidate = vocabulary[id]!;
    if (!candidate.startsWith(word)) break;
    add(id, candidate === word ? TITLE_WORD : TITLE_PREFIX, TEXT_PREFIX);
  }
  if (word.length >= TYPO_MIN_LENGTH) {
    for (let length = word.length - 1; length <= word.length + 1; length++) {
      for (const id of index.byLength.get(length) ?? []) {
        const candidate = vocabulary[id]!;
        if (!candidate.startsWith(word) && withinOneTypo(word, candidate)) {
          add(id, TITLE_TYPO, TEXT_TYPO);
        }
      }
    }
  }
  // Lowest score first: a product's score is then the last written, no comparison needed.
  found.sort((a, b) => a.value - b.value);
  const matches: WordMatches = {
    lists: found.map((f) => f.list),
    values: found.map((f) => f.value),
    postings: found.reduce((sum, f) => sum + f.list.length, 0),
  };
  if (index.wordMatches.size >= MAX_REMEMBERED_WORDS) index.wordMatches.clear();
  index.wordMatches.set(word, matches);
  return matches;
}

/**
 * Scores `value` into `into` for each product of `list`: lists are marked lowest score first, so
 * the last written is the best (hot loop: typed arrays only).
 */
function put(into: Uint8Array, list: Uint32Array, value: number) {
  for (let i = 0; i < list.length; i++) into[list[i]!] = value;
}

/**
 * As put(), and lists the products scored for the first time in `touched` from `count` on;
 * answers the new count.
 */
function putListing(
  into: Uint8Array,
  list: Uint32Array,
  value: number,
  touched: Uint32Array,
  count: number,
) {
  for (let i = 0; i < list.length; i++) {
    const doc = list[i]!;
    if (into[doc] === 0) touched[count++] = doc;
    into[doc] = value;
  }
  return count;
}

/** Scores into `into` (all zero before) the products holding a word the query word matches. */
function mark(found: WordMatches, into: Uint8Array) {
  for (let n = 0; n < found.lists.length; n++) put(into, found.lists[n]!, found.values[n]!);
}

/** As mark(), listing the products it scores in index.touched; answers how many. */
function markListing(index: SearchIndex, found: WordMatches, into: Uint8Array) {
  let count = 0;
  for (let n = 0; n < found.lists.length; n++) {
    count = putListing(into, found.lists[n]!, found.values[n]!, index.touched, count);
  }
  return count;
}

/**
 * 0xff in each byte of `x` that is not 0, else 0 (every byte under 128): adding 0x7f sets a byte's
 * top bit exactly when it is not 0, with no carry into the next byte.
 */
const nonZero = (x: number) => (((x + 0x7f7f7f7f) & 0x80808080) >>> 7) * 0xff;

/**
 * Adds `word` to `scores` four products at a time, and keeps a sum only where both are not 0.
 * (Each loop is a function of its own: V8 optimizes it whole, rather than as a loop entered on
 * the stack of a function that then leaves it, which it compiles again and again.)
 */
function addWhereBoth(scores4: Uint32Array, word4: Uint32Array) {
  for (let group = 0; group < scores4.length; group++) {
    const was = scores4[group]!;
    if (was === 0) continue;
    const s = word4[group]!;
    scores4[group] = (was + s) & nonZero(was) & nonZero(s);
  }
}

/** Past this share of the catalog, a word's products are scanned in one pass instead of listed. */
const DENSE_SHARE = 1 / 16;

/**
 * A query's products and their scores (0: a word does not match): `listed`, the products a rare
 * word's postings name, ascending, with their scores in index.scores; or, when even the rarest word
 * is common, `scores4`: index.scores4, every product's score four a number.
 */
export type Scored = { listed: Uint32Array } | { scores4: Uint32Array };

/**
 * Scores the products for the query's words. A rare first word lists only the products its
 * posting lists name; a common one scores the whole catalog in flat passes, over arrays used by
 * every query (and so in the processor's cache).
 */
export function score(index: SearchIndex, queryWords: string[]): Scored {
  const { scores, scores4, word: current, word4: current4 } = index;
  // The rarest word first: it bounds the matches.
  const perWord = queryWords
    .map((word) => wordMatchesOf(index, word))
    .sort((a, b) => a.postings - b.postings);
  if (perWord[0]!.postings > index.size * DENSE_SHARE) {
    // The first word straight into the scores, then each further word into `current` and added
    // four products at a time, kept only where both are not 0.
    scores.fill(0);
    mark(perWord[0]!, scores);
    for (let n = 1; n < perWord.length; n++) {
      current.fill(0);
      mark(perWord[n]!, current);
      addWhereBoth(scores4, current4);
    }
    if (perWord.length > 1) current.fill(0); // as the listing path expects to find it
    return { scores4 };
  }
  // Rare: the products each word scores into `current`, listed; the first word's sorted are the
  // candidates, and each further word keeps those it scores too.
  let listed: Uint32Array | undefined;
  for (const found of perWord) {
    const count = markListing(index, found, current);
    const touched = index.touched.subarray(0, count);
    listed = listed
      ? keepScored(listed, scores, current)
      : firstScored(touched.sort(), scores, current);
    clear(current, touched);
  }
  return { listed: listed! };
}

/** The first word's products (sorted), copied, with their scores. */
function firstScored(sorted: Uint32Array, scores: Uint8Array, word: Uint8Array): Uint32Array {
  for (let i = 0; i < sorted.length; i++) scores[sorted[i]!] = word[sorted[i]!]!;
  return sorted.slice();
}

/** The listed products a further word scores too (kept in place), their scores added. */
function keepScored(listed: Uint32Array, scores: Uint8Array, word: Uint8Array): Uint32Array {
  let kept = 0;
  for (let i = 0; i < listed.length; i++) {
    const doc = listed[i]!;
    const s = word[doc]!;
    if (s === 0) continue;
    listed[kept++] = doc;
    scores[doc]! += s;
  }
  return listed.subarray(0, kept);
}

/** The word's scores back to 0 where `touched` says it scored. */
function clear(word: Uint8Array, touched: Uint32Array) {
  for (let i = 0; i < touched.length; i++) word[touched[i]!] = 0;
}
