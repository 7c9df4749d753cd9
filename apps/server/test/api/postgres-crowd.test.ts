/**
 * A crowd on one cart, on PostgreSQL (this file runs only there): changes waiting for the cart
 * queue in the server without holding one of the pool's 20 connections, so a busy cart neither
 * starves the rest of the API nor turns waiting into 503s.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, sessionWithEveryRole, type TestApp } from "../helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe("many writes to one cart at once", () => {
  it("wait for the cart without holding pool connections, and all land", async () => {
    expect(t.database.kind).toBe("postgres");
    const busy = await sessionWithEveryRole(t);
    const other = await sessionWithEveryRole(t);
    const products = (await busy.as.creator("GET", "/api/products?limit=50")).json().products as {
      _id: string;
      stock: number;
    }[];
    const plenty = products.filter((p) => p.stock >= 40).slice(0, 2);
    expect(plenty).toHaveLength(2);

    // Another client holds the busy cart's row lock, as a long change to it would.
    const holder = new pg.Client({ connectionString: t.database.url });
    await holder.connect();
    await holder.query("begin");
    await holder.query("select 1 from carts where id = $1 for update", [busy.cartId]);
    try {
      const writes = Array.from({ length: 60 }, (_, i) =>
        (i % 2 === 0 ? busy.as.creator : busy.as.participant)(
          "POST",
          `/api/carts/${busy.cartId}/product`,
          { productId: plenty[i % 4 < 2 ? 0 : 1]!._id },
        ),
      );
      // Three times the pool's size are waiting for that cart; the rest of the API still answers.
      await new Promise((r) => setTimeout(r, 300));
      const started = Date.now();
      const elsewhere = await other.as.participant("POST", `/api/carts/${other.cartId}/product`, {
        productId: plenty[0]!._id,
      });
      expect(elsewhere.statusCode, elsewhere.body).toBe(200);
      expect(Date.now() - started).toBeLessThan(3_000);
      // Longer than the pool's connect timeout used to be: waiting is not an outage.
      await new Promise((r) => setTimeout(r, 5_500));
      await holder.query("rollback");
      const answers = await Promise.all(writes);
      expect(answers.map((a) => a.statusCode)).toEqual(answers.map(() => 200));
    } finally {
      await holder.end();
    }
    const cart = (await busy.as.creator("GET", `/api/carts/${busy.cartId}`)).json().cart;
    expect(cart.itemCount).toBe(60);
  }, 60_000);
});
