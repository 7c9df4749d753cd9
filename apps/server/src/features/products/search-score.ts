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
  const found: WordMatches = { ids: [], titleScores: [], textScores: [], postings: 0 };
  const add = (id: number, titleScore: number, textScore: number) => {
    found.ids.push(id);
    found.titleScores.push(titleScore);
    found.textScores.push(textScore);
    found.postings += index.title[id]!.length + index.text[id]!.length;
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
  if (index.wordMatches.size >= MAX_REMEMBERED_WORDS) index.wordMatches.clear();
  index.wordMatches.set(word, found);
  return found;
}

/** Raises `into`'s score of each product of `list` to `value` (hot loop: typed arrays only). */
function raise(into: Uint8Array, list: Uint32Array, value: number) {
  for (let i = 0; i < list.length; i++) {
    const doc = list[i]!;
    if (into[doc]! < value) into[doc] = value;
  }
}

/** As raise(), and lists the products scored for the first time in `touched`. */
function raiseListing(into: Uint8Array, list: Uint32Array, value: number, touched: number[]) {
  for (let i = 0; i < list.length; i++) {
    const doc = list[i]!;
    const was = into[doc]!;
    if (was === 0) touched.push(doc);
    if (was < value) into[doc] = value;
  }
}

/** Scores into `into` (all zero before) the products holding a word the query word matches. */
function mark(index: SearchIndex, found: WordMatches, into: Uint8Array, touched?: number[]) {
  for (let w = 0; w < found.ids.length; w++) {
    const id = found.ids[w]!;
    if (touched) {
      raiseListing(into, index.title[id]!, found.titleScores[w]!, touched);
      raiseListing(into, index.text[id]!, found.textScores[w]!, touched);
    } else {
      raise(into, index.title[id]!, found.titleScores[w]!);
      raise(into, index.text[id]!, found.textScores[w]!);
    }
  }
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
 * Scores the products for the query's words into index.scores (0: a word does not match). A rare
 * first word lists only the products its posting lists name, and those are answered (ascending;
 * only their scores are valid); a common one scores the whole catalog in flat passes, and null is
 * answered (every product's score is valid).
 */
export function score(index: SearchIndex, queryWords: string[]): Uint32Array | null {
  const { scores, scores4, word: current, word4: current4 } = index;
  // The rarest word first: it bounds the matches.
  const perWord = queryWords
    .map((word) => wordMatchesOf(index, word))
    .sort((a, b) => a.postings - b.postings);
  if (perWord[0]!.postings > index.size * DENSE_SHARE) {
    // The first word straight into the scores, then each further word into `current` and added
    // four products at a time, kept only where both are not 0.
    scores.fill(0);
    mark(index, perWord[0]!, scores);
    for (let n = 1; n < perWord.length; n++) {
      current.fill(0);
      mark(index, perWord[n]!, current);
      addWhereBoth(scores4, current4);
    }
    if (perWord.length > 1) current.fill(0); // as the listing path expects to find it
    return null;
  }
  let matched: Uint32Array | undefined;
  for (const found of perWord) {
    const touched: number[] = [];
    mark(index, found, current, touched);
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
