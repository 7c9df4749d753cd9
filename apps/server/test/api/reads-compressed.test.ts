import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, filledSession, type TestApp } from "../helpers.ts";

let t: TestApp;
let f: Awaited<ReturnType<typeof filledSession>>;
beforeAll(async () => {
  t = await createTestApp();
  f = await filledSession(t);
});
afterAll(async () => t.close());

const decoded = {
  br: (bytes: Buffer) => zlib.brotliDecompressSync(bytes).toString(),
  gzip: (bytes: Buffer) => zlib.gunzipSync(bytes).toString(),
};

describe("member reads answered from the read cache", () => {
  const read = (url: string, token: string, acceptEncoding?: string) =>
    t.app.inject({
      method: "GET",
      url,
      headers: {
        authorization: `Bearer ${token}`,
        ...(acceptEncoding ? { "accept-encoding": acceptEncoding } : {}),
      },
    });

  it("sends a cart brotli-compressed to a browser, gzipped to a gzip-only client, else plain, the same JSON each time", async () => {
    const url = `/api/carts/${f.cartId}`;
    const { token } = f.people.creator;
    const plain = await read(url, token);
    expect(plain.statusCode).toBe(200);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.headers.vary).toBe("accept-encoding");
    expect(plain.json().cart.products).toHaveLength(2);
    for (const [accept, encoding] of [
      ["gzip, deflate, br, zstd", "br"],
      ["gzip, deflate", "gzip"],
    ] as const) {
      // Twice: the first answer may be computed, the second is the kept one.
      for (let i = 0; i < 2; i++) {
        const res = await read(url, token, accept);
        expect(res.statusCode).toBe(200);
        expect(res.headers["content-encoding"]).toBe(encoding);
        expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
        expect(decoded[encoding](res.rawPayload)).toBe(plain.body);
      }
    }
  });

  it("a write in between is in the next compressed answer", async () => {
    const url = `/api/carts/${f.cartId}`;
    const { token } = f.people.participant;
    const before = await read(url, token, "br");
    type Line = { addedBy: { name: string }; productId: { _id: string }; quantity: number };
    const mine = (lines: Line[]) => lines.find((l) => l.addedBy.name === "Ann")!;
    const line = mine(JSON.parse(decoded.br(before.rawPayload)).cart.products);
    const changed = await f.as.creator("PATCH", `/api/carts/${f.cartId}/quantity`, {
      productId: line.productId._id,
      change: 1,
    });
    expect(changed.statusCode).toBe(200);
    const after = await read(url, token, "br");
    const again = mine(JSON.parse(decoded.br(after.rawPayload)).cart.products);
    expect(again.quantity).toBe(line.quantity + 1);
  });

  it("keeps each reader's own answer: a stranger is still not told of the cart", async () => {
    const res = await read(`/api/carts/${f.cartId}`, f.people.stranger.token, "br");
    expect(res.statusCode).toBe(404);
  });
});
