import { describe, expect, it } from "vitest";
import { putBounded } from "../../src/lib/kept-answers.ts";

const size = (value: string) => value.length;

describe("putBounded (the kept answers' and order views' bound)", () => {
  it("keeps what fits, and drops the least recently put first when over the limit", () => {
    const map = new Map<string, string>();
    let total = 0;
    total = putBounded(map, "a", "aaaa", total, 10, size);
    total = putBounded(map, "b", "bbbb", total, 10, size);
    expect([...map.keys()]).toEqual(["a", "b"]);
    expect(total).toBe(8);
    total = putBounded(map, "c", "cccc", total, 10, size);
    expect([...map.keys()]).toEqual(["b", "c"]);
    expect(total).toBe(8);
  });

  it("replaces a key's value, counting only the new one, and makes it the most recent", () => {
    const map = new Map<string, string>([
      ["a", "aa"],
      ["b", "bb"],
    ]);
    let total = putBounded(map, "a", "aaaaa", 4, 8, size);
    expect([...map.entries()]).toEqual([
      ["b", "bb"],
      ["a", "aaaaa"],
    ]);
    expect(total).toBe(7);
    total = putBounded(map, "c", "c", total, 8, size);
    expect([...map.keys()]).toEqual(["b", "a", "c"]);
    expect(total).toBe(8);
  });

  it("keeps nothing larger than the limit", () => {
    const map = new Map<string, string>();
    const total = putBounded(map, "big", "x".repeat(20), 0, 10, size);
    expect(map.size).toBe(0);
    expect(total).toBe(0);
  });
});
