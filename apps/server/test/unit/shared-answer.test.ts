/** A shared answer is encoded once per route; any other answer every time (lib/shared-answer.ts). */
import { describe, expect, it } from "vitest";
import { encodeSharedOnce, shareAnswer } from "../../src/lib/shared-answer.ts";

describe("encodeSharedOnce", () => {
  it("encodes a shared answer once, and every other answer each time it is sent", () => {
    let calls = 0;
    const encode = encodeSharedOnce((data) => {
      calls += 1;
      return JSON.stringify(data);
    });
    const cart = shareAnswer({ id: "c1", lines: [1, 2] });
    expect([encode(cart), encode(cart), encode(cart)]).toEqual(Array(3).fill(JSON.stringify(cart)));
    expect(calls).toBe(1);
    const fresh = { id: "c2" };
    encode(fresh);
    encode(fresh);
    encode("text");
    expect(calls).toBe(4);
    // Another route (another schema) encodes it for itself.
    const other = encodeSharedOnce(() => "other");
    expect(other(cart)).toBe("other");
  });
});
