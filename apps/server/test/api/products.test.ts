import { PRODUCT_CATEGORIES, type Product } from "@cartner/contract";
import zlib from "node:zlib";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { products } from "../../src/db/schema.ts";
import { createCatalog } from "../../src/features/products/catalog.ts";
import { seedCatalog } from "../../src/db/seed.ts";
import { createMedia } from "../../src/lib/media.ts";
import { createTestApp, signUp, type TestApp } from "../helpers.ts";

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  ({ token } = await signUp(t));
});
afterAll(async () => t.close());

async function list(query = "", headers: Record<string, string> = {}) {
  const res = await t.app.inject({
    method: "GET",
    url: `/api/products${query ? `?${query}` : ""}`,
    headers: { authorization: `Bearer ${token}`, ...headers },
  });
  return res;
}
async function listOk(query = ""): Promise<{ products: Product[]; total: number }> {
  const res = await list(query);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

describe("the seeded catalog", () => {
  it("has at least 48 products, 5 or more per category, in the API's shape", async () => {
    const { products: all, total } = await listOk();
    expect(total).toBe(all.length);
    expect(total).toBeGreaterThanOrEqual(48);
    for (const category of PRODUCT_CATEGORIES) {
      expect(all.filter((p) => p.category === category).length).toBeGreaterThanOrEqual(5);
    }
    for (const p of all) {
      expect(Object.keys(p).sort()).toEqual(
        expect.arrayContaining([
          "_id",
          "name",
          "price",
          "imageUrl",
          "rating",
          "reviews",
          "description",
          "category",
          "stock",
        ]),
      );
      expect(Number.isInteger(Math.round(p.price * 100))).toBe(true);
      expect(p.price * 100).toBeCloseTo(Math.round(p.price * 100), 6);
      expect(p.rating).toBeGreaterThanOrEqual(0);
      expect(p.rating).toBeLessThanOrEqual(5);
      // Absolute, from PUBLIC_URL, so a client on any origin can show it.
      expect(p.imageUrl).toMatch(
        /^http:\/\/localhost:3000\/api\/catalog\/images\/[a-z0-9-]+\.svg$/,
      );
    }
  });

  it("seeding again adds nothing and keeps what changed", async () => {
    const [first] = await t.database.db.select().from(products).limit(1);
    await t.database.db.update(products).set({ stock: 3 }).where(eq(products.id, first!.id));
    expect(await seedCatalog(t.database.db)).toBe(0);
    const [after] = await t.database.db.select().from(products).where(eq(products.id, first!.id));
    expect(after!.stock).toBe(3);
  });
});

describe("GET /api/products", () => {
  it("refuses a visitor without a token", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/products" });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: "UNAUTHORIZED" });
  });

  it("searches name, description and category, case-insensitively", async () => {
    const byName = await listOk("q=HEADPHONES");
    expect(byName.products.map((p) => p.name)).toContain("Aurora Wireless Headphones");
    const byDescription = await listOk("q=noise%20cancelling");
    expect(byDescription.products.map((p) => p.name)).toEqual(["Aurora Wireless Headphones"]);
    const byCategory = await listOk("q=beauty");
    expect(byCategory.total).toBeGreaterThanOrEqual(5);
    expect(
      byCategory.products.every(
        (p) => p.category === "Beauty" || /beauty/i.test(p.name + p.description),
      ),
    ).toBe(true);
    expect((await listOk("q=zzzz-no-such-thing")).total).toBe(0);
  });

  it("ranks name matches first for relevance", async () => {
    const { products: found } = await listOk("q=tea");
    expect(found.length).toBeGreaterThan(1);
    expect(found[0]!.name.toLowerCase()).toContain("tea");
  });

  it("filters by one category and by several", async () => {
    const one = await listOk("category=Drinks");
    expect(one.total).toBeGreaterThanOrEqual(5);
    expect(one.products.every((p) => p.category === "Drinks")).toBe(true);
    const two = await listOk("category=Food&category=Groceries");
    expect(new Set(two.products.map((p) => p.category))).toEqual(new Set(["Food", "Groceries"]));
    expect(two.total).toBe(
      (await listOk("category=Food")).total + (await listOk("category=Groceries")).total,
    );
  });

  it("filters by a price range, inclusive, in currency units", async () => {
    const { products: found } = await listOk("minPrice=20&maxPrice=50");
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((p) => p.price >= 20 && p.price <= 50)).toBe(true);
    const exact = await listOk("minPrice=149.99&maxPrice=149.99");
    expect(exact.products.map((p) => p.name)).toEqual(["Aurora Wireless Headphones"]);
    expect((await listOk("minPrice=900.01")).total).toBe(0);
  });

  it("sorts by price both ways and by rating", async () => {
    const asc = (await listOk("sort=price_asc")).products.map((p) => p.price);
    expect(asc).toEqual([...asc].sort((a, b) => a - b));
    const desc = (await listOk("sort=price_desc")).products.map((p) => p.price);
    expect(desc).toEqual([...desc].sort((a, b) => b - a));
    const rating = (await listOk("sort=rating")).products.map((p) => p.rating);
    expect(rating).toEqual([...rating].sort((a, b) => b - a));
  });

  it("combines search, categories, price and sort", async () => {
    const { products: found, total } = await listOk(
      "q=a&category=Electronics&category=Sports%20%26%20Outdoors&minPrice=30&maxPrice=300&sort=price_desc",
    );
    expect(total).toBeGreaterThan(1);
    for (const p of found) {
      expect(["Electronics", "Sports & Outdoors"]).toContain(p.category);
      expect(p.price).toBeGreaterThanOrEqual(30);
      expect(p.price).toBeLessThanOrEqual(300);
      expect(`${p.name} ${p.description} ${p.category}`.toLowerCase()).toContain("a");
    }
    const prices = found.map((p) => p.price);
    expect(prices).toEqual([...prices].sort((a, b) => b - a));
  });

  it("pages with limit and offset, with the total of all matches", async () => {
    const all = await listOk("sort=price_asc");
    const page = await listOk("sort=price_asc&limit=5&offset=5");
    expect(page.total).toBe(all.total);
    expect(page.products.map((p) => p._id)).toEqual(all.products.slice(5, 10).map((p) => p._id));
  });

  it.each([
    ["sort=cheapest", "sort"],
    ["category=Toys", "category"],
    ["minPrice=abc", "minPrice"],
    ["minPrice=-1", "minPrice"],
    ["minPrice=60&maxPrice=50", "minPrice"],
    ["limit=0", "limit"],
    ["limit=101", "limit"],
    ["limit=2.5", "limit"],
    ["offset=-1", "offset"],
    [`q=${"x".repeat(101)}`, "q"],
    ["colour=red", "colour"],
    ["available=maybe", "available"],
  ])("answers %s with 400 naming %s", async (query, field) => {
    const res = await list(query);
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.code).toBe("VALIDATION_ERROR");
    expect(Object.keys(body.fields).join(",")).toContain(field);
  });

  it("sends an ETag and answers 304 when nothing changed", async () => {
    const first = await list("category=Beauty");
    const etag = first.headers.etag as string;
    expect(etag).toBeTruthy();
    expect(first.headers["cache-control"]).toBe("private, no-cache");
    const again = await list("category=Beauty", { "if-none-match": etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe("");
    const other = await list("category=Drinks", { "if-none-match": etag });
    expect(other.statusCode).toBe(200);
  });

  it("sends the list brotli-compressed to a browser, gzipped to a client taking only gzip, else plain", async () => {
    const plain = await list("limit=24");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.headers.vary).toBe("accept-encoding");
    const decoded = {
      br: (bytes: Buffer) => zlib.brotliDecompressSync(bytes),
      gzip: (bytes: Buffer) => zlib.gunzipSync(bytes),
    };
    for (const [accept, encoding] of [
      ["gzip, deflate, br, zstd", "br"],
      ["gzip, deflate", "gzip"],
    ] as const) {
      // Twice: the second answer is the compressed body kept from the first.
      for (let i = 0; i < 2; i++) {
        const res = await list("limit=24", { "accept-encoding": accept });
        expect(res.headers["content-encoding"]).toBe(encoding);
        expect(res.headers.etag).toBe(plain.headers.etag);
        expect(decoded[encoding](res.rawPayload).toString()).toBe(plain.body);
      }
    }
  });
});

describe("GET /api/products/:id", () => {
  it("returns one product", async () => {
    const [first] = (await listOk("limit=1")).products;
    const res = await t.app.inject({
      method: "GET",
      url: `/api/products/${first!._id}`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ product: first });
  });

  it.each(["00000000-0000-4000-8000-000000000000", "not-an-id"])(
    "answers 404 for %s",
    async (id) => {
      const res = await t.app.inject({
        method: "GET",
        url: `/api/products/${id}`,
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({
        message: "Product not found.",
        code: "NOT_FOUND",
        requestId: res.headers["x-request-id"],
      });
    },
  );
});

describe("product images", () => {
  it("are served by the app, publicly, with a long cache", async () => {
    const { products: all } = await listOk();
    for (const p of all) {
      const res = await t.app.inject({ method: "GET", url: p.imageUrl });
      expect(res.statusCode).toBe(200);
      expect(res.headers["content-type"]).toMatch(/image\/svg\+xml/);
      expect(res.headers["cache-control"]).toContain("immutable");
      expect(res.body).toMatch(/^<svg[^>]+viewBox="0 0 400 400"/);
      expect(res.body).not.toMatch(/https?:\/\/(?!www\.w3\.org)/);
    }
    expect(
      (await t.app.inject({ method: "GET", url: "/api/catalog/images/nope.svg" })).statusCode,
    ).toBe(404);
  });
});

describe("the catalog cache", () => {
  it("serves a change only after refresh()", async () => {
    const catalog = createCatalog(t.database.db, createMedia("http://localhost:3000"));
    const before = JSON.parse((await catalog.list({ sort: "relevance", offset: 0 })).body);
    const target = before.products[0];
    await t.database.db
      .update(products)
      .set({ priceCents: 12345 })
      .where(eq(products.id, target._id));
    expect(
      JSON.parse((await catalog.list({ sort: "relevance", offset: 0 })).body).products[0].price,
    ).toBe(target.price);
    await catalog.refresh();
    expect(
      JSON.parse((await catalog.list({ sort: "relevance", offset: 0 })).body).products[0].price,
    ).toBe(123.45);
  });
});

describe("availability", () => {
  it("lists the products on sale unless asked for those taken off sale; each is still found by id", async () => {
    const db = t.database.db;
    const catalog = createCatalog(db, createMedia("http://localhost:3000"));
    const [first] = await db.select().from(products).orderBy(products.position).limit(1);
    await db.update(products).set({ available: false }).where(eq(products.id, first!.id));
    try {
      const onSale = JSON.parse((await catalog.list({ sort: "relevance", offset: 0 })).body);
      expect(onSale.products.map((p: Product) => p._id)).not.toContain(first!.id);
      const off = JSON.parse(
        (await catalog.list({ sort: "relevance", offset: 0, available: false })).body,
      );
      expect(off.total).toBe(1);
      expect(off.products[0]).toMatchObject({
        _id: first!.id,
        available: false,
        // The seed's products have their slug as the feed's key.
        key: first!.slug,
        brand: null,
        gtin: null,
      });
      expect(await catalog.get(first!.id)).toMatchObject({ available: false });
    } finally {
      await db.update(products).set({ available: true }).where(eq(products.id, first!.id));
    }
  });
});
