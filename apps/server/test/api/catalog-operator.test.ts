/**
 * The operator's catalog calls: an account given the operator role (the command line's function)
 * lists, adds and changes products and reads the log of changes with who made each; a member
 * (signed in, without the role) gets 403 and a stranger (not signed in) 401 on every call, with
 * nothing stored; bad input is a 400 naming the field, with nothing stored; and the marketplace
 * serves a change at once.
 */
import { ACCOUNT_ACTIONS, endpoints, type EndpointKey } from "@cartner/contract";
import { asc } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { catalogChanges, products } from "../../src/db/schema.ts";
import { setAccountRole } from "../../src/features/catalog/operators.ts";
import { client, createTestApp, signUp, type Client, type TestApp } from "../helpers.ts";

let t: TestApp;
let operator: Client;
let member: Client;
let memberToken: string;
let operatorId: string;
let operatorEmail: string;
/** A product of the seeded catalog. */
let seeded: undefined | { _id: string; name: string; price: number; stock: number };

/** Everything stored about products and their changes, to compare before and after. */
async function stored() {
  const rows = await t.database.db.select().from(products).orderBy(asc(products.id));
  const log = await t.database.db.select().from(catalogChanges).orderBy(asc(catalogChanges.seq));
  return { rows, log };
}

const stranger = (method: "GET" | "POST" | "PATCH" | "PUT", url: string, payload?: object) =>
  t.app.inject({ method, url, ...(payload ? { payload } : {}) });

beforeAll(async () => {
  t = await createTestApp();
  const ann = await signUp(t, "Ann");
  const ben = await signUp(t, "Ben");
  const granted = await setAccountRole(
    { db: t.database.db },
    { email: ann.email.toUpperCase(), role: "operator", grant: true },
  );
  expect(granted).toMatchObject({ found: true, changed: true, roles: ["operator"] });
  operator = client(t, ann.token);
  member = client(t, ben.token);
  memberToken = ben.token;
  operatorId = ann.userId;
  operatorEmail = ann.email;
  seeded = (await operator("GET", "/api/products?limit=1")).json().products[0];
});
afterAll(async () => t.close());

describe("the operator role", () => {
  it("shows in the profile and in the token's user; members have none", async () => {
    expect((await operator("GET", "/api/profile/me")).json().user.roles).toEqual(["operator"]);
    expect((await operator("GET", "/api/auth/validate-token")).json().user.roles).toEqual([
      "operator",
    ]);
    expect((await member("GET", "/api/profile/me")).json().user.roles).toEqual([]);
  });

  it("is given once and says so, and an unknown email changes nothing", async () => {
    const again = await setAccountRole(
      { db: t.database.db },
      { email: operatorEmail, role: "operator", grant: true },
    );
    expect(again).toMatchObject({ found: true, changed: false, roles: ["operator"] });
    const unknown = await setAccountRole(
      { db: t.database.db },
      { email: "nobody@example.com", role: "operator", grant: true },
    );
    expect(unknown).toEqual({ found: false });
  });
});

describe("an operator", () => {
  it("lists the whole catalog by name, a page at a time, unavailable products when asked", async () => {
    const first = await operator("GET", "/api/catalog/products?limit=20");
    expect(first.statusCode, first.body).toBe(200);
    const page1 = first.json();
    expect(page1.products).toHaveLength(20);
    expect(page1.nextCursor).toEqual(expect.any(String));
    const page2 = (
      await operator("GET", `/api/catalog/products?limit=20&cursor=${page1.nextCursor}`)
    ).json();
    const names = [...page1.products, ...page2.products].map((p: { name: string }) => p.name);
    expect(new Set(names).size).toBe(names.length);
    // Walk to the end: every product once, and the last page says so.
    let all = [...page1.products, ...page2.products];
    let cursor = page2.nextCursor as string | null;
    while (cursor) {
      const page = (
        await operator("GET", `/api/catalog/products?limit=20&cursor=${cursor}`)
      ).json();
      all = [...all, ...page.products];
      cursor = page.nextCursor;
    }
    const { rows } = await stored();
    expect(all.map((p) => p._id).sort()).toEqual(rows.map((r) => r.id).sort());

    const offSale = await operator("PATCH", `/api/catalog/products/${seeded!._id}`, {
      available: false,
    });
    expect(offSale.statusCode, offSale.body).toBe(200);
    const unavailable = (await operator("GET", "/api/catalog/products?available=false")).json();
    expect(unavailable.products.map((p: { _id: string }) => p._id)).toEqual([seeded!._id]);
    const everything = (
      await operator("GET", `/api/catalog/products?q=${encodeURIComponent(seeded!.name)}`)
    ).json();
    expect(everything.products.map((p: { _id: string }) => p._id)).toContain(seeded!._id);
    // The marketplace no longer offers it; the operator puts it back on sale.
    const market = (await operator("GET", "/api/products?limit=100")).json();
    expect(market.products.map((p: { _id: string }) => p._id)).not.toContain(seeded!._id);
    await operator("PATCH", `/api/catalog/products/${seeded!._id}`, { available: true });
    const back = (await operator("GET", "/api/products?limit=100")).json();
    expect(back.products.map((p: { _id: string }) => p._id)).toContain(seeded!._id);
  });

  it("changes a price and the marketplace shows it at once; the log says who", async () => {
    const before = (await stored()).log.length;
    const page = (etag?: string) =>
      t.app.inject({
        method: "GET",
        url: "/api/products?limit=1",
        headers: {
          authorization: `Bearer ${memberToken}`,
          ...(etag ? { "if-none-match": etag } : {}),
        },
      });
    const oldEtag = (await page()).headers.etag as string;
    expect((await page(oldEtag)).statusCode).toBe(304);
    const res = await operator("PATCH", `/api/catalog/products/${seeded!._id}`, {
      price: 7.25,
      stock: 12,
      name: "  Renamed product  ",
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().product).toMatchObject({ price: 7.25, stock: 12, name: "Renamed product" });
    const market = (await member("GET", `/api/products/${seeded!._id}`)).json().product;
    expect(market).toMatchObject({ price: 7.25, stock: 12, name: "Renamed product" });
    // A browser revalidating the list it holds gets the new one, never a 304 for the old.
    const revalidated = await page(oldEtag);
    expect(revalidated.statusCode).toBe(200);
    expect(revalidated.json().products[0]).toMatchObject({ _id: seeded!._id, price: 7.25 });
    expect(revalidated.headers.etag).not.toBe(oldEtag);
    expect((await page(revalidated.headers.etag as string)).statusCode).toBe(304);

    const { log } = await stored();
    expect(log.length - before).toBe(3);
    const changes = (await operator("GET", "/api/catalog/changes")).json();
    const mine = changes.changes.slice(0, 3);
    expect(mine.map((c: { field: string }) => c.field).sort()).toEqual(["name", "price", "stock"]);
    for (const change of mine) {
      expect(change.by).toEqual({ _id: operatorId, name: "Ann" });
      expect(change.productId).toBe(seeded!._id);
    }
    expect(mine.find((c: { field: string }) => c.field === "price")).toMatchObject({
      from: seeded!.price,
      to: 7.25,
    });
    // The same values again change nothing and log nothing.
    await operator("PATCH", `/api/catalog/products/${seeded!._id}`, { price: 7.25 });
    expect((await stored()).log.length - before).toBe(3);
  });

  it("adds a product with a key made for it, and refuses a key in use with 409", async () => {
    const body = {
      name: "Birthday candles",
      category: "Groceries",
      price: 2.5,
      stock: 40,
      brand: "Glow",
      gtin: "4006-3813 33931",
    };
    const res = await operator("POST", "/api/catalog/products", body);
    expect(res.statusCode, res.body).toBe(201);
    const product = res.json().product;
    expect(product).toMatchObject({
      name: "Birthday candles",
      price: 2.5,
      stock: 40,
      brand: "Glow",
      gtin: "4006381333931",
      available: true,
      description: "",
    });
    expect(product.key).toMatch(/^birthday-candles-[0-9a-f]{8}$/);
    // The marketplace serves it at once.
    const found = (await member("GET", "/api/products?q=birthday")).json();
    expect(found.products.map((p: { _id: string }) => p._id)).toContain(product._id);
    const [added] = (await operator("GET", "/api/catalog/changes")).json().changes;
    expect(added).toMatchObject({
      by: { _id: operatorId, name: "Ann" },
      productId: product._id,
      field: "added",
      to: "Birthday candles",
    });

    const before = await stored();
    const twice = await operator("POST", "/api/catalog/products", { ...body, key: product.key });
    expect(twice.statusCode, twice.body).toBe(409);
    expect(twice.json().message).toContain(product.key);
    expect(await stored()).toEqual(before);
  });

  it("pages the log of changes, newest first", async () => {
    for (const stock of [1, 2, 3]) {
      await operator("PATCH", `/api/catalog/products/${seeded!._id}`, { stock });
    }
    const first = (await operator("GET", "/api/catalog/changes")).json();
    expect(first.changes[0]).toMatchObject({ field: "stock", from: 2, to: 3 });
    const { log } = await stored();
    let all = first.changes;
    let cursor = first.nextCursor as string | null;
    while (cursor) {
      const page = (await operator("GET", `/api/catalog/changes?cursor=${cursor}`)).json();
      all = [...all, ...page.changes];
      cursor = page.nextCursor;
    }
    expect(all).toHaveLength(log.length);
  });
});

/** PUT /api/catalog/products/:id/image as multipart/form-data with one file part. */
function upload(token: string, productId: string, bytes: Buffer, field = "image") {
  const boundary = "----cartner-picture";
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="p.png"\r\n` +
        "Content-Type: image/png\r\n\r\n",
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return t.app.inject({
    method: "PUT",
    url: `/api/catalog/products/${productId}/image`,
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": `multipart/form-data; boundary=${boundary}`,
    },
    payload: body,
  });
}

describe("a product's picture", () => {
  let token: string;
  beforeAll(async () => {
    const olive = await signUp(t, "Olive");
    await setAccountRole(
      { db: t.database.db },
      { email: olive.email, role: "operator", grant: true },
    );
    token = olive.token;
  });
  const png = () =>
    sharp({ create: { width: 640, height: 480, channels: 3, background: "#2e86de" } })
      .png()
      .toBuffer();

  it("is replaced by an operator's upload, served at once and logged with who", async () => {
    const before = (await member("GET", `/api/products/${seeded!._id}`)).json().product.imageUrl;
    const res = await upload(token, seeded!._id, await png());
    expect(res.statusCode, res.body).toBe(200);
    const { product } = res.json();
    expect(product.imageUrl).not.toBe(before);
    expect(product.imageUrl).toMatch(/\.webp$/);
    expect((await member("GET", `/api/products/${seeded!._id}`)).json().product.imageUrl).toBe(
      product.imageUrl,
    );
    const picture = await t.app.inject({ method: "GET", url: new URL(product.imageUrl).pathname });
    expect(picture.statusCode).toBe(200);
    expect(picture.headers["content-type"]).toContain("image/webp");
    const [logged] = (await operator("GET", "/api/catalog/changes")).json().changes;
    expect(logged).toMatchObject({ field: "image", productId: seeded!._id, by: { name: "Olive" } });
  });

  it.each([
    ["a text file", () => Buffer.from("not a picture at all"), "image", 415],
    ["a picture in another field", png, "photo", 400],
    ["a picture over 5 MB", () => Buffer.alloc(5 * 1024 * 1024 + 1, 0xff), "image", 413],
  ] as const)("refuses %s, storing nothing", async (_name, bytes, field, status) => {
    const before = await stored();
    const res = await upload(token, seeded!._id, await bytes(), field);
    expect(res.statusCode, res.body).toBe(status);
    if (status !== 413) expect(Object.keys(res.json().fields)).toEqual([field]);
    expect(await stored()).toEqual(before);
  });

  it("refuses a member's upload of a real picture with 403, storing nothing", async () => {
    const before = await stored();
    const res = await upload(memberToken, seeded!._id, await png());
    expect(res.statusCode, res.body).toBe(403);
    expect(await stored()).toEqual(before);
  });
});

// Every catalog call, as the member and the stranger make it.
/** A product id for the names of the rows, before the app exists; the real one when run. */
const idOf = () => seeded?._id ?? "00000000-0000-4000-8000-000000000000";
const CALLS: Array<{ method: "GET" | "POST" | "PATCH" | "PUT"; url: () => string; body?: object }> =
  [
    { method: "GET", url: () => "/api/catalog/products" },
    {
      method: "POST",
      url: () => "/api/catalog/products",
      body: { name: "Sneaky", category: "Groceries", price: 1 },
    },
    { method: "PATCH", url: () => `/api/catalog/products/${idOf()}`, body: { price: 0.01 } },
    { method: "PUT", url: () => `/api/catalog/products/${idOf()}/image` },
    { method: "GET", url: () => "/api/catalog/changes" },
  ];

describe("refusals", () => {
  it("covers every route an account action of the permissions table guards", () => {
    const guarded = (Object.keys(endpoints) as EndpointKey[]).filter((key) =>
      (ACCOUNT_ACTIONS as readonly string[]).includes(endpoints[key].access),
    );
    const called = CALLS.map((call) => {
      const path = call.url().replace(/[0-9a-f]{8}-[0-9a-f-]{27}/, ":id");
      return `${call.method} ${path}`;
    });
    expect(called.sort()).toEqual(guarded.sort());
  });

  it.each(
    CALLS.map(
      (call) => [`${call.method} ${call.url().replace(/[0-9a-f-]{36}/, ":id")}`, call] as const,
    ),
  )("%s: a member gets 403, a stranger 401, and nothing is stored", async (_name, call) => {
    const before = await stored();
    const asMember = await member(call.method, call.url(), call.body);
    expect(asMember.statusCode, asMember.body).toBe(403);
    expect(asMember.json().message).toBe("Only the catalog's operators can do that.");
    const asStranger = await stranger(call.method, call.url(), call.body);
    expect(asStranger.statusCode, asStranger.body).toBe(401);
    expect(await stored()).toEqual(before);
  });

  it("refuses an operator whose role was taken away, at once", async () => {
    const dan = await signUp(t, "Dan");
    await setAccountRole(
      { db: t.database.db },
      { email: dan.email, role: "operator", grant: true },
    );
    const as = client(t, dan.token);
    expect((await as("GET", "/api/catalog/changes")).statusCode).toBe(200);
    const revoked = await setAccountRole(
      { db: t.database.db },
      { email: dan.email, role: "operator", grant: false },
    );
    expect(revoked).toMatchObject({ found: true, changed: true, roles: [] });
    expect((await as("GET", "/api/catalog/changes")).statusCode).toBe(403);
    expect(
      (await as("PATCH", `/api/catalog/products/${seeded!._id}`, { stock: 9 })).statusCode,
    ).toBe(403);
  });

  it.each([
    ["a negative price", "PATCH", { price: -1 }, "price"],
    ["a price with three decimals", "PATCH", { price: 1.999 }, "price"],
    ["an empty name", "PATCH", { name: "   " }, "name"],
    ["a stock that is not whole", "PATCH", { stock: 1.5 }, "stock"],
    ["availability as text", "PATCH", { available: "maybe" }, "available"],
    ["a GTIN with a wrong check digit", "PATCH", { gtin: "4006381333932" }, "gtin"],
    ["an unknown category", "PATCH", { category: "Spaceships" }, "category"],
    ["a field no product has", "PATCH", { rating: 5 }, "rating"],
    ["no name", "POST", { category: "Groceries", price: 1 }, "name"],
    ["no price", "POST", { name: "Candles", category: "Groceries" }, "price"],
  ] as const)(
    "refuses %s with 400 naming the field, storing nothing",
    async (_n, method, body, field) => {
      const before = await stored();
      const url =
        method === "POST" ? "/api/catalog/products" : `/api/catalog/products/${seeded!._id}`;
      const res = await operator(method, url, body);
      expect(res.statusCode, res.body).toBe(400);
      expect(Object.keys(res.json().fields ?? {})).toContain(field);
      expect(await stored()).toEqual(before);
    },
  );

  it("refuses a bad query or cursor with 400 naming it, and an unknown product with 404", async () => {
    for (const [url, field] of [
      ["/api/catalog/products?available=maybe", "available"],
      ["/api/catalog/products?limit=0", "limit"],
      ["/api/catalog/products?cursor=nonsense", "cursor"],
      ["/api/catalog/changes?cursor=abc", "cursor"],
    ] as const) {
      const res = await operator("GET", url);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(400);
      expect(Object.keys(res.json().fields ?? {})).toContain(field);
    }
    const missing = await operator(
      "PATCH",
      "/api/catalog/products/00000000-0000-4000-8000-000000000000",
      { stock: 1 },
    );
    expect(missing.statusCode).toBe(404);
  });
});
