/**
 * Stock with two app instances on one PostgreSQL database (this file runs only there), as behind
 * a load balancer: 20 groups whose carts want 3 of a product with 10 in stock check out at once,
 * half through each instance, and exactly 3 orders get it; a catalog change made through one
 * instance reaches a member whose live socket is on the other.
 */
import type { FastifyInstance } from "fastify";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { orders, products } from "../../src/db/schema.ts";
import { followCatalog } from "../../src/features/catalog/index.ts";
import { createTestApp, secondInstance, signUp, type TestApp } from "../helpers.ts";
import { listenForLive, signedIn, within } from "../live-peers.ts";

/** One secret for both, as docs/deploy.md says: a token from one works on the other. */
const env = { JWT_SECRET: "stock-two-instances-".padEnd(48, "x") };
let t: TestApp;
let other: FastifyInstance;

beforeAll(async () => {
  t = await createTestApp({ env });
  other = await secondInstance(t, env);
});
afterAll(async () => {
  await other.close();
  await t.close();
});

const call = (
  app: FastifyInstance,
  token: string,
  method: "GET" | "POST",
  url: string,
  payload?: object,
) =>
  app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}` },
    ...(payload ? { payload } : {}),
  });

describe("two instances taking stock", () => {
  it("20 groups racing for 10 units through both: 3 orders, stock 1, 17 refused with nothing stored", async () => {
    expect(t.database.kind).toBe("postgres");
    const list = (
      await call(t.app, (await signUp(t, "Zed")).token, "GET", "/api/products?limit=50")
    ).json().products as { _id: string; stock: number }[];
    const productId = list.find((p) => p.stock >= 20)!._id;
    const groups: { app: FastifyInstance; token: string; sessionId: string; cartId: string }[] = [];
    for (let i = 0; i < 20; i++) {
      const { token } = await signUp(t, `Racer${i}`);
      const app = i % 2 === 0 ? t.app : other;
      const created = await call(app, token, "POST", "/api/sessions", {
        sessionName: `Race ${i}`,
        sessionType: "Friends",
        participants: "3+",
      });
      expect(created.statusCode, created.body).toBe(201);
      const { _id: sessionId, cartId } = created.json().session;
      const added = await call(app, token, "POST", `/api/carts/${cartId}/product`, {
        productId,
        quantity: 3,
      });
      expect(added.statusCode, added.body).toBe(200);
      groups.push({ app, token, sessionId, cartId });
    }
    await t.database.db.update(products).set({ stock: 10 }).where(eq(products.id, productId));

    const answers = await Promise.all(
      groups.map((g) => call(g.app, g.token, "POST", `/api/sessions/${g.sessionId}/checkout`)),
    );
    expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(3);
    const refused = answers.filter((a) => a.statusCode === 409);
    expect(refused).toHaveLength(17);
    for (const r of refused) {
      expect(r.json()).toMatchObject({ code: "OUT_OF_STOCK", lines: [{ wanted: 3, left: 1 }] });
    }
    const [after] = await t.database.db
      .select({ stock: products.stock })
      .from(products)
      .where(eq(products.id, productId));
    expect(after!.stock).toBe(1);
    for (const [i, g] of groups.entries()) {
      const placed = await t.database.db
        .select()
        .from(orders)
        .where(eq(orders.sessionId, g.sessionId));
      expect(placed).toHaveLength(answers[i]!.statusCode === 201 ? 1 : 0);
    }
  }, 60_000);

  it("a catalog change through one instance reaches a cart's member live on the other", async () => {
    const ann = await signUp(t, "Ann");
    const list = (await call(t.app, ann.token, "GET", "/api/products?limit=50")).json()
      .products as {
      _id: string;
      stock: number;
    }[];
    const productId = list.find((p) => p.stock >= 20)!._id;
    const created = await call(t.app, ann.token, "POST", "/api/sessions", {
      sessionName: "Follow",
      sessionType: "Friends",
      participants: "3+",
    });
    const { _id: sessionId, cartId } = created.json().session;
    await call(t.app, ann.token, "POST", `/api/carts/${cartId}/product`, {
      productId,
      quantity: 1,
    });
    const peer = await signedIn(await listenForLive(t), ann.token);
    await t.database.db
      .update(products)
      .set({ available: false })
      .where(eq(products.id, productId));
    await followCatalog(other.catalogFollow, [productId]);
    const got = await within(
      peer.next(
        (m) => m.type === "catalog.updated" && "sessionId" in m && m.sessionId === sessionId,
      ),
      1000,
    );
    expect(got).toMatchObject({ cartId, productIds: [productId] });
    peer.socket.close();
    await t.database.db.update(products).set({ available: true }).where(eq(products.id, productId));
  });
});
