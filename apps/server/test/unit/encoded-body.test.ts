import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { encodedBody, type EncodableBody } from "../../src/lib/encoded-body.ts";

const decode = {
  br: (bytes: Buffer) => zlib.brotliDecompressSync(bytes).toString(),
  gzip: (bytes: Buffer) => zlib.gunzipSync(bytes).toString(),
};

/** A JSON-like body of about `bytes`, with letters of more than one UTF-8 byte. */
const bodyOf = (bytes: number, seed: string) =>
  JSON.stringify(
    Array.from({ length: Math.ceil(bytes / 60) }, (_, i) => ({
      i,
      name: `Crème brûlée ${seed} ☕ ${i}`,
    })),
  );

describe("encodedBody (a kept answer compressed once per encoding)", () => {
  it.each(["br", "gzip"] as const)(
    "gives back each body in %s, small, large and past the reused buffer, each intact after the next",
    (encoding) => {
      const kept: EncodableBody[] = [
        { body: bodyOf(1_500, "a") },
        { body: bodyOf(40_000, "b") },
        { body: bodyOf(2_000_000, "c") },
        { body: bodyOf(6_000, "d") },
      ];
      const encoded = kept.map((k) => encodedBody(k, encoding));
      // Each compressed form decodes to its own body after the others were made.
      encoded.forEach((bytes, i) => expect(decode[encoding](bytes)).toBe(kept[i]!.body));
      // Made once: asked again, the same bytes.
      expect(encodedBody(kept[0]!, encoding)).toBe(encoded[0]);
    },
  );
});
