import type { Product } from "@cartner/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { products } from "../../src/db/schema.ts";
import type { FeedProduct } from "../../src/features/catalog/feed-row.ts";
import { importFeed } from "../../src/features/catalog/import.ts";
import { afterCatalogChange } from "../../src/features/catalog/index.ts";
import { createCatalog } from "../../src/features/products/catalog.ts";
import { createMedia } from "../../src/lib/media.ts";
import { createTestApp, signUp, type TestApp } from "../helpers.ts";

/** A feed's products, as an import writes them, next to the seeded catalog. */
const feed = (
  key: string,
  fields: Omit<Partial<FeedProduct>, "imageLink"> & { name: string },
): FeedProduct => ({
  key,
  description: "",
  category: "Food",
  priceCents: 500,
  availability: "in_stock",
  brand: null,
  gtin: null,
  color: null,
  imageLink: null,
  ...fields,
});
const ROWS: FeedProduct[] = [
  feed("S1", {
    name: "Dark Chocolate 70%",
    brand: "Lindt",
    description: "Bitter and smooth, from Ecuador.",
    priceCents: 349,
    gtin: "4006381333931",
  }),
  feed("S2", { name: "Milk Chocolate Bar", brand: "Zotter", priceCents: 199 }),
  feed("S3", {
    name: "Blueberry Jam",
    brand: "Bonne Maman",
    description: "Wild blueberries, less sugar.",
    priceCents: 429,
  }),
  feed("S4", {
    name: "Trail Mix",
    brand: "Seeberger",
    description: "Nuts with chocolate chips and dried blueberries.",
    priceCents: 599,
  }),
  feed("S5", {
    name: "Espresso Machine",
    brand: "Delonghi",
    category: "Home & Kitchen",
    description: "Fifteen bar pump, milk frother.",
    priceCents: 18900,
  }),
];

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  ({ token } = await signUp(t));
  // Before the first read: the app's catalog loads them with the seeded products.
  await importFeed({ db: t.database.db }, ROWS);
  // One of them taken off sale, as `--full` or the Catalog page does.
  await t.database.db.update(products).set({ available: false }).where(eq(products.key, "S2"));
});
afterAll(async () => t.close());

async function list(query: string) {
  return t.app.inject({
    method: "GET",
    url: `/api/products?${query}`,
    headers: { authorization: `Bearer ${token}` },
  });
}
async function names(query: string): Promise<string[]> {
  const res = await list(query);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { products: Product[] }).products.map((p) => p.name);
}

describe("GET /api/products?q=", () => {
  it("matches the start of a word in the name, exact words first", async () => {
    expect(await names("q=choc")).toEqual(["Dark Chocolate 70%", "Trail Mix"]);
    expect(await names("q=blueberr")).toEqual(["Blueberry Jam", "Trail Mix"]);
    expect(await names("q=jam")).toEqual(["Blueberry Jam"]);
  });

  it("forgives one typo in a word of five letters or more", async () => {
    expect(await names("q=chocolte")).toEqual(["Dark Chocolate 70%", "Trail Mix"]);
    expect(await names("q=bluberry")).toContain("Blueberry Jam");
    expect(await names("q=espreso%20machnie")).toEqual(["Espresso Machine"]);
    // Short words must match as typed: "jan" is not "jam".
    expect(await names("q=jan")).not.toContain("Blueberry Jam");
  });

  it("matches the brand and the description", async () => {
    expect(await names("q=lindt")).toEqual(["Dark Chocolate 70%"]);
    expect(await names("q=bonne%20maman%20jam")).toEqual(["Blueberry Jam"]);
    expect(await names("q=ecuador")).toEqual(["Dark Chocolate 70%"]);
    expect(await names("q=frother")).toEqual(["Espresso Machine"]);
  });

  it("finds a product by its exact GTIN, and nothing by a part of it", async () => {
    expect(await names("q=4006381333931")).toEqual(["Dark Chocolate 70%"]);
    expect(await names("q=4006381-333931")).toEqual(["Dark Chocolate 70%"]);
    expect(await names("q=4006381333930")).toEqual([]);
    expect(await names("q=40063813")).toEqual([]);
  });

  it("every word must match", async () => {
    expect(await names("q=chocolate%20jam")).toEqual([]);
    expect(await names("q=dried%20blueberries%20chocolate")).toEqual(["Trail Mix"]);
  });

  it("hides products taken off sale unless asked for them", async () => {
    expect(await names("q=zotter")).toEqual([]);
    expect(await names("q=zotter&available=false")).toEqual(["Milk Chocolate Bar"]);
    expect(await names("q=chocolate")).not.toContain("Milk Chocolate Bar");
  });

  it("combines the search with categories, a price range, a sort and pages", async () => {
    expect(await names("q=blueberr&category=Food&sort=price_desc")).toEqual([
      "Trail Mix",
      "Blueberry Jam",
    ]);
    expect(await names("q=blueberr&maxPrice=5")).toEqual(["Blueberry Jam"]);
    expect(await names("q=frother&category=Food")).toEqual([]);
    expect(await names("q=frother&category=Home%20%26%20Kitchen")).toEqual(["Espresso Machine"]);
    const first = await list("q=choc&sort=price_asc&limit=1");
    expect(first.json()).toMatchObject({ total: 2, products: [{ name: "Dark Chocolate 70%" }] });
    const second = await list("q=choc&sort=price_asc&limit=1&offset=1");
    expect(second.json()).toMatchObject({ total: 2, products: [{ name: "Trail Mix" }] });
    expect((await list("q=choc&offset=2")).json()).toEqual({ products: [], total: 2 });
  });

  it.each([
    [`q=${"x".repeat(101)}`, "q"],
    ["q=choc&sort=best", "sort"],
    ["q=choc&available=yes", "available"],
    ["q=choc&limit=500", "limit"],
  ])("answers %s with 400 naming %s", async (query, field) => {
    const res = await list(query);
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().fields)).toContain(field);
  });
});

describe("the catalog after a change", () => {
  it("an import batch is seen whole after refresh(), and only then", async () => {
    const catalog = createCatalog(t.database.db, createMedia("http://localhost:3000"));
    const search = async (q: string) =>
      (
        JSON.parse((await catalog.list({ q, sort: "relevance", offset: 0 })).body) as {
          products: Product[];
        }
      ).products.map((p) => p.name);
    expect(await search("pistachio")).toEqual([]);
    await importFeed({ db: t.database.db }, [
      feed("S6", { name: "Pistachio Spread", brand: "Pisti" }),
      feed("S7", { name: "Pistachio Kernels", brand: "Pisti" }),
      feed("S3", { name: "Blueberry Jam", brand: "Bonne Maman", priceCents: 459 }),
    ]);
    expect(await search("pistachio")).toEqual([]);
    await catalog.refresh();
    expect(await search("pisti")).toEqual(["Pistachio Spread", "Pistachio Kernels"]);
    const jam = JSON.parse((await catalog.list({ q: "jam", sort: "relevance", offset: 0 })).body);
    expect(jam.products[0].price).toBe(4.59);
  });

  it("afterCatalogChange() shows a writer's change before it returns and tells the others", async () => {
    const catalog = createCatalog(t.database.db, createMedia("http://localhost:3000"));
    const published: unknown[] = [];
    const tell = (message: unknown) => void published.push(message);
    await catalog.list({ sort: "relevance", offset: 0 });
    const [espresso] = await t.database.db
      .update(products)
      .set({ name: "Espresso Maker" })
      .where(eq(products.key, "S5"))
      .returning({ id: products.id });
    await afterCatalogChange({ catalog, tell }, [espresso!.id]);
    const found = JSON.parse(
      (await catalog.list({ q: "maker", sort: "relevance", offset: 0 })).body,
    );
    expect(found.products.map((p: Product) => p.name)).toEqual(["Espresso Maker"]);
    expect(published).toEqual([{ invalidate: { catalog: [espresso!.id], reads: true } }]);

    // The writer's own message, heard back over the bus, names a product it already holds as it
    // is: the same snapshot answers (its cached answers kept), nothing is rebuilt.
    const page = await catalog.list({ q: "maker", sort: "relevance", offset: 0 });
    await catalog.refresh([espresso!.id]);
    expect(await catalog.list({ q: "maker", sort: "relevance", offset: 0 })).toBe(page);
    await t.database.db
      .update(products)
      .set({ name: "Espresso Machine" })
      .where(eq(products.id, espresso!.id));
    await catalog.refresh([espresso!.id]);
    expect(await catalog.list({ q: "maker", sort: "relevance", offset: 0 })).not.toBe(page);

    // A change the search does not read (stock) keeps the index: the answers show the new stock
    // and every search finds what it found before, in the same order.
    const before = JSON.parse(
      (await catalog.list({ q: "espresso", sort: "price_asc", offset: 0 })).body,
    );
    await t.database.db.update(products).set({ stock: 3 }).where(eq(products.id, espresso!.id));
    await catalog.refresh([espresso!.id]);
    const after = JSON.parse(
      (await catalog.list({ q: "espresso", sort: "price_asc", offset: 0 })).body,
    );
    expect(after.products.map((p: Product) => p._id)).toEqual(
      before.products.map((p: Product) => p._id),
    );
    expect(after.products.find((p: Product) => p._id === espresso!.id).stock).toBe(3);
    expect(after.total).toBe(before.total);
  });
});
