/**
 * An operator's change with two app instances on one PostgreSQL database (this file runs only
 * there), as behind a load balancer: the instance that made it serves the new values at once, the
 * other as soon as the change's message reaches it over the bus.
 */
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, expect, it } from "vitest";
import { setAccountRole } from "../../src/features/catalog/operators.ts";
import { createTestApp, secondInstance, signUp, type TestApp } from "../helpers.ts";

/** One secret for both, as docs/deploy.md says: a token from one works on the other. */
const env = { JWT_SECRET: "two-instances-".padEnd(48, "x") };
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

it("reaches the other instance's catalog within a second", async () => {
  expect(t.database.kind).toBe("postgres");
  const ann = await signUp(t, "Ann");
  await setAccountRole({ db: t.database.db }, { email: ann.email, role: "operator", grant: true });
  const headers = { authorization: `Bearer ${ann.token}` };
  const get = (app: FastifyInstance, url: string) => app.inject({ method: "GET", url, headers });
  const first = await get(other, "/api/products?limit=1");
  const [product] = first.json().products;
  // Both instances holding the same rows tag the same answer alike: a browser moved between
  // them still gets its 304.
  expect((await get(t.app, "/api/products?limit=1")).headers.etag).toBe(first.headers.etag);
  // The other instance has the catalog in memory now, at the old price.
  expect((await get(other, `/api/products/${product._id}`)).json().product.price).toBe(
    product.price,
  );
  const price = Math.round(product.price * 100 + 111) / 100;
  const changed = await t.app.inject({
    method: "PATCH",
    url: `/api/catalog/products/${product._id}`,
    headers,
    payload: { price, available: false },
  });
  expect(changed.statusCode, changed.body).toBe(200);
  expect((await get(t.app, `/api/products/${product._id}`)).json().product.price).toBe(price);
  const started = Date.now();
  let seen: { price: number; available: boolean } | undefined;
  while (Date.now() - started < 1000) {
    seen = (await get(other, `/api/products/${product._id}`)).json().product;
    if (seen?.price === price) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  expect(seen).toMatchObject({ price, available: false });
  const after = await get(other, "/api/products?limit=1");
  expect(after.headers.etag).not.toBe(first.headers.etag);
  expect((await get(t.app, "/api/products?limit=1")).headers.etag).toBe(after.headers.etag);
  // Taken off sale: the other instance's marketplace no longer lists it.
  const listed = (await get(other, "/api/products?limit=100")).json().products;
  expect(listed.map((p: { _id: string }) => p._id)).not.toContain(product._id);
});
