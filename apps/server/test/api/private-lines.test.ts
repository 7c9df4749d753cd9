/**
 * Private lines (a present): the adder or the creator hides a line from chosen members. For them
 * the line does not exist in any read route of the endpoint table that a member can call on the
 * session (walked from the table, not listed), nor in the activity log; its cost stays in the
 * totals and shares, so their figures add up, with the count of private lines beside them.
 */
import { endpoints, splitEndpointKey, type EndpointKey } from "@cartner/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { group } from "../group-support.ts";
import { cents, createTestApp, signUp, type TestApp } from "../helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

type Line = { _id: string; productId: { _id: string; name: string }; hiddenFrom: string[] };
type Share = { userId: string; total: number; subtotal: number };

/** Ann creates, Ben and Cat take part; Ben adds a present for Cat and hides it from her. */
async function present() {
  const g = await group(t, ["Ann", "Ben", "Cat"] as const);
  await g.add("Cat", "Cosy Knit Scarf", 1);
  await g.add("Ben", "Pulse Fitness Watch", 2);
  const cart = (await g.as.Ben("GET", `/api/carts/${g.session.cartId}`)).json().cart;
  const line = (cart.products as Line[]).find((l) => l.productId.name === "Pulse Fitness Watch")!;
  const url = `/api/carts/${g.session.cartId}/lines/${line._id}/hidden-from`;
  return { ...g, line, url };
}

describe("hiding a line", () => {
  it("hides it from the chosen member; the adder and the creator see whom it is hidden from", async () => {
    const g = await present();
    const res = await g.as.Ben("PUT", g.url, { userIds: [g.id("Cat")] });
    expect(res.statusCode, res.body).toBe(200);
    const mine = (res.json().cart.products as Line[]).find((l) => l._id === g.line._id)!;
    expect(mine.hiddenFrom).toEqual([g.id("Cat")]);
    expect(res.json().cart.privateCount).toBe(0);
    const ann = (await g.as.Ann("GET", `/api/carts/${g.session.cartId}`)).json().cart;
    expect((ann.products as Line[]).find((l) => l._id === g.line._id)!.hiddenFrom).toEqual([
      g.id("Cat"),
    ]);

    const cat = (await g.as.Cat("GET", `/api/carts/${g.session.cartId}`)).json().cart;
    expect((cat.products as Line[]).map((l) => l.productId.name)).toEqual(["Cosy Knit Scarf"]);
    expect(cat.privateCount).toBe(1);
    expect(cat.itemCount).toBe(1);
    expect(cat.totalPrice).toBe(ann.totalPrice);
    expect(cat.split).toEqual(ann.split);

    // Shown to everyone again.
    const back = await g.as.Ann("PUT", g.url, { userIds: [] });
    expect(back.statusCode, back.body).toBe(200);
    const again = (await g.as.Cat("GET", `/api/carts/${g.session.cartId}`)).json().cart;
    expect(again.products).toHaveLength(2);
    expect(again.privateCount).toBe(0);
  });

  it.each([
    ["oneself", "Ben", "Ben", "You cannot hide an item from yourself."],
    ["the creator", "Ben", "Ann", "An item is never hidden from the session's creator."],
    ["the adder", "Ann", "Ben", "An item is never hidden from whoever added it."],
    ["a non-member", "Ben", "Zed", "An item is hidden only from members of the session."],
  ] as const)("refuses hiding it from %s with 400", async (_what, by, target, message) => {
    const g = await present();
    const zed = await signUp(t, "Zed");
    const id = target === "Zed" ? zed.userId : g.id(target);
    const res = await g.as[by]("PUT", g.url, { userIds: [id] });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toBe(`Invalid userIds: ${message}`);
    expect(res.json().fields.userIds).toBe(message);
  });

  it("refuses a participant hiding another's line, and a duplicate id", async () => {
    const g = await present();
    const other = await g.as.Cat("PUT", g.url, { userIds: [] });
    expect(other.statusCode).toBe(403);
    expect(other.json().message).toBe(
      "Only the item's adder or the session's creator can hide it.",
    );
    const twice = await g.as.Ben("PUT", g.url, { userIds: [g.id("Cat"), g.id("Cat")] });
    expect(twice.statusCode).toBe(400);
  });
});

/** Every GET route of the endpoint table whose path a member can fill in for the session. */
function readRoutes(g: Awaited<ReturnType<typeof present>>): { key: EndpointKey; url: string }[] {
  const values: Record<string, string> = {
    id: g.session._id,
    sessionId: g.session._id,
    cartId: g.session.cartId,
    code: g.session.sessionCode,
  };
  return (Object.keys(endpoints) as EndpointKey[]).flatMap((key) => {
    const [method, path] = splitEndpointKey(key);
    if (method !== "GET") return [];
    const params = [...path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
    if (!params.every((p) => p in values)) return [];
    return [{ key, url: path.replace(/:(\w+)/g, (_, p: string) => values[p]!) }];
  });
}

describe("what the member it is hidden from sees", () => {
  it("no trace of the lines in any read route, nor in the log; the figures add up", async () => {
    const g = await present();
    // A free line too: its name is in no catalog, so no route may carry it.
    const free = await g.as.Ben("POST", `/api/carts/${g.session.cartId}/free-lines`, {
      name: "Pottery class voucher",
    });
    expect(free.statusCode, free.body).toBe(200);
    const voucher = (free.json().cart.products as Line[]).find(
      (l) => l.productId.name === "Pottery class voucher",
    )!;
    // What Cat was told while the lines were not yet hidden stays told (decision 049): the
    // notices kept from then are her baseline, and nothing after the hiding may add to them.
    await t.app.idle();
    const toldBefore = (await g.as.Cat("GET", "/api/notifications")).json();
    for (const id of [g.line._id, voucher._id]) {
      const url = `/api/carts/${g.session.cartId}/lines/${id}/hidden-from`;
      const hid = await g.as.Ben("PUT", url, { userIds: [g.id("Cat")] });
      expect(hid.statusCode, hid.body).toBe(200);
    }
    // A change to the line after it was hidden, and its entries from before.
    const step = await g.as.Ben("PATCH", `/api/carts/${g.session.cartId}/quantity`, {
      productId: g.line.productId._id,
      change: 1,
    });
    expect(step.statusCode, step.body).toBe(200);
    // The notices of these changes are told after the answers.
    await t.app.idle();
    const annNotices = await g.as.Ann("GET", "/api/notifications");
    expect(annNotices.body).toContain(g.line.productId.name);
    // The product is in the catalog for all to see; the line's id, and the free line, nowhere.
    const traces = [g.line._id, voucher._id, "Pottery class voucher"];

    const routes = readRoutes(g);
    expect(routes.map((r) => r.key)).toEqual(
      expect.arrayContaining([
        "GET /api/carts",
        "GET /api/carts/:cartId",
        "GET /api/sessions/:id/summary",
        "GET /api/sessions/:id/activity",
      ]),
    );
    // The routes that carry her notices (told before the hiding) are checked against the baseline.
    const notices = new Set<EndpointKey>(["GET /api/notifications", "GET /api/users/me/export"]);
    for (const { key, url } of routes) {
      const res = await g.as.Cat("GET", url);
      expect(res.statusCode, `${key}: ${res.body}`).toBeLessThan(500);
      if (notices.has(key)) continue;
      for (const trace of traces) expect(res.body, key).not.toContain(trace);
    }
    expect((await g.as.Cat("GET", "/api/notifications")).json()).toEqual(toldBefore);
    // The others see them: the routes do carry lines.
    const ann = await g.as.Ann("GET", `/api/carts/${g.session.cartId}`);
    for (const trace of traces) expect(ann.body).toContain(trace);
    const log = await g.as.Ann("GET", `/api/sessions/${g.session._id}/activity`);
    expect(log.body).toContain("Pottery class voucher");
    expect(log.body).toContain(g.line.productId.name);
    // Nor the product's name, where only the line could have put it: the log and the notices.
    const catLog = await g.as.Cat("GET", `/api/sessions/${g.session._id}/activity`);
    expect(catLog.body).not.toContain(g.line.productId.name);

    const summary = (await g.as.Cat("GET", `/api/sessions/${g.session._id}/summary`)).json();
    expect(summary.privateCount).toBe(2);
    expect(summary.cartItems).toHaveLength(1);
    const shares = (summary.split as Share[]).reduce((s, x) => s + cents(x.total), 0);
    expect(shares).toBe(cents(summary.total));
    const cart = (await g.as.Cat("GET", `/api/carts/${g.session.cartId}`)).json().cart;
    expect(cart.privateCount).toBe(2);
    expect((cart.split as Share[]).reduce((s, x) => s + cents(x.total), 0)).toBe(shares);
  });
});

describe("a stock refusal", () => {
  it("counts in the cart only the units the member sees", async () => {
    const g = await present();
    await g.add("Ben", "Metro Commuter Bike", 4);
    await g.add("Ann", "Metro Commuter Bike", 1);
    const cart = (await g.as.Ben("GET", `/api/carts/${g.session.cartId}`)).json().cart;
    const bike = (cart.products as Line[]).find(
      (l) => l.productId.name === "Metro Commuter Bike" && l._id !== g.line._id,
    )!;
    const bens = (cart.products as (Line & { addedBy: { _id: string } })[]).find(
      (l) => l.productId.name === "Metro Commuter Bike" && l.addedBy._id === g.id("Ben"),
    )!;
    const url = `/api/carts/${g.session.cartId}/lines/${bens._id}/hidden-from`;
    expect((await g.as.Ben("PUT", url, { userIds: [g.id("Cat")] })).statusCode).toBe(200);
    const add = { productId: bike.productId._id, quantity: 3 };
    const cat = await g.as.Cat("POST", `/api/carts/${g.session.cartId}/product`, add);
    expect(cat.statusCode).toBe(409);
    expect(cat.json().message).toBe("Only 6 in stock, and 1 already in this cart.");
    const ann = await g.as.Ann("POST", `/api/carts/${g.session.cartId}/product`, add);
    expect(ann.json().message).toBe("Only 6 in stock, and 5 already in this cart.");
  });
});

describe("checkout", () => {
  it("is refused while the cart holds a private line (an order does not hide lines yet)", async () => {
    const g = await present();
    await g.as.Ben("PUT", g.url, { userIds: [g.id("Cat")] });
    const checkout = `/api/sessions/${g.session._id}/checkout`;
    const refused = await g.as.Ann("POST", checkout);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(
      "The cart holds private items, which an order cannot keep private yet: show them to everyone before checking out.",
    );
    expect((await g.as.Ann("PUT", g.url, { userIds: [] })).statusCode).toBe(200);
    const placed = await g.as.Ann("POST", checkout);
    expect(placed.statusCode, placed.body).toBe(201);
  });
});
