/**
 * Private from the start (decision 049): a product or a free line added with `hiddenFrom` is
 * written hidden in the same call that adds it, so the member it is hidden from, even one in the
 * session with a live socket at that moment, never hears of it: no live event naming it, no
 * notice, no activity entry, no trace in any read route; her figures still add up. Bad members
 * are 400 naming `hiddenFrom`, with nothing stored. More of a product joins the caller's line of
 * it only when that line is hidden from every member asked. On both databases.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HIDDEN_APART_MESSAGE } from "../../src/features/carts/line-writes.ts";
import { group, readRoutes } from "../group-support.ts";
import { cents, client, createTestApp, signUp, type TestApp } from "../helpers.ts";
import { listenForLive, settle, signedIn, within } from "../live-peers.ts";

let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await createTestApp();
  base = await listenForLive(t);
});
afterAll(() => t.close());

type Line = {
  _id: string;
  quantity: number;
  productId: { _id: string; name: string };
  hiddenFrom: string[];
};
type Share = { userId: string; total: number };

const WATCH = "Pulse Fitness Watch";
const VOUCHER = "Pottery class voucher";

/** Ann creates, Ben and Cat take part; Cat has a scarf in the cart; every notice so far read. */
async function trio() {
  const g = await group(t, ["Ann", "Ben", "Cat"] as const);
  await g.add("Cat", "Cosy Knit Scarf", 1);
  await t.app.idle();
  for (const n of ["Ann", "Ben", "Cat"] as const) {
    await g.as[n]("POST", "/api/notifications/read", { all: true });
  }
  const cartUrl = `/api/carts/${g.session.cartId}`;
  const lines = async (n: "Ann" | "Ben" | "Cat") =>
    (await g.as[n]("GET", cartUrl)).json().cart.products as Line[];
  const told = async (n: "Ann" | "Ben" | "Cat") =>
    ((await g.as[n]("GET", "/api/notifications")).json().notifications as { body: string }[])
      .map((x) => x.body)
      .join(" | ");
  const log = async (n: "Ann" | "Ben" | "Cat") =>
    (await g.as[n]("GET", `/api/sessions/${g.session._id}/activity`)).body;
  return { ...g, cartUrl, lines, told, log };
}

describe("adding a line hidden from a member", () => {
  it("never tells her, live or later, while the others hear of it; her figures add up", async () => {
    const g = await trio();
    const cat = await signedIn(base, g.people.Cat.token);
    const ben = await signedIn(base, g.people.Ben.token);
    const watch = g.product(WATCH);

    const res = await g.as.Ann("POST", `${g.cartUrl}/product`, {
      productId: watch._id,
      quantity: 1,
      hiddenFrom: [g.id("Cat")],
    });
    expect(res.statusCode, res.body).toBe(200);
    const line = (res.json().cart.products as Line[]).find((l) => l.productId._id === watch._id)!;
    expect(line.hiddenFrom).toEqual([g.id("Cat")]);
    // Ben adds a free line hidden from Cat too.
    const free = await g.as.Ben("POST", `${g.cartUrl}/free-lines`, {
      name: VOUCHER,
      estimatedPrice: 30,
      hiddenFrom: [g.id("Cat")],
    });
    expect(free.statusCode, free.body).toBe(200);
    const voucher = (free.json().cart.products as Line[]).find(
      (l) => l.productId.name === VOUCHER,
    )!;
    expect(voucher.hiddenFrom).toEqual([g.id("Cat")]);

    // Cat is told the cart changed (its totals did), and nothing that names the lines.
    await within(
      cat.next((m) => m.type === "cart.updated"),
      2000,
    );
    await within(
      ben.next((m) => m.type === "notification.created"),
      2000,
    );
    await t.app.idle();
    await settle();
    const heard = JSON.stringify(cat.messages);
    for (const trace of [watch._id, WATCH, line._id, voucher._id, VOUCHER]) {
      expect(heard).not.toContain(trace);
    }
    expect(cat.messages.some((m) => m.type === "notification.created")).toBe(false);

    // The others heard of both adds (Ann of Ben's, Ben of Ann's).
    expect(await g.told("Ben")).toContain(`Ann added ${WATCH}`);
    expect(await g.told("Ann")).toContain(`Ben added ${VOUCHER}`);
    expect(await g.log("Ben")).toContain(WATCH);
    expect((await g.lines("Ben")).map((l) => l.productId.name)).toEqual(
      expect.arrayContaining([WATCH, VOUCHER]),
    );

    // Cat: no notice, no entry, no line, in any read route a member can call on the session.
    expect(await g.told("Cat")).not.toMatch(/Pulse|voucher/);
    const catLog = await g.log("Cat");
    expect(catLog).not.toContain(WATCH);
    expect(catLog).not.toContain(VOUCHER);
    for (const { key, url } of readRoutes(g.session)) {
      const read = await g.as.Cat("GET", url);
      expect(read.statusCode, `${key}: ${read.body}`).toBeLessThan(500);
      for (const trace of [line._id, voucher._id, VOUCHER]) {
        expect(read.body, key).not.toContain(trace);
      }
    }
    const catCart = (await g.as.Cat("GET", g.cartUrl)).json().cart;
    const annCart = (await g.as.Ann("GET", g.cartUrl)).json().cart;
    expect((catCart.products as Line[]).map((l) => l.productId.name)).toEqual(["Cosy Knit Scarf"]);
    expect(catCart.privateCount).toBe(2);
    expect(catCart.totalPrice).toBe(annCart.totalPrice);
    const summary = (await g.as.Cat("GET", `/api/sessions/${g.session._id}/summary`)).json();
    expect(summary.privateCount).toBe(2);
    expect(summary.cartItems).toHaveLength(1);
    const shares = (summary.split as Share[]).reduce((s, x) => s + cents(x.total), 0);
    expect(shares).toBe(cents(summary.total));
    // Ben sees both lines (none is hidden from him), and not from whom they are hidden.
    const benCart = (await g.as.Ben("GET", g.cartUrl)).json().cart;
    expect(benCart.privateCount).toBe(0);
    expect((benCart.products as Line[]).find((l) => l._id === line._id)!.hiddenFrom).toEqual([]);
    cat.socket.close();
    ben.socket.close();
  });

  it("goes through a batch of writes hidden too (cart_write_batch())", async () => {
    const g = await trio();
    const watch = g.product(WATCH)._id;
    const scarf = g.product("Cosy Knit Scarf")._id;
    const now = new Date().toISOString();
    const call = { cart: g.session.cartId, user: g.id("Ann"), line: null, now };
    const rows = await t.database.rows<{ verdict: string }>(
      sql`select verdict from cart_write_batch(${JSON.stringify([
        { ...call, op: "add", product: watch, quantity: 1, hiddenFrom: [g.id("Cat")] },
        { ...call, op: "add", product: scarf, quantity: 1, hiddenFrom: null },
        { ...call, op: "add", product: watch, quantity: 1, hiddenFrom: [g.id("Ann")] },
      ])}::json, 99)`,
    );
    expect(rows.map((r) => r.verdict)).toEqual(["ok", "ok", "hide_self"]);
    const ann = await g.lines("Ann");
    const mine = ann.filter((l) => l.quantity && l.productId._id === watch);
    expect(mine.map((l) => [l.quantity, l.hiddenFrom])).toEqual([[1, [g.id("Cat")]]]);
    expect((await g.lines("Cat")).some((l) => l.productId._id === watch)).toBe(false);
  });
});

describe("bad members to hide an add from", () => {
  it.each([
    ["the caller", "Ben", "You cannot hide an item from yourself."],
    ["the creator", "Ann", "An item is never hidden from the session's creator."],
    ["a non-member", "Zed", "An item is hidden only from members of the session."],
    ["a member twice", "Cat,Cat", "Each member once"],
  ] as const)("refuses %s with 400 on both add routes, storing nothing", async (_w, who, why) => {
    const g = await trio();
    const zed = await signUp(t, "Zed");
    const ids = who.split(",").map((n) => (n === "Zed" ? zed.userId : g.id(n as "Ann")));
    const before = (await g.as.Ann("GET", g.cartUrl)).json().cart;
    const logBefore = await g.log("Ann");
    const adds = [
      ["product", { productId: g.product(WATCH)._id, quantity: 1 }],
      ["free-lines", { name: VOUCHER }],
    ] as const;
    for (const [route, body] of adds) {
      const res = await g.as.Ben("POST", `${g.cartUrl}/${route}`, { ...body, hiddenFrom: ids });
      expect(res.statusCode, `${route}: ${res.body}`).toBe(400);
      expect(res.json().fields.hiddenFrom, route).toBe(why);
      expect(res.json().message, route).toContain("hiddenFrom");
    }
    const after = (await g.as.Ann("GET", g.cartUrl)).json().cart;
    expect(after.products).toEqual(before.products);
    expect(after.version).toBe(before.version);
    expect(await g.log("Ann")).toBe(logBefore);
  });

  it("refuses a stranger as any add is, and an id that is not one", async () => {
    const g = await trio();
    const zed = await signUp(t, "Zed");
    const asZed = client(t, zed.token);
    const res = await asZed("POST", `${g.cartUrl}/product`, {
      productId: g.product(WATCH)._id,
      hiddenFrom: [g.id("Cat")],
    });
    expect(res.statusCode).toBe(404);
    const bad = await g.as.Ben("POST", `${g.cartUrl}/free-lines`, {
      name: VOUCHER,
      hiddenFrom: ["cat"],
    });
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(bad.json().fields)).toContain("hiddenFrom");
    expect((await g.lines("Ben")).map((l) => l.productId.name)).toEqual(["Cosy Knit Scarf"]);
  });
});

describe("more of a product the caller has on a line", () => {
  it("joins it only when that line is hidden from every member asked", async () => {
    const g = await trio();
    const watch = g.product(WATCH)._id;
    const add = (hiddenFrom?: string[]) =>
      g.as.Ben("POST", `${g.cartUrl}/product`, {
        productId: watch,
        quantity: 1,
        ...(hiddenFrom ? { hiddenFrom } : {}),
      });
    const bens = async () => (await g.lines("Ben")).find((l) => l.productId._id === watch)!;

    expect((await add()).statusCode).toBe(200);
    // A line Cat saw cannot take units hidden from her (nor be hidden by adding to it).
    const apart = await add([g.id("Cat")]);
    expect(apart.statusCode).toBe(409);
    expect(apart.json().message).toBe(HIDDEN_APART_MESSAGE);
    expect(await bens()).toMatchObject({ quantity: 1, hiddenFrom: [] });
    expect((await g.lines("Cat")).some((l) => l.productId._id === watch)).toBe(true);

    const line = await bens();
    const hid = await g.as.Ben("PUT", `${g.cartUrl}/lines/${line._id}/hidden-from`, {
      userIds: [g.id("Cat")],
    });
    expect(hid.statusCode, hid.body).toBe(200);
    // Hidden from Cat: more hidden from Cat joins it, and more without hiddenFrom too (as before).
    expect((await add([g.id("Cat")])).statusCode).toBe(200);
    expect((await add()).statusCode).toBe(200);
    expect(await bens()).toMatchObject({ _id: line._id, quantity: 3, hiddenFrom: [g.id("Cat")] });
    expect((await g.lines("Cat")).some((l) => l.productId._id === watch)).toBe(false);
  });
});

describe("a line hidden from an approver, waiting for approval", () => {
  it("is not put to her: no notice, no live event; she cannot decide it", async () => {
    const g = await trio();
    const settings = await g.as.Ann("PUT", `/api/sessions/${g.session._id}/approvers`, {
      userIds: [g.id("Cat")],
    });
    expect(settings.statusCode, settings.body).toBe(200);
    const budget = await g.as.Ann(
      "PATCH",
      `/api/sessions/${g.session._id}/members/${g.id("Ben")}`,
      { budget: 1, budgetMode: "ask" },
    );
    expect(budget.statusCode, budget.body).toBe(200);
    const cat = await signedIn(base, g.people.Cat.token);
    const res = await g.as.Ben("POST", `${g.cartUrl}/product`, {
      productId: g.product(WATCH)._id,
      hiddenFrom: [g.id("Cat")],
    });
    expect(res.statusCode, res.body).toBe(200);
    const line = (
      res.json().cart.products as (Line & { pending: { requestedAt: string } | null })[]
    ).find((l) => l.productId.name === WATCH)!;
    expect(line.pending).toMatchObject({ requestedAt: expect.any(String) });
    await t.app.idle();
    await settle();
    expect(cat.messages.some((m) => m.type === "line.pending")).toBe(false);
    expect(JSON.stringify(cat.messages)).not.toContain(line._id);
    expect(await g.told("Cat")).not.toContain(WATCH);
    expect(await g.told("Ann")).toContain(`Ben asks to add ${WATCH}`);
    const decide = await g.as.Cat("POST", `${g.cartUrl}/lines/${line._id}/approve`);
    expect(decide.statusCode).toBe(404);
    // Ann approves; the entry of it is hidden from Cat as the line is.
    const approved = await g.as.Ann("POST", `${g.cartUrl}/lines/${line._id}/approve`);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(await g.log("Ann")).toContain("item.approved");
    expect(await g.log("Cat")).not.toContain(WATCH);
    cat.socket.close();
  });
});

describe("the OpenAPI document", () => {
  it("shows hiddenFrom on both adds' request bodies", async () => {
    const doc = (await t.app.inject({ method: "GET", url: "/api/docs/json" })).json();
    for (const path of ["/api/carts/{cartId}/product", "/api/carts/{cartId}/free-lines"]) {
      const body = doc.paths[path].post.requestBody.content["application/json"].schema;
      expect(body.properties.hiddenFrom, path).toMatchObject({
        type: "array",
        items: { type: "string", format: "uuid" },
      });
      expect(body.required ?? [], path).not.toContain("hiddenFrom");
    }
  });
});
