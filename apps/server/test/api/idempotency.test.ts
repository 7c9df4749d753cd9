/**
 * Issue 21, idempotent writes: the Idempotency-Key header on PGlite and PostgreSQL.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { idempotencyKeys } from "../../src/db/schema.ts";
import { createTestApp, sessionWithEveryRole, type TestApp } from "../helpers.ts";

let t: TestApp;
let productId: string;
beforeAll(async () => {
  t = await createTestApp();
  const f = await sessionWithEveryRole(t);
  const products = (await f.as.creator("GET", "/api/products?limit=20")).json().products;
  productId = products.find((p: { stock: number }) => p.stock >= 30)._id;
});
afterAll(async () => t.close());

function keyed(token: string) {
  return (
    method: "POST" | "PATCH" | "DELETE" | "PUT",
    url: string,
    key: string,
    payload?: object,
  ) =>
    t.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}`, "idempotency-key": key },
      ...(payload ? { payload } : {}),
    });
}

describe("Idempotency-Key", () => {
  it("replays the first answer for the same key, and the cart changes once", async () => {
    const f = await sessionWithEveryRole(t);
    const as = keyed(f.people.participant.token);
    const url = `/api/carts/${f.cartId}/product`;
    const first = await as("POST", url, "add-oat-milk-1", { productId, quantity: 2 });
    expect(first.statusCode).toBe(200);
    const again = await as("POST", url, "add-oat-milk-1", { productId, quantity: 2 });
    expect(again.statusCode).toBe(200);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(again.body).toBe(first.body);
    const cart = (await f.as.viewer("GET", `/api/carts/${f.cartId}`)).json().cart;
    expect(cart.itemCount).toBe(2);
    // A refusal is an answer too: replayed as it was.
    const refused = await as("DELETE", `/api/carts/${f.cartId}/clear`, "clear-1");
    expect(refused.statusCode).toBe(403);
    const refusedAgain = await as("DELETE", `/api/carts/${f.cartId}/clear`, "clear-1");
    expect([refusedAgain.statusCode, refusedAgain.body]).toEqual([403, refused.body]);
  });

  it("20 parallel requests with one key change the cart once", async () => {
    const f = await sessionWithEveryRole(t);
    const as = keyed(f.people.participant.token);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        as("POST", `/api/carts/${f.cartId}/product`, "burst-key", { productId, quantity: 1 }),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(200));
    expect(new Set(answers.map((a) => a.body)).size).toBe(1);
    const cart = (await f.as.viewer("GET", `/api/carts/${f.cartId}`)).json().cart;
    expect(cart.itemCount).toBe(1);
  });

  it("refuses the same key with another body or on another route (422), and bad keys (400)", async () => {
    const f = await sessionWithEveryRole(t);
    const as = keyed(f.people.creator.token);
    const url = `/api/carts/${f.cartId}/product`;
    expect((await as("POST", url, "k-1", { productId, quantity: 1 })).statusCode).toBe(200);
    const other = await as("POST", url, "k-1", { productId, quantity: 3 });
    expect(other.statusCode).toBe(422);
    expect(other.json().code).toBe("IDEMPOTENCY_MISMATCH");
    const elsewhere = await as("PATCH", `/api/sessions/${f.sessionId}`, "k-1", { budget: 10 });
    expect(elsewhere.statusCode).toBe(422);
    for (const bad of ["x".repeat(101), "naïve", ""]) {
      const res = await as("POST", url, bad, { productId, quantity: 1 });
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
    }
    const cart = (await f.as.viewer("GET", `/api/carts/${f.cartId}`)).json().cart;
    expect(cart.itemCount).toBe(1);
    // Keys are per user: Ben may use the same one.
    const ben = keyed(f.people.participant.token);
    expect((await ben("POST", url, "k-1", { productId, quantity: 1 })).statusCode).toBe(200);
  });

  it("forgets a key after 24 hours: the same key is then a new request", async () => {
    const f = await sessionWithEveryRole(t);
    const as = keyed(f.people.creator.token);
    const url = `/api/carts/${f.cartId}/product`;
    expect((await as("POST", url, "day-key", { productId, quantity: 1 })).statusCode).toBe(200);
    // A day and a minute ago (moving the clock would expire the token too).
    await t.database.db
      .update(idempotencyKeys)
      .set({ createdAt: new Date(t.clock.now().getTime() - 24 * 3_600_000 - 60_000) })
      .where(eq(idempotencyKeys.key, "day-key"));
    const again = await as("POST", url, "day-key", { productId, quantity: 1 });
    expect(again.statusCode).toBe(200);
    expect(again.headers["idempotent-replayed"]).toBeUndefined();
    expect(again.json().cart.itemCount).toBe(2);
  });
});
