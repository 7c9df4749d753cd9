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
/** Query words past this many are ignored: a product's score (8 × 8 = 64 at most) fits a byte. */
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
 * Scores into `into` the products holding a word the query word matches, and sets their bits in
 * `bits` (hot loop: typed arrays only).
 */
function markBits(found: WordMatches, into: Uint8Array, bits: Uint32Array) {
  for (let n = 0; n < found.lists.length; n++) {
    putBits(into, bits, found.lists[n]!, found.values[n]!);
  }
}

/** Scores `value` into `into` for each product of `list`, setting its bit in `bits` too. */
function putBits(into: Uint8Array, bits: Uint32Array, list: Uint32Array, value: number) {
  for (let i = 0; i < list.length; i++) {
    const doc = list[i]!;
    into[doc] = value;
    bits[doc >>> 5]! |= 1 << (doc & 31);
  }
}

/**
 * Keeps in `candidates` only the products `word` matched too, and adds the word's score to theirs:
 * one AND per 32 products, then work per candidate left.
 */
function keepBoth(
  candidates: Uint32Array,
  wordBits: Uint32Array,
  scores: Uint8Array,
  word: Uint8Array,
) {
  for (let w = 0; w < candidates.length; w++) {
    let both = candidates[w]! & wordBits[w]!;
    candidates[w] = both;
    while (both !== 0) {
      const low = both & -both;
      const doc = (w << 5) | (31 - Math.clz32(low));
      scores[doc]! += word[doc]!;
      both ^= low;
    }
  }
}

/**
 * Scores the products for the query's words: index.candidates gets a bit per product that every
 * word matches, and index.scores their scores (read only where a bit is set). The rarest word is
 * marked first, and each further word narrows the bits with one AND per 32 products, so a query
 * costs its words' postings and a few passes over bitsets, never a sort or a pass per product.
 */
export function score(index: SearchIndex, queryWords: string[]): void {
  const { scores, word: current, candidates, wordBits } = index;
  const perWord = queryWords
    .map((word) => wordMatchesOf(index, word))
    .sort((a, b) => a.postings - b.postings);
  candidates.fill(0);
  markBits(perWord[0]!, scores, candidates);
  for (let n = 1; n < perWord.length; n++) {
    wordBits.fill(0);
    markBits(perWord[n]!, current, wordBits);
    keepBoth(candidates, wordBits, scores, current);
    current.fill(0); // as the next word expects to find it
  }
}
