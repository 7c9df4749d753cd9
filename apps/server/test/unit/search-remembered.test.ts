import { describe, expect, it } from "vitest";
import type { Matches } from "../../src/features/products/search-index.ts";
import { recall, remember, rememberedOf } from "../../src/features/products/search-remembered.ts";

/** Matches of `total` products with every value derived from `seed`, in fresh arrays. */
function matchesOf(seed: number, total: number): Matches {
  return {
    bits: Uint32Array.from({ length: 4 }, (_, i) => seed * 10 + i),
    counts: Uint32Array.from({ length: 3 }, (_, i) => seed + i),
    scores: Uint8Array.from({ length: total }, (_, i) => (seed + i) % 256),
    total,
  };
}

const plain = (m: Matches) => ({
  bits: [...m.bits],
  counts: [...m.counts],
  scores: [...m.scores],
  total: m.total,
});

describe("remembered matches (a ring in one buffer)", () => {
  it("gives back a copy, intact after the scratch it came from is reused", () => {
    const remembered = rememberedOf(1000);
    const scratch = matchesOf(1, 10);
    const kept = remember(remembered, "a", scratch);
    const expected = plain(matchesOf(1, 10));
    scratch.bits.fill(0);
    scratch.scores.fill(0);
    expect(plain(recall(remembered, "a")!)).toEqual(expected);
    expect(plain(kept)).toEqual(expected);
  });

  it("drops the oldest as the ring comes round, and keeps every other entry whole", () => {
    // Each entry: 16 bytes of bits, 12 of counts, 20 of scores = 48 bytes; 4 fit in 200.
    const remembered = rememberedOf(200);
    for (let seed = 1; seed <= 4; seed++) remember(remembered, `q${seed}`, matchesOf(seed, 20));
    expect([...remembered.entries.keys()]).toEqual(["q1", "q2", "q3", "q4"]);
    // The fifth does not fit after the fourth: it takes the start of the ring, where q1 was.
    remember(remembered, "q5", matchesOf(5, 20));
    expect(recall(remembered, "q1")).toBeUndefined();
    // One twice as large takes q2's and q3's places.
    remember(remembered, "q6", matchesOf(6, 68));
    expect([...remembered.entries.keys()]).toEqual(["q4", "q5", "q6"]);
    for (const [key, seed, total] of [
      ["q4", 4, 20],
      ["q5", 5, 20],
      ["q6", 6, 68],
    ] as const) {
      expect(plain(recall(remembered, key)!)).toEqual(plain(matchesOf(seed, total)));
    }
  });

  it("drops what a round before left past the last entry, then what is in the way, never a live entry", () => {
    // Entries take 28 bytes plus their scores (rounded to 4): sizes 152, 40, 100, 40 and 72.
    const remembered = rememberedOf(200);
    const sizes: Array<[string, number]> = [
      ["a", 124],
      ["b", 12],
      ["c", 72],
      ["d", 12],
      ["e", 44],
    ];
    sizes.forEach(([key, total], seed) => remember(remembered, key, matchesOf(seed, total)));
    // a [0,152) b [152,192); c wraps to [0,100) over a; d [100,140); e wraps to [0,72): b, left
    // past d from the round before, and c, in the way, go.
    expect([...remembered.entries.keys()]).toEqual(["d", "e"]);
    expect(plain(recall(remembered, "d")!)).toEqual(plain(matchesOf(3, 12)));
    expect(plain(recall(remembered, "e")!)).toEqual(plain(matchesOf(4, 44)));
  });

  it("answers matches larger than the ring as they are, remembering nothing", () => {
    const remembered = rememberedOf(64);
    const large = matchesOf(1, 100);
    expect(remember(remembered, "big", large)).toBe(large);
    expect(recall(remembered, "big")).toBeUndefined();
  });
});
