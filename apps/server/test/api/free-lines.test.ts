/**
 * Free lines (something the catalog does not have, by name) and every line's note and substitute,
 * through the API on PGlite and PostgreSQL: added, shared, checked out at the estimate, priced by
 * the payee on the order, and every share adds up to the cent against the total and the book;
 * bad input is 400 naming the field with nothing stored; the permissions table decides who may.
 */
import type { Cart, CartLine, Order } from "@cartner/contract";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { desc, eq } from "drizzle-orm";
import { TestClock } from "pg-boss";
import { devMails } from "../../src/db/schema.ts";
import { cents, createTestApp, sum, type TestApp } from "../helpers.ts";
import { pdfText } from "../pdf-text.ts";
import { readEntries } from "../ledger-model/verify.ts";
import { threeWayCart } from "../payers-support.ts";

let t: TestApp;
let clock: TestClock;
beforeAll(async () => {
  clock = new TestClock(Date.now());
  t = await createTestApp({ queueClock: clock });
});
afterAll(async () => t.close());

const candles = (cart: Cart) => cart.products.find((l) => l.productId.name === "Birthday candles");

/** The cart's lines and its shares' subtotals add up to its total to the cent. */
function expectCartExact(cart: Cart) {
  expect(sum(cart.products.map((l) => cents(l.lineTotal)))).toBe(cents(cart.totalPrice));
  expect(sum(cart.split.map((s) => cents(s.subtotal)))).toBe(cents(cart.totalPrice));
}

/** The order's shares add up to its figures, and the book says each member owes the payee that. */
async function expectOrderExact(order: Order, token: string) {
  for (const key of ["subtotal", "fees", "tax", "total"] as const) {
    expect(sum(order.split.map((s) => cents(s[key]))), key).toBe(cents(order[key]));
  }
  const { status, entries } = await readEntries(t, token, order._id);
  expect(status).toBe(200);
  const payee = order.payee._id;
  for (const share of order.split.filter((s) => s.userId !== payee)) {
    const owed = sum(
      entries.map((e) =>
        e.from._id === share.userId && e.to._id === payee
          ? cents(e.amount)
          : e.from._id === payee && e.to._id === share.userId
            ? -cents(e.amount)
            : 0,
      ),
    );
    expect(owed, share.name).toBe(cents(share.total));
  }
}

describe("POST /api/carts/:cartId/free-lines", () => {
  it("adds one by name, shares it, checks out at the estimate, the payee prices it: every share adds up to the cent", async () => {
    const f = await threeWayCart(t);
    const before = (await f.as.creator("GET", `/api/carts/${f.cartId}`)).json().cart as Cart;
    const added = await f.as.participant("POST", `/api/carts/${f.cartId}/free-lines`, {
      name: "Birthday candles",
      quantity: 3,
      estimatedPrice: 1.99,
      note: "blue ones",
    });
    expect(added.statusCode, added.body).toBe(200);
    let cart = added.json().cart as Cart;
    const line = candles(cart)!;
    expect(line).toMatchObject({
      free: true,
      estimated: true,
      note: "blue ones",
      substitute: "any",
      quantity: 3,
      lineTotal: 5.97,
      productId: { _id: null, name: "Birthday candles", price: 1.99 },
      addedBy: { name: "Ben" },
    });
    expect(line.productId.imageUrl).toMatch(/\/free-line\.svg$/);
    expect(cents(cart.totalPrice)).toBe(cents(before.totalPrice) + 597);
    expectCartExact(cart);

    // Shared by Ann and Cat in equal parts; Ben asks for something similar if there are none.
    const shared = await f.as.participant(
      "PUT",
      `/api/carts/${f.cartId}/lines/${line._id}/shared-with`,
      { userIds: [f.ids.ann, f.ids.cat] },
    );
    expect(shared.statusCode, shared.body).toBe(200);
    const patched = await f.as.participant("PATCH", `/api/carts/${f.cartId}/lines/${line._id}`, {
      substitute: "similar",
    });
    expect(patched.statusCode, patched.body).toBe(200);
    cart = patched.json().cart as Cart;
    expect(candles(cart)).toMatchObject({ substitute: "similar", note: "blue ones" });
    expect(candles(cart)!.sharedWith.map((p) => p.name)).toEqual(["Ann", "Cat"]);
    expectCartExact(cart);

    // The activity log lists it like any line, by name.
    const log = (await f.as.creator("GET", `/api/sessions/${f.sessionId}/activity`)).json().events;
    expect(log).toContainEqual(
      expect.objectContaining({ type: "item.added", productId: null, product: "Birthday candles" }),
    );
    expect(log).toContainEqual(
      expect.objectContaining({ type: "item.edited", fields: ["substitute"], lineOf: "Ben" }),
    );

    const placed = await f.as.creator("POST", `/api/sessions/${f.sessionId}/checkout`);
    expect(placed.statusCode, placed.body).toBe(201);
    let order = placed.json().order as Order;
    const index = order.lines.findIndex((l) => l.name === "Birthday candles");
    expect(order.lines[index]).toMatchObject({
      productId: null,
      free: true,
      estimated: true,
      unitPrice: 1.99,
      lineTotal: 5.97,
      note: "blue ones",
      substitute: "similar",
    });
    expect(cents(order.subtotal)).toBe(cents(cart.totalPrice));
    await expectOrderExact(order, f.people.creator.token);
    // Ben's checkout mail names the line still at an estimate.
    await t.app.idle();
    const [mail] = await t.database.db
      .select()
      .from(devMails)
      .where(eq(devMails.recipient, f.people.participant.email))
      .orderBy(desc(devMails.createdAt))
      .limit(1);
    expect(mail?.text).toContain("At an estimated price until Ann prices them: Birthday candles.");

    // At the shop they were 2.49 each: the payee prices the line, the order re-splits.
    const annBefore = order.split.find((s) => s.name === "Ann")!;
    const catBefore = order.split.find((s) => s.name === "Cat")!;
    const priced = await f.as.creator("POST", `/api/orders/${order._id}/adjustments`, {
      kind: "price",
      lineIndex: index,
      unitPrice: 2.49,
    });
    expect(priced.statusCode, priced.body).toBe(201);
    order = priced.json().order as Order;
    expect(order.lines[index]).toMatchObject({ estimated: false, adjusted: { lineTotal: 7.47 } });
    // 1.50 more, shared by Ann and Cat: 0.75 each before fees and tax, to within the one cent
    // each share's rounding may move; Ben's share does not move.
    const moved = (name: string, before: Order["split"][number]) =>
      cents(order.split.find((s) => s.name === name)!.subtotal) - cents(before.subtotal);
    const benBefore = placed.json().order.split.find((s: { name: string }) => s.name === "Ben");
    expect(moved("Ann", annBefore) + moved("Cat", catBefore)).toBe(150);
    expect(Math.abs(moved("Ann", annBefore) - 75)).toBeLessThanOrEqual(1);
    expect(moved("Ben", benBefore)).toBe(0);
    await expectOrderExact(order, f.people.creator.token);

    // The receipt's text and the CSV name the line, its note and its substitute.
    const csv = await f.as.creator("GET", `/api/orders/${order._id}/export.csv`);
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain("Birthday candles");
    expect(csv.body).toContain("Note: blue ones; Something similar if it is not there");
    const pdf = await f.as.participant("GET", `/api/orders/${order._id}/receipt.pdf`);
    expect(pdf.statusCode).toBe(200);
    const text = (await pdfText(new Uint8Array(pdf.rawPayload))).replace(/\s+/g, " ");
    expect(text).toContain("Birthday candles");
    expect(text).toContain("Note: blue ones · Something similar if it is not there");
  });

  it("a free line is removed and put back as it was, and is never merged with another", async () => {
    const f = await threeWayCart(t);
    const add = () =>
      f.as.participant("POST", `/api/carts/${f.cartId}/free-lines`, {
        name: "Birthday candles",
        note: "any colour",
      });
    expect((await add()).statusCode).toBe(200);
    const twice = (await add()).json().cart as Cart;
    const free = twice.products.filter((l) => l.free);
    expect(free).toHaveLength(2);
    expect(free[0]).toMatchObject({ estimated: true, lineTotal: 0, quantity: 1 });
    const lineId = free[0]!._id;
    // Stepped and removed by its line id (a free line has no product).
    const step = await f.as.participant("PATCH", `/api/carts/${f.cartId}/quantity`, {
      productId: lineId,
      lineId,
      change: 1,
    });
    expect(step.statusCode, step.body).toBe(200);
    const gone = await f.as.participant(
      "DELETE",
      `/api/carts/${f.cartId}/product/${lineId}?lineId=${lineId}`,
    );
    expect(gone.statusCode, gone.body).toBe(200);
    expect((gone.json().cart as Cart).products.filter((l) => l.free)).toHaveLength(1);
    const back = await f.as.participant("POST", `/api/carts/${f.cartId}/lines/${lineId}/restore`);
    expect(back.statusCode, back.body).toBe(200);
    const restored = (back.json().cart as Cart).products.find((l) => l._id === lineId);
    expect(restored).toMatchObject({ free: true, quantity: 2, note: "any colour" });
  });

  it("bad input is 400 naming the field, and nothing is stored", async () => {
    const f = await threeWayCart(t);
    const url = `/api/carts/${f.cartId}/free-lines`;
    const cases: [Record<string, unknown>, string][] = [
      [{ quantity: 1 }, "name"],
      [{ name: "" }, "name"],
      [{ name: "x".repeat(121) }, "name"],
      [{ name: "Candles", note: "x".repeat(201) }, "note"],
      [{ name: "Candles", estimatedPrice: -1 }, "estimatedPrice"],
    ];
    for (const [body, field] of cases) {
      const res = await f.as.participant("POST", url, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.keys(res.json().fields ?? {}), JSON.stringify(body)).toContain(field);
    }
    const cart = (await f.as.creator("GET", `/api/carts/${f.cartId}`)).json().cart as Cart;
    expect(cart.products.some((l) => l.free)).toBe(false);

    const line = cart.products[0]!;
    const patchUrl = `/api/carts/${f.cartId}/lines/${line._id}`;
    const bad: [Record<string, unknown>, string][] = [
      [{ substitute: "maybe" }, "substitute"],
      [{ note: "x".repeat(201) }, "note"],
      // A catalog line has its product's name and price.
      [{ name: "Something else" }, "name"],
      [{ estimatedPrice: 2 }, "estimatedPrice"],
    ];
    for (const [body, field] of bad) {
      const res = await f.as.creator("PATCH", patchUrl, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.keys(res.json().fields ?? {}), JSON.stringify(body)).toContain(field);
    }
    const after = (await f.as.creator("GET", `/api/carts/${f.cartId}`)).json().cart as Cart;
    expect(after.version).toBe(cart.version);
    expect(after.products[0]).toMatchObject({ note: null, substitute: "any" });
  });

  it("a viewer is refused (403), a stranger and a pending member do not find the cart (404)", async () => {
    const f = await threeWayCart(t);
    const body = { name: "Birthday candles" };
    const url = `/api/carts/${f.cartId}/free-lines`;
    expect((await f.as.viewer("POST", url, body)).statusCode).toBe(403);
    expect((await f.as.stranger("POST", url, body)).statusCode).toBe(404);
    expect((await f.as.pending("POST", url, body)).statusCode).toBe(404);
    const cart = (await f.as.creator("GET", `/api/carts/${f.cartId}`)).json().cart as Cart;
    expect(cart.products.some((l) => l.free)).toBe(false);
  });
});

describe("PATCH /api/carts/:cartId/lines/:lineId", () => {
  it("the line's adder and the creator set its note; another participant, a viewer, a stranger may not", async () => {
    const f = await threeWayCart(t);
    const cart = (await f.as.creator("GET", `/api/carts/${f.cartId}`)).json().cart as Cart;
    const benLine = cart.products.find((l) => l.addedBy.name === "Ben")! as CartLine;
    const url = `/api/carts/${f.cartId}/lines/${benLine._id}`;
    const own = await f.as.participant("PATCH", url, { note: "ripe ones" });
    expect(own.statusCode, own.body).toBe(200);
    const byCreator = await f.as.creator("PATCH", url, { substitute: "none" });
    expect(byCreator.statusCode, byCreator.body).toBe(200);
    expect(
      (byCreator.json().cart as Cart).products.find((l) => l._id === benLine._id),
    ).toMatchObject({ note: "ripe ones", substitute: "none" });
    expect((await f.asCat("PATCH", url, { note: "green" })).statusCode).toBe(403);
    expect((await f.as.viewer("PATCH", url, { note: "green" })).statusCode).toBe(403);
    expect((await f.as.stranger("PATCH", url, { note: "green" })).statusCode).toBe(404);
    const after = (await f.as.creator("GET", `/api/carts/${f.cartId}`)).json().cart as Cart;
    expect(after.products.find((l) => l._id === benLine._id)!.note).toBe("ripe ones");

    // An empty note takes it away; a free line's name and estimate change too.
    expect(
      (await f.as.participant("PATCH", url, { note: "" })).json().cart.products,
    ).toContainEqual(expect.objectContaining({ _id: benLine._id, note: null }));
    const added = await f.as.participant("POST", `/api/carts/${f.cartId}/free-lines`, {
      name: "Bread from the market",
    });
    const free = (added.json().cart as Cart).products.find((l) => l.free)!;
    const renamed = await f.as.participant("PATCH", `/api/carts/${f.cartId}/lines/${free._id}`, {
      name: "The good bread",
      estimatedPrice: 4.5,
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect((renamed.json().cart as Cart).products.find((l) => l._id === free._id)).toMatchObject({
      productId: { _id: null, name: "The good bread", price: 4.5 },
      lineTotal: 4.5,
    });
  });
});

describe("a free line like any line", () => {
  it("is closed by the deadline: adding one or changing its note is refused, nothing stored", async () => {
    const f = await threeWayCart(t);
    const added = await f.as.participant("POST", `/api/carts/${f.cartId}/free-lines`, {
      name: "Birthday candles",
    });
    const line = (added.json().cart as Cart).products.find((l) => l.free)!;
    const closesAt = clock.now() + 60_000;
    const set = await f.as.creator("PUT", `/api/sessions/${f.sessionId}/deadline`, {
      closesAt: new Date(closesAt).toISOString(),
      remindAt: [],
    });
    expect(set.statusCode, set.body).toBe(200);
    await clock.setTime(closesAt);
    const more = await f.as.participant("POST", `/api/carts/${f.cartId}/free-lines`, {
      name: "Napkins",
    });
    expect(more.statusCode).toBe(409);
    expect(more.json().code).toBe("CART_LOCKED");
    const note = await f.as.participant("PATCH", `/api/carts/${f.cartId}/lines/${line._id}`, {
      note: "late",
    });
    expect(note.statusCode).toBe(409);
    expect(note.json().code).toBe("CART_LOCKED");
    const cart = (await f.as.creator("GET", `/api/carts/${f.cartId}`)).json().cart as Cart;
    expect(cart.products.filter((l) => l.free).map((l) => [l.productId.name, l.note])).toEqual([
      ["Birthday candles", null],
    ]);
  });

  it("is carried into a series' next session as a staple, with its name, estimate and note", async () => {
    const f = await threeWayCart(t);
    const added = await f.as.participant("POST", `/api/carts/${f.cartId}/free-lines`, {
      name: "The good bread",
      quantity: 2,
      estimatedPrice: 4.5,
      note: "sliced",
    });
    const line = (added.json().cart as Cart).products.find((l) => l.free)!;
    const staple = await f.as.participant(
      "PUT",
      `/api/carts/${f.cartId}/lines/${line._id}/staple`,
      { staple: true },
    );
    expect(staple.statusCode, staple.body).toBe(200);
    const series = await f.as.creator("PUT", `/api/sessions/${f.sessionId}/series`, {
      rule: "FREQ=WEEKLY;INTERVAL=1;BYDAY=FR;BYHOUR=18;BYMINUTE=0",
      timeZone: "Europe/Paris",
    });
    expect(series.statusCode, series.body).toBe(200);
    const placed = await f.as.creator("POST", `/api/sessions/${f.sessionId}/checkout`);
    expect(placed.statusCode, placed.body).toBe(201);
    const nextId = await vi.waitUntil(
      async () => {
        await clock.tick(1_000);
        const s = await f.as.creator("GET", `/api/sessions/${f.sessionId}`);
        return (s.json().session.nextSessionId as string | null) ?? false;
      },
      { timeout: 20_000, interval: 100 },
    );
    const next = await f.as.participant("GET", `/api/sessions/${nextId}/cart`);
    expect(next.statusCode, next.body).toBe(200);
    expect((next.json().cart as Cart).products).toEqual([
      expect.objectContaining({
        free: true,
        estimated: true,
        staple: true,
        quantity: 2,
        note: "sliced",
        productId: expect.objectContaining({ _id: null, name: "The good bread", price: 4.5 }),
        addedBy: expect.objectContaining({ name: "Ben" }),
      }),
    ]);
  });
});
