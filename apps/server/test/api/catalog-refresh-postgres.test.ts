import type { Product } from "@cartner/contract";
import { afterAll, beforeAll, expect, it } from "vitest";
import { importFeed } from "../../src/features/catalog/import.ts";
import { createTestApp, signUp, type TestApp } from "../helpers.ts";

// PostgreSQL only: an import runs while servers serve, and each batch's NOTIFY makes them refresh.
let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  ({ token } = await signUp(t));
});
afterAll(async () => t.close());

async function search(q: string): Promise<Product[]> {
  const res = await t.app.inject({
    method: "GET",
    url: `/api/products?q=${encodeURIComponent(q)}`,
    headers: { authorization: `Bearer ${token}` },
  });
  return (res.json() as { products: Product[] }).products;
}

it("a running server finds what an import committed, each batch whole", async () => {
  expect(await search("marzipan")).toEqual([]); // the catalog is loaded before the import
  const rows = Array.from({ length: 6 }, (_, i) => ({
    key: `M${i}`,
    name: `Marzipan Loaf ${i}`,
    description: "",
    category: "Food" as const,
    priceCents: 300 + i,
    availability: "in_stock" as const,
    brand: "Niederegger",
    gtin: null,
    color: null,
    imageLink: null,
  }));
  const seen = new Set<number>();
  const watching = (async () => {
    // Every answer while the import runs holds whole batches of three: 0, 3 or 6 products.
    for (let n = 0; n < 400 && !seen.has(6); n++) {
      seen.add((await search("marzipan")).length);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  await importFeed({ db: t.database.db, notifyServers: true }, rows, { batchSize: 3 });
  await watching;
  expect(seen.has(6)).toBe(true);
  expect([...seen].every((count) => count % 3 === 0)).toBe(true);
});
