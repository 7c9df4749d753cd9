/**
 * Open carts follow the catalog, and checkout takes stock: a price change shows on the line with
 * the price last seen until a member acknowledges it, the split moves (and with it a ready mark),
 * members whose share moved hear it once, members of the carts holding the product get
 * `catalog.updated` live and nobody else does; a product made unavailable is left out at checkout;
 * lines over the stock are refused or take what is left; 20 groups racing for 10 units get
 * exactly them; an adjustment "missing" puts the units back. On both databases.
 */
import type { Cart, CartLine, LiveServerMessage, Notification } from "@cartner/contract";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { executeRows } from "../../src/db/client.ts";
import { products as productsTable } from "../../src/db/schema.ts";
import { followCatalog } from "../../src/features/catalog/index.ts";
import { importFeed } from "../../src/features/catalog/import.ts";
import type { FeedProduct } from "../../src/features/catalog/feed-row.ts";
import { group } from "../group-support.ts";
import { client, createTestApp, signUp, type Client, type TestApp } from "../helpers.ts";
import { listenForLive, settle, signedIn, within, type Peer } from "../live-peers.ts";

let t: TestApp;
let base: string;

beforeAll(async () => {
  t = await createTestApp();
  base = await listenForLive(t);
});
afterAll(() => t.close());

/** A product of the catalog, by name, as the database has it. */
async function productRow(name: string) {
  const [row] = await t.database.db
    .select()
    .from(productsTable)
    .where(eq(productsTable.name, name));
  return row!;
}

/**
 * The product's price changed as an import of a one-row feed changes it (the import's write
 * path), with open carts following as the import makes them.
 */
async function reprice(name: string, priceCents: number) {
  const p = await productRow(name);
  const row: FeedProduct = {
    key: p.key,
    name: p.name,
    description: p.description,
    category: p.category as FeedProduct["category"],
    priceCents,
    availability: p.stock > 0 ? "in_stock" : "out_of_stock",
    brand: p.brand,
    gtin: p.gtin,
    color: p.color,
    imageLink: null,
  };
  const diff = await importFeed(
    {
      db: t.database.db,
      afterChange: (ids) => followCatalog(t.app.catalogFollow, ids),
    },
    [row],
  );
  expect(diff.changed).toHaveLength(1);
  await t.app.idle();
}

/** A change of the product as the operator's edit makes it, then the carts follow. */
async function setProduct(name: string, values: { available?: boolean; stock?: number }) {
  const p = await productRow(name);
  await t.database.db.update(productsTable).set(values).where(eq(productsTable.id, p.id));
  await followCatalog(t.app.catalogFollow, [p.id]);
  await t.app.idle();
}

async function cartOf(as: Client, sessionId: string): Promise<Cart> {
  const res = await as("GET", `/api/sessions/${sessionId}/cart`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().cart as Cart;
}

const lineOf = (cart: Cart, product: string): CartLine =>
  cart.products.find((l) => l.productId.name === product)!;
const shareOf = (cart: Cart, userId: string) => cart.split.find((s) => s.userId === userId)!.total;
const subtotalOf = (cart: Cart, userId: string) =>
  cart.split.find((s) => s.userId === userId)!.subtotal;

async function changesFor(as: Client, sessionId: string): Promise<Notification[]> {
  const res = await as("GET", "/api/notifications");
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().notifications as Notification[]).filter(
    (n) => n.kind === "changes" && n.sessionId === sessionId,
  );
}

/** Distinct products with stock to spare, by name, for a test of its own. */
let taken = 0;
async function freshProducts(as: Client, n: number): Promise<string[]> {
  const list = (await as("GET", "/api/products?limit=100")).json().products as {
    name: string;
    price: number;
    stock: number;
  }[];
  const fit = list.filter((p) => p.stock >= 20 && p.price >= 1);
  const names = fit.slice(taken, taken + n).map((p) => p.name);
  taken += n;
  expect(names).toHaveLength(n);
  return names;
}

describe("a price change", () => {
  it("shows on the line until acknowledged, moves the split and the ready mark, tells those whose share moved", async () => {
    const g = await group(t, ["Ann", "Ben", "Cat"] as const);
    const [milk] = await freshProducts(g.as.Ann, 1);
    await g.policy("by_adder");
    await g.add("Ann", milk!, 2);
    // Ann's milk is shared by Ann and Ben; Cat carries nothing (fees go with the subtotals, so a
    // share of anything else might move by a cent).
    const before = await cartOf(g.as.Ann, g.session._id);
    const milkLine = lineOf(before, milk!);
    const shared = await g.as.Ann(
      "PUT",
      `/api/carts/${g.session.cartId}/lines/${milkLine._id}/shared-with`,
      { userIds: [g.id("Ann"), g.id("Ben")] },
    );
    expect(shared.statusCode, shared.body).toBe(200);
    for (const n of ["Ben", "Cat"] as const) {
      const ready = await g.as[n]("PUT", `/api/sessions/${g.session._id}/ready`, { ready: true });
      expect(ready.statusCode, ready.body).toBe(200);
    }
    await t.app.idle();
    for (const n of ["Ann", "Ben", "Cat"] as const) {
      await g.as[n]("POST", "/api/notifications/read", { all: true });
    }
    const was = await cartOf(g.as.Ann, g.session._id);
    expect(lineOf(was, milk!)).toMatchObject({ priceChanged: false, stockShort: 0 });
    const oldPrice = lineOf(was, milk!).unitPrice;
    const benBefore = subtotalOf(was, g.id("Ben"));
    const catBefore = shareOf(was, g.id("Cat"));

    const peers: Record<string, Peer> = {};
    for (const n of ["Ann", "Ben", "Cat"] as const) {
      peers[n] = await signedIn(base, g.people[n].token);
    }
    const stranger = await signUp(t, "Sam");
    const outsider = await signedIn(base, stranger.token);

    const newCents = Math.round(oldPrice * 100) + 150;
    const started = Date.now();
    await reprice(milk!, newCents);
    const isCatalog = (m: LiveServerMessage) =>
      m.type === "catalog.updated" && "sessionId" in m && m.sessionId === g.session._id;
    for (const n of ["Ann", "Ben", "Cat"] as const) {
      const got = await within(peers[n]!.next(isCatalog), 1000);
      expect(got).toMatchObject({ productIds: [(await productRow(milk!)).id] });
    }
    expect(Date.now() - started).toBeLessThan(5000);
    await settle();
    expect(outsider.messages.filter((m) => m.type === "catalog.updated")).toEqual([]);

    const now = await cartOf(g.as.Ben, g.session._id);
    const line = lineOf(now, milk!);
    expect(line).toMatchObject({
      unitPrice: newCents / 100,
      addedPrice: oldPrice,
      priceChanged: true,
      available: true,
      lineTotal: (newCents * 2) / 100,
    });
    // The split uses the new price: Ben's half of the milk moved by 1.50, Cat's share did not.
    expect(subtotalOf(now, g.id("Ben"))).toBeCloseTo(benBefore + 1.5, 2);
    expect(shareOf(now, g.id("Cat"))).toBe(catBefore);
    const member = (n: "Ben" | "Cat") =>
      now.sessionId.invitedUsers.find((m) => m.userId === g.id(n))!;
    expect(member("Ben")).toMatchObject({ ready: false, shareChanged: true });
    expect(member("Cat")).toMatchObject({ ready: true, shareChanged: false });

    // One "changes" notification to each member whose share moved; none to Cat.
    const annChanges = await changesFor(g.as.Ann, g.session._id);
    const benChanges = await changesFor(g.as.Ben, g.session._id);
    expect(annChanges.filter((n) => !n.readAt)).toHaveLength(1);
    expect(benChanges.filter((n) => !n.readAt)).toHaveLength(1);
    expect(benChanges[0]!.body).toContain(`${milk} now`);
    expect((await changesFor(g.as.Cat, g.session._id)).filter((n) => !n.readAt)).toEqual([]);

    // Acknowledged by a member who pays: the old price goes, the split stays.
    const ack = await g.as.Cat(
      "POST",
      `/api/carts/${g.session.cartId}/lines/${line._id}/acknowledge-price`,
    );
    expect(ack.statusCode, ack.body).toBe(200);
    const acked = lineOf(ack.json().cart as Cart, milk!);
    expect(acked).toMatchObject({ priceChanged: false, unitPrice: newCents / 100 });
    expect(shareOf(ack.json().cart as Cart, g.id("Ben"))).toBe(shareOf(now, g.id("Ben")));
    // A stranger is refused and changes nothing.
    const refused = await client(t, stranger.token)(
      "POST",
      `/api/carts/${g.session.cartId}/lines/${line._id}/acknowledge-price`,
    );
    expect(refused.statusCode).toBe(404);
    for (const p of [...Object.values(peers), outsider]) p.socket.close();
  });

  it("after a second change shows the price last acknowledged as 'was', not the one added at", async () => {
    const g = await group(t, ["Ann", "Ben"] as const);
    const [bread] = await freshProducts(g.as.Ann, 1);
    await g.add("Ben", bread!, 1);
    const added = lineOf(await cartOf(g.as.Ann, g.session._id), bread!);
    const addedCents = Math.round(added.unitPrice * 100);
    expect(added).toMatchObject({ addedPrice: added.unitPrice, seenPrice: added.unitPrice });

    await reprice(bread!, addedCents + 50);
    const first = lineOf(await cartOf(g.as.Ann, g.session._id), bread!);
    expect(first).toMatchObject({
      priceChanged: true,
      addedPrice: addedCents / 100,
      seenPrice: addedCents / 100,
      unitPrice: (addedCents + 50) / 100,
    });
    const ack = await g.as.Ben(
      "POST",
      `/api/carts/${g.session.cartId}/lines/${first._id}/acknowledge-price`,
    );
    expect(ack.statusCode, ack.body).toBe(200);
    expect(lineOf(ack.json().cart as Cart, bread!)).toMatchObject({
      priceChanged: false,
      addedPrice: addedCents / 100,
      seenPrice: (addedCents + 50) / 100,
    });

    await reprice(bread!, addedCents + 100);
    const second = lineOf(await cartOf(g.as.Ann, g.session._id), bread!);
    expect(second).toMatchObject({
      priceChanged: true,
      addedPrice: addedCents / 100,
      seenPrice: (addedCents + 50) / 100,
      unitPrice: (addedCents + 100) / 100,
    });
  });
});

describe("checkout and the catalog", () => {
  it("leaves an unavailable product's line out, names it, and takes the others' stock", async () => {
    const g = await group(t, ["Ann", "Ben"] as const);
    const [tea, jam] = await freshProducts(g.as.Ann, 2);
    await g.add("Ann", tea!, 2);
    await g.add("Ben", jam!, 3);
    const jamStock = (await productRow(jam!)).stock;
    await setProduct(tea!, { available: false });
    const cart = await cartOf(g.as.Ann, g.session._id);
    expect(lineOf(cart, tea!).available).toBe(false);
    expect(cart.itemCount).toBe(3);
    const res = await g.as.Ann("POST", `/api/sessions/${g.session._id}/checkout`);
    expect(res.statusCode, res.body).toBe(201);
    const { order, leftOut } = res.json();
    expect(leftOut).toEqual([{ lineId: lineOf(cart, tea!)._id, name: tea, quantity: 2 }]);
    expect(order.lines.map((l: { name: string }) => l.name)).toEqual([jam]);
    expect((await productRow(jam!)).stock).toBe(jamStock - 3);
    await setProduct(tea!, { available: true });
  });

  it("refuses lines over the stock naming what is left, or takes what is left when asked", async () => {
    const g = await group(t, ["Ann", "Ben"] as const);
    const [oil] = await freshProducts(g.as.Ann, 1);
    await g.add("Ann", oil!, 3);
    await g.add("Ben", oil!, 3);
    await setProduct(oil!, { stock: 4 });
    const cart = await cartOf(g.as.Ann, g.session._id);
    const [first, second] = cart.products;
    expect([first!.stockShort, second!.stockShort]).toEqual([0, 2]);

    const refused = await g.as.Ann("POST", `/api/sessions/${g.session._id}/checkout`, {
      overStock: "refuse",
    });
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json()).toMatchObject({
      code: "OUT_OF_STOCK",
      lines: [{ lineId: second!._id, name: oil, wanted: 3, left: 1 }],
    });
    expect((await productRow(oil!)).stock).toBe(4);
    expect((await cartOf(g.as.Ann, g.session._id)).status).toBe("active");

    const bad = await g.as.Ann("POST", `/api/sessions/${g.session._id}/checkout`, {
      overStock: "maybe",
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toHaveProperty("overStock");

    const took = await g.as.Ann("POST", `/api/sessions/${g.session._id}/checkout`, {
      overStock: "take_what_is_left",
    });
    expect(took.statusCode, took.body).toBe(201);
    const lines = took.json().order.lines as { quantity: number }[];
    expect(lines.map((l) => l.quantity)).toEqual([3, 1]);
    expect((await productRow(oil!)).stock).toBe(0);

    // Ben's line was not delivered: its unit goes back to the stock, once.
    const orderId = took.json().order._id as string;
    for (let i = 0; i < 2; i++) {
      const missing = await g.as.Ann("POST", `/api/orders/${orderId}/adjustments`, {
        kind: "missing",
        lineIndex: 1,
      });
      if (i === 0) expect(missing.statusCode, missing.body).toBe(201);
    }
    expect((await productRow(oil!)).stock).toBe(1);
  });

  it("20 groups racing for 10 units: exactly 3 orders, stock 1, the 17 others refused and nothing stored", async () => {
    const [salt] = await freshProducts(client(t, (await signUp(t, "Zed")).token), 1);
    const groups: { as: Client; sessionId: string; cartId: string }[] = [];
    for (let i = 0; i < 20; i++) {
      const owner = await signUp(t, `Racer${i}`);
      const as = client(t, owner.token);
      const created = await as("POST", "/api/sessions", {
        sessionName: `Race ${i}`,
        sessionType: "Friends",
        participants: "3+",
      });
      expect(created.statusCode, created.body).toBe(201);
      const { _id: sessionId, cartId } = created.json().session;
      const id = (await productRow(salt!)).id;
      const added = await as("POST", `/api/carts/${cartId}/product`, {
        productId: id,
        quantity: 3,
      });
      expect(added.statusCode, added.body).toBe(200);
      groups.push({ as, sessionId, cartId });
    }
    await setProduct(salt!, { stock: 10 });
    const answers = await Promise.all(
      groups.map((g) => g.as("POST", `/api/sessions/${g.sessionId}/checkout`)),
    );
    const placed = answers.filter((a) => a.statusCode === 201);
    const refused = answers.filter((a) => a.statusCode === 409);
    expect(placed).toHaveLength(3);
    expect(refused).toHaveLength(17);
    for (const r of refused) {
      expect(r.json()).toMatchObject({ code: "OUT_OF_STOCK", lines: [{ wanted: 3, left: 1 }] });
    }
    expect((await productRow(salt!)).stock).toBe(1);
    const losers = groups.filter((_, i) => answers[i]!.statusCode === 409);
    const ids = losers.map((g) => g.sessionId);
    const [row] = await executeRows<{ orders: number; entries: number }>(
      t.database.db,
      sql`select (select count(*) from orders
                   where session_id in (select json_array_elements_text(${JSON.stringify(ids)}::json)::uuid))::int as orders,
                 (select count(*) from ledger_entries e join orders o on o.id = e.order_id
                   where o.session_id in (select json_array_elements_text(${JSON.stringify(ids)}::json)::uuid))::int as entries`,
    );
    expect(row).toEqual({ orders: 0, entries: 0 });
    for (const g of losers) expect((await cartOf(g.as, g.sessionId)).status).toBe("active");
  });
});
