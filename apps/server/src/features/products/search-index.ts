/**
 * The catalog's search index, in memory and pure: the same on both databases. Words of a product's
 * name and brand ("title") and of its description and category ("text") map to the products
 * holding them; a query word matches a word it equals, starts, or is one typo away from (from five
 * letters on), and every query word must match. A query of 8, 12, 13 or 14 digits is a GTIN and
 * finds only the product with it. Filters and sorts read typed arrays and pre-sorted orders, so a
 * query costs a few passes over flat arrays, never a sort of the catalog; a page places only the
 * products up to it, and a query's matches are remembered for its next page, sort or letter.
 * This file builds the index; search-query.ts answers queries from it.
 */
import type { ProductSort } from "@cartner/contract";
import { rememberedOf, type Remembered } from "./search-remembered.ts";
import { gtinKey, type IndexedProduct, type ProductWords } from "./search-words.ts";

export interface SearchQuery {
  q?: string | undefined;
  categories?: ReadonlySet<string> | undefined;
  minCents?: number | undefined;
  maxCents?: number | undefined;
  available: boolean;
  sort: ProductSort;
  offset: number;
  limit?: number | undefined;
}

export interface SearchIndex {
  size: number;
  /** Every word, sorted: a prefix's words are one range of it. */
  vocabulary: string[];
  /** Per word (same index), the products whose title / text holds it, ascending. */
  title: Uint32Array[];
  text: Uint32Array[];
  /** Word indexes by word length, for typo candidates. */
  byLength: Map<number, number[]>;
  gtins: Map<string, number>;
  priceCents: Int32Array;
  available: Uint8Array;
  /** Each product's category as 1 + its index in `categories`. */
  categoryIds: Uint8Array;
  categories: string[];
  orders: Record<Exclude<ProductSort, "relevance">, Uint32Array>;
  /** Each product's place in each order (the inverse of `orders`), to sort a few matches. */
  ranks: Record<Exclude<ProductSort, "relevance">, Uint32Array>;
  /**
   * The products of each (on sale or not, category) group in each order, and each group's prices
   * ascending: browsing counts a price range by binary search and merges the groups' lists.
   */
  groups: Map<string, Group>;
  /** What each query word matches in the vocabulary, remembered (queries repeat their words). */
  wordMatches: Map<string, WordMatches>;
  /**
   * Filters as bitsets, a bit per product (set: kept), so that a query drops what its filters drop
   * with one AND per 32 products: those off sale ([0]) or on sale ([1]), those of each category
   * (same index as `categories`), and scratch for a query wanting several categories.
   */
  saleBits: [Uint32Array, Uint32Array];
  categoryBits: Uint32Array[];
  categoriesBits: Uint32Array;
  /**
   * Per-query scratch (queries run one at a time on the thread): each product's score and the
   * current word's, and as bitsets the products every word so far matched (`candidates`) and those
   * the current word matches, so that combining words and filtering costs a pass over bitsets and
   * then work per match, never a pass over every product.
   */
  scores: Uint8Array;
  word: Uint8Array;
  candidates: Uint32Array;
  wordBits: Uint32Array;
  /** A query's matches as they are found (bitset, scores in ascending order of product), and
   * its page's products as they are placed: scratch, copied when remembered. */
  matchedBits: Uint32Array;
  matchedScores: Uint8Array;
  page: Uint32Array;
  /** Matches of recent queries, by words and filters. */
  remembered: Remembered;
}

export interface Group {
  orders: Record<ProductSort, Uint32Array>;
  prices: Int32Array;
}

export const groupKey = (available: boolean, category: string) =>
  `${available ? 1 : 0}:${category}`;

export function buildIndex(
  products: IndexedProduct[],
  productWordsOf: ProductWords[],
): SearchIndex {
  const size = products.length;
  const postings = new Map<string, { title: number[]; text: number[] }>();
  const posting = (word: string) => {
    let p = postings.get(word);
    if (!p) postings.set(word, (p = { title: [], text: [] }));
    return p;
  };
  productWordsOf.forEach((w, doc) => {
    for (const word of w.title) posting(word).title.push(doc);
    for (const word of w.text) posting(word).text.push(doc);
  });
  const vocabulary = [...postings.keys()].sort();
  const byLength = new Map<number, number[]>();
  vocabulary.forEach((word, id) => {
    const list = byLength.get(word.length) ?? [];
    list.push(id);
    byLength.set(word.length, list);
  });
  const gtins = new Map<string, number>();
  products.forEach((p, doc) => {
    const key = p.gtin ? gtinKey(p.gtin) : undefined;
    if (key) gtins.set(key, doc);
  });
  const docs = Array.from({ length: size }, (_, doc) => doc);
  const categories = [...new Set(products.map((p) => p.category))].sort();
  const order = (compare: (a: number, b: number) => number) =>
    Uint32Array.from([...docs].sort((a, b) => compare(a, b) || a - b));
  const orders = {
    price_asc: order((a, b) => products[a]!.priceCents - products[b]!.priceCents),
    price_desc: order((a, b) => products[b]!.priceCents - products[a]!.priceCents),
    rating: order(
      (a, b) =>
        products[b]!.rating - products[a]!.rating || products[b]!.reviews - products[a]!.reviews,
    ),
  };
  // Each product's group, then every order split by group in one pass each.
  const groupKeys: string[] = [];
  const groupIds = new Map<string, number>();
  const groupOf = Uint32Array.from(products, (p) => {
    const key = groupKey(p.available, p.category);
    let id = groupIds.get(key);
    if (id === undefined) groupIds.set(key, (id = groupKeys.push(key) - 1));
    return id;
  });
  const split = (sorted: ArrayLike<number>) => {
    const parts: number[][] = groupKeys.map(() => []);
    for (let i = 0; i < sorted.length; i++) parts[groupOf[sorted[i]!]!]!.push(sorted[i]!);
    return parts.map((part) => Uint32Array.from(part));
  };
  const byGroup = {
    relevance: split(docs),
    price_asc: split(orders.price_asc),
    price_desc: split(orders.price_desc),
    rating: split(orders.rating),
  };
  const groups = new Map<string, Group>(
    groupKeys.map((key, id) => [
      key,
      {
        orders: {
          relevance: byGroup.relevance[id]!,
          price_asc: byGroup.price_asc[id]!,
          price_desc: byGroup.price_desc[id]!,
          rating: byGroup.rating[id]!,
        },
        prices: Int32Array.from(byGroup.price_asc[id]!, (doc) => products[doc]!.priceCents),
      },
    ]),
  );
  const rankOf = (sorted: Uint32Array) => {
    const rank = new Uint32Array(size);
    sorted.forEach((doc, place) => (rank[doc] = place));
    return rank;
  };
  return {
    size,
    vocabulary,
    title: vocabulary.map((word) => Uint32Array.from(postings.get(word)!.title)),
    text: vocabulary.map((word) => Uint32Array.from(postings.get(word)!.text)),
    byLength,
    gtins,
    priceCents: Int32Array.from(products, (p) => p.priceCents),
    available: Uint8Array.from(products, (p) => (p.available ? 1 : 0)),
    categoryIds: Uint8Array.from(products, (p) => categories.indexOf(p.category) + 1),
    categories,
    orders,
    ranks: {
      price_asc: rankOf(orders.price_asc),
      price_desc: rankOf(orders.price_desc),
      rating: rankOf(orders.rating),
    },
    groups,
    wordMatches: new Map(),
    saleBits: [bitsOf(products, (p) => !p.available), bitsOf(products, (p) => p.available)],
    categoryBits: categories.map((name) => bitsOf(products, (p) => p.category === name)),
    categoriesBits: new Uint32Array(bitsetLength(size)),
    scores: new Uint8Array(size),
    word: new Uint8Array(size),
    candidates: new Uint32Array(bitsetLength(size)),
    wordBits: new Uint32Array(bitsetLength(size)),
    matchedBits: new Uint32Array(bitsetLength(size)),
    matchedScores: new Uint8Array(size),
    page: new Uint32Array(size),
    remembered: rememberedOf(),
  };
}

/** The 32-bit numbers a bitset of `size` products takes. */
const bitsetLength = (size: number) => Math.ceil(size / 32);

/** A bit set for each product that `keep` keeps (product `doc` is bit doc % 32 of number doc / 32). */
function bitsOf(products: IndexedProduct[], keep: (p: IndexedProduct) => boolean): Uint32Array {
  const bits = new Uint32Array(bitsetLength(products.length));
  products.forEach((p, doc) => {
    if (keep(p)) bits[doc >>> 5]! |= 1 << (doc & 31);
  });
  return bits;
}

/**
 * What one query word matches: the posting lists (title or text) of the vocabulary's words it
 * matches, each with the score it gives a product in it, lowest score first, and how many
 * postings they have in all (what marking them costs).
 */
export interface WordMatches {
  lists: Uint32Array[];
  values: number[];
  postings: number;
}

/** A query's matches that pass its filters: a bit per product, and their scores in order. */
export interface Matches {
  bits: Uint32Array;
  scores: Uint8Array;
  /** How many matches have each score. */
  counts: Uint32Array;
  total: number;
}
