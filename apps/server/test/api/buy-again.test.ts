/**
 * Buy again through the API: a cart offers what its group bought before (its series' orders and
 * the reader's orders with every other member of the cart), most often first, ties by the latest,
 * at today's prices, without products no longer sold or already in the cart; the limit is
 * checked; only members may ask.
 */
import type { BuyAgainItem } from "@cartner/contract";
import { sql } from "drizzle-orm";
import { TestClock } from "pg-boss";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { boughtQuery } from "../../src/features/carts/buy-again.ts";
import { client, createTestApp, signUp, type Client, type TestApp } from "../helpers.ts";

let t: TestApp;
let queueClock: TestClock;
let products: { _id: string; name: string; price: number; imageUrl: string }[];

type Person = Awaited<ReturnType<typeof signUp>> & { as: Client };

async function person(name: string): Promise<Person> {
  const p = await signUp(t, name);
  return { ...p, as: client(t, p.token) };
}

beforeAll(async () => {
  queueClock = new TestClock(Date.now());
  t = await createTestApp({ queueClock });
  const someone = await person("Eve");
  const listed: ((typeof products)[0] & { stock: number })[] = (
    await someone.as("GET", "/api/products?limit=20")
  ).json().products;
  products = listed.filter((p) => p.stock > 10);
});
afterAll(async () => t.close());

/** A session of `creator` with `others` as participants; its id and cart. */
async function group(creator: Person, others: Person[], name = "Groceries") {
  const created = await creator.as("POST", "/api/sessions", {
    sessionName: name,
    sessionType: "Friends",
    participants: "3+",
    passcode: "tulip",
  });
  expect(created.statusCode, created.body).toBe(201);
  const session = created.json().session;
  for (const other of others) {
    const join = await other.as("POST", "/api/sessions/join/code", {
      sessionCode: session.sessionCode,
      passcode: "tulip",
    });
    expect(join.statusCode, join.body).toBe(202);
    const approve = await creator.as("POST", `/api/sessions/approve/${session.sessionCode}`, {
      userId: other.userId,
    });
    expect(approve.statusCode, approve.body).toBe(200);
  }
  return { sessionId: session._id as string, cartId: session.cartId as string };
}

async function add(who: Person, cartId: string, productIndex: number, quantity = 1) {
  const res = await who.as("POST", `/api/carts/${cartId}/product`, {
    productId: products[productIndex]!._id,
    quantity,
  });
  expect(res.statusCode, res.body).toBe(200);
}

async function checkout(creator: Person, sessionId: string) {
  const res = await creator.as("POST", `/api/sessions/${sessionId}/checkout`);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().order as { _id: string; lines: { name: string }[] };
}

async function addFree(who: Person, cartId: string, name: string, estimatedPrice: number) {
  const res = await who.as("POST", `/api/carts/${cartId}/free-lines`, { name, estimatedPrice });
  expect(res.statusCode, res.body).toBe(200);
}

/** The series' next session, once the job the checkout sent has run. */
async function followerOf(creator: Person, sessionId: string) {
  return vi.waitFor(
    async () => {
      await queueClock.tick(1_000);
      const session = (await creator.as("GET", `/api/sessions/${sessionId}`)).json().session;
      expect(session.nextSessionId).toBeTruthy();
      const next = (await creator.as("GET", `/api/sessions/${session.nextSessionId}`)).json();
      return { sessionId: next.session._id as string, cartId: next.session.cartId as string };
    },
    { timeout: 20_000, interval: 50 },
  );
}

async function offered(who: Person, cartId: string, query = ""): Promise<BuyAgainItem[]> {
  const res = await who.as("GET", `/api/carts/${cartId}/buy-again${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().items;
}

/** Each item as [the product's index, or a free line's name; times]. */
const named = (items: BuyAgainItem[]) =>
  items.map((i) => [
    i.productId === null ? i.name : products.findIndex((p) => p._id === i.productId),
    i.times,
  ]);

describe("a weekly group", () => {
  let ann: Person, ben: Person, cy: Person, dee: Person;
  let current: { sessionId: string; cartId: string };

  beforeAll(async () => {
    [ann, ben, cy, dee] = [
      await person("Ann"),
      await person("Ben"),
      await person("Cy"),
      await person("Dee"),
    ];
    // Two orders of one series: Ann and Ben.
    const first = await group(ann, [ben], "Weekly");
    const series = await ann.as("PUT", `/api/sessions/${first.sessionId}/series`, {
      rule: "FREQ=WEEKLY;BYDAY=FR;BYHOUR=18;BYMINUTE=0",
      timeZone: "Europe/Paris",
    });
    expect(series.statusCode, series.body).toBe(200);
    await add(ann, first.cartId, 0, 2);
    await add(ben, first.cartId, 0);
    await add(ben, first.cartId, 1);
    await addFree(ben, first.cartId, "Birthday candles", 2);
    await checkout(ann, first.sessionId);
    const second = await followerOf(ann, first.sessionId);
    await add(ann, second.cartId, 0);
    await add(ben, second.cartId, 2);
    await checkout(ann, second.sessionId);
    current = await followerOf(ann, second.sessionId);

    // Ann's orders outside the series: with other people (Cy, not Ben), and with Ben and Dee.
    const withCy = await group(ann, [cy], "Party");
    await add(ann, withCy.cartId, 3);
    await add(cy, withCy.cartId, 0);
    await checkout(ann, withCy.sessionId);
    const withBenAndDee = await group(ben, [ann, dee], "Camping");
    await add(dee, withBenAndDee.cartId, 4);
    // The same free line, named a little differently, and priced after the shop.
    await addFree(dee, withBenAndDee.cartId, "birthday CANDLES", 2.5);
    const camping = await checkout(ben, withBenAndDee.sessionId);
    const priced = await ben.as("POST", `/api/orders/${camping._id}/adjustments`, {
      kind: "price",
      lineIndex: camping.lines.findIndex((l) => l.name === "birthday CANDLES"),
      unitPrice: 3.1,
    });
    expect(priced.statusCode, priced.body).toBe(201);
  });

  it("offers the series' and the group's purchases, most often first, ties by the latest", async () => {
    const items = await offered(ann, current.cartId);
    // The candles were in the first series order and the latest (with Dee), under one name
    // whatever its case; product 0 was in both series orders (two lines of the first count
    // once); product 2 is the series' latest single, 4 was bought with Ben and Dee, 1 in the
    // first series order; product 3 was bought with Cy only, who is not in this group.
    expect(named(items)).toEqual([
      ["birthday CANDLES", 2],
      [0, 2],
      [4, 1],
      [2, 1],
      [1, 1],
    ]);
    // A free line at what the latest order paid for it (priced after the shop).
    expect(items[0]).toEqual({
      productId: null,
      name: "birthday CANDLES",
      imageUrl: expect.stringMatching(/\/free-line\.svg$/),
      price: 3.1,
      times: 2,
      lastAt: expect.any(String),
    });
    const first = items[1]!;
    expect(first).toEqual({
      productId: products[0]!._id,
      name: products[0]!.name,
      imageUrl: products[0]!.imageUrl,
      price: products[0]!.price,
      times: 2,
      lastAt: expect.any(String),
    });
    expect(Date.parse(items[2]!.lastAt)).toBeGreaterThan(Date.parse(items[3]!.lastAt));
    // Ben sees the same group's purchases.
    expect(named(await offered(ben, current.cartId))).toEqual(named(items));
  });

  it("prices at today's price, and leaves out what is no longer sold or already in the cart", async () => {
    const [p0, p1, p2] = products as [
      (typeof products)[0],
      (typeof products)[0],
      (typeof products)[0],
    ];
    await t.database.db.execute(
      sql`update products set price_cents = price_cents + 100 where id = ${p0._id}`,
    );
    await t.database.db.execute(sql`update products set available = false where id = ${p1._id}`);
    await add(ben, current.cartId, 2);
    await addFree(ben, current.cartId, "BIRTHDAY candles", 3);
    const free = (await ben.as("GET", `/api/carts/${current.cartId}`))
      .json()
      .cart.products.find((l: { free: boolean }) => l.free)._id as string;
    try {
      const items = await offered(ann, current.cartId);
      expect(named(items)).toEqual([
        [0, 2],
        [4, 1],
      ]);
      expect(items[0]!.price).toBeCloseTo(p0.price + 1, 2);
    } finally {
      const gone = await ben.as(
        "DELETE",
        `/api/carts/${current.cartId}/product/${free}?lineId=${free}`,
      );
      expect(gone.statusCode, gone.body).toBe(200);
      await t.database.db.execute(
        sql`update products set price_cents = price_cents - 100 where id = ${p0._id}`,
      );
      await t.database.db.execute(sql`update products set available = true where id = ${p1._id}`);
      const removed = await ben.as("DELETE", `/api/carts/${current.cartId}/product/${p2._id}`);
      expect(removed.statusCode, removed.body).toBe(200);
    }
  });

  it("answers at most `limit` items, and refuses a bad limit naming the field", async () => {
    expect(named(await offered(ann, current.cartId, "?limit=1"))).toEqual([
      ["birthday CANDLES", 2],
    ]);
    for (const q of ["limit=0", "limit=51", "limit=2.5", "limit=abc"]) {
      const res = await ann.as("GET", `/api/carts/${current.cartId}/buy-again?${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(Object.keys(res.json().fields), q).toEqual(["limit"]);
    }
    expect((await ann.as("GET", `/api/carts/${current.cartId}/buy-again?x=1`)).statusCode).toBe(
      400,
    );
  });

  it("answers a stranger, a past co-buyer outside the group and an unknown cart 404", async () => {
    const sam = await person("Sam");
    const res = await sam.as("GET", `/api/carts/${current.cartId}/buy-again`);
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe("NOT_FOUND");
    // Cy bought with Ann, but is no member of this cart.
    expect((await cy.as("GET", `/api/carts/${current.cartId}/buy-again`)).statusCode).toBe(404);
    const unknown = "00000000-0000-4000-8000-000000000000";
    expect((await ann.as("GET", `/api/carts/${unknown}/buy-again`)).statusCode).toBe(404);
  });

  it("offers a new group nothing from orders it was not in", async () => {
    // Ann and Cy alone: their party counts (every other member was there); Ben's series does not.
    const fresh = await group(ann, [cy], "Again");
    // One order each: ties by the latest, then by name.
    const byName = [0, 3].sort((a, b) => products[a]!.name.localeCompare(products[b]!.name));
    expect(named(await offered(cy, fresh.cartId))).toEqual(byName.map((i) => [i, 1]));
  });
});

it("reaches every table through an index, and the reader's memberships by person and time", async () => {
  const id = "00000000-0000-4000-8000-000000000000";
  const since = new Date(Date.now() - 365 * 24 * 3600 * 1000).toISOString();
  const query = boughtQuery({ cartId: id, sessionId: id, userId: id, since, limit: 12 });
  const plan = await t.database.db.transaction(async (tx) => {
    // A plan may still choose a sequential scan when no index serves the lookup.
    await tx.execute(sql`set local enable_seqscan = off`);
    const rows = (await tx.execute(sql`explain ${query}`)) as unknown as {
      rows: Record<string, string>[];
    };
    return rows.rows.map((r) => Object.values(r)[0]).join("\n");
  });
  expect(plan).not.toMatch(/Seq Scan/);
  expect(plan).toMatch(
    /session_members_user_created_idx[^\n]*\n\s*Index Cond: \(\(user_id = [^\n]*created_at >=/,
  );
});
