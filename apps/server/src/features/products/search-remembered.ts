/**
 * A query's matches remembered per index (search-query.ts), by its words and filters: a search is
 * paged, re-sorted and typed on, so the same words and filters come back. They are copied into one
 * buffer made with the index and used as a ring, the oldest dropped as the ring comes round to
 * them. A buffer made per query (the matches' bitset alone is 6 KB at 50,000 products) is memory
 * outside V8's heap, and at thousands of searches a second that starts a mark-compact of the whole
 * heap (the catalog's hundreds of MB) every few seconds: about 60 µs of CPU per such buffer,
 * amortised, measured in a loop with a heap of that size.
 */
import type { Matches } from "./search-index.ts";

/** At most this many bytes of matches are remembered per index. */
export const REMEMBERED_BYTES = 5_000_000;

export interface Remembered {
  entries: Map<string, Slot>;
  ring: ArrayBuffer;
  /** Where the next entry starts. */
  head: number;
}

interface Slot {
  matches: Matches;
  start: number;
  end: number;
}

export const rememberedOf = (bytes = REMEMBERED_BYTES): Remembered => ({
  entries: new Map(),
  ring: new ArrayBuffer(bytes),
  head: 0,
});

export function recall(remembered: Remembered, key: string): Matches | undefined {
  return remembered.entries.get(key)?.matches;
}

/**
 * Copies matches (made in scratch arrays that the next query reuses) into the ring under `key`,
 * and answers the copy; when they are larger than the ring, answers them as they are.
 */
export function remember(remembered: Remembered, key: string, scratch: Matches): Matches {
  const { bits, counts, scores, total } = scratch;
  const bytes = bits.byteLength + counts.byteLength + align(scores.byteLength);
  const start = claim(remembered, bytes);
  if (start === undefined) return scratch;
  const { ring } = remembered;
  const copy: Matches = {
    bits: new Uint32Array(ring, start, bits.length),
    counts: new Uint32Array(ring, start + bits.byteLength, counts.length),
    scores: new Uint8Array(ring, start + bits.byteLength + counts.byteLength, scores.length),
    total,
  };
  copy.bits.set(bits);
  copy.counts.set(counts);
  copy.scores.set(scores);
  remembered.entries.set(key, { matches: copy, start, end: start + bytes });
  return copy;
}

/** Rounded up to whole 32-bit numbers, so that every entry starts aligned for its bitset. */
const align = (bytes: number) => (bytes + 3) & ~3;

/**
 * The start of `bytes` in the ring after the last entry (or at its beginning when they do not fit
 * before its end), dropping the entries in the way: the oldest, since entries are laid in turn.
 * Passing the ring's end, the entries left between the last one and the end are older still (laid
 * a round before) and are dropped first, else they would stay oldest and shield the ones to drop.
 */
function claim(remembered: Remembered, bytes: number): number | undefined {
  const { entries, ring } = remembered;
  if (bytes > ring.byteLength) return undefined;
  const from = remembered.head;
  const wraps = from + bytes > ring.byteLength;
  const start = wraps ? 0 : from;
  const end = start + bytes;
  for (const [key, slot] of entries) {
    const passed = wraps && slot.start >= from;
    const inTheWay = slot.start < end && slot.end > start;
    if (!passed && !inTheWay) break;
    entries.delete(key);
  }
  remembered.head = end;
  return start;
}
