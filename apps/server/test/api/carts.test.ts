import { RESTORE_WINDOW_SECONDS, type Product } from "@cartner/contract";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { products } from "../../src/db/schema.ts";
import { createTestApp, sessionWithEveryRole, type TestApp } from "../helpers.ts";

let t: TestApp;
let catalog: Product[];
beforeAll(async () => {
  t = await createTestApp();
  const f = await sessionWithEveryRole(t);
  catalog = (await f.as.creator("GET", "/api/products?sort=price_asc")).json().products;
});
afterAll(async () => t.close());

const inStock = (min: number) => catalog.find((p) => p.stock >= min && p.price >= 1)!;

describe("adding and changing lines", () => {
  it("adds to your own line; the same product again adds to it; each member has their own line", async () => {
    const f = await sessionWithEveryRole(t);
    const p = inStock(10);
    const first = await f.as.participant("POST", `/api/carts/${f.cartId}/product`, {
      productId: p._id,
    });
    expect(first.statusCode).toBe(200);
    expect(first.json().message).toBe("Added to cart");
    await f.as.participant("POST", `/api/carts/${f.cartId}/product`, {
      productId: p._id,
      quantity: 2,
    });
    const cart = (
      await f.as.creator("POST", `/api/carts/${f.cartId}/product`, { productId: p._id })
    ).json().cart;
    expect(cart.products).toHaveLength(2);
    const ben = cart.products.find((l: { addedBy: { name: string } }) => l.addedBy.name === "Ben");
    expect(ben).toMatchObject({
      quantity: 3,
      productId: { _id: p._id, name: p.name, price: p.price },
      lineTotal: Math.round(p.price * 300) / 100,
    });
    expect(cart.itemCount).toBe(4);
    expect(cart.totalPrice).toBe(Math.round(p.price * 400) / 100);
    expect(cart.sessionId).toMatchObject({
      _id: f.sessionId,
      sessionName: "Weekend groceries",
      status: "active",
      creator: { name: "Ann" },
    });
    const session = (await f.as.viewer("GET", `/api/sessions/${f.sessionId}`)).json().session;
    expect(session.cart).toEqual({ _id: f.cartId, totalPrice: cart.totalPrice, itemCount: 4 });
  });

  it("50 concurrent +1s on one line give exactly +50", async () => {
    const f = await sessionWithEveryRole(t);
    const p = inStock(60);
    await f.as.participant("POST", `/api/carts/${f.cartId}/product`, { productId: p._id });
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        f.as.participant("PATCH", `/api/carts/${f.cartId}/quantity`, {
          productId: p._id,
          change: 1,
        }),
      ),
    );
    expect(answers.every((a) => a.statusCode === 200)).toBe(true);
    const cart = (await f.as.participant("GET", `/api/carts/${f.cartId}`)).json().cart;
    expect(cart.products[0].quantity).toBe(51);
  });

  it("parallel adds of one product by two members make two lines with the right counts", async () => {
    const f = await sessionWithEveryRole(t);
    const p = inStock(40);
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        (i % 2 ? f.as.creator : f.as.participant)("POST", `/api/carts/${f.cartId}/product`, {
          productId: p._id,
        }),
      ),
    );
    const cart = (await f.as.creator("GET", `/api/carts/${f.cartId}`)).json().cart;
    expect(cart.products.map((l: { quantity: number }) => l.quantity)).toEqual([5, 5]);
  });

  it("minus at 1 does nothing; a line holds at most 99", async () => {
    const f = await sessionWithEveryRole(t);
    const p = catalog.find((x) => x.stock >= 100)!;
    const added = await f.as.participant("POST", `/api/carts/${f.cartId}/product`, {
      productId: p._id,
    });
    const minus = await f.as.participant("PATCH", `/api/carts/${f.cartId}/quantity`, {
      productId: p._id,
      change: -1,
    });
    expect(minus.statusCode).toBe(200);
    expect(minus.json().cart.products[0].quantity).toBe(1);
    // Nothing changed, so there is no new version for the other members to fetch.
    expect(minus.json().cart.version).toBe(added.json().cart.version);
    await f.as.participant("POST", `/api/carts/${f.cartId}/product`, {
      productId: p._id,
      quantity: 98,
    });
    const over = await f.as.participant("PATCH", `/api/carts/${f.cartId}/quantity`, {
      productId: p._id,
      change: 1,
    });
    expect(over.statusCode).toBe(409);
    expect(
      (await f.as.participant("POST", `/api/carts/${f.cartId}/product`, { productId: p._id }))
        .statusCode,
    ).toBe(409);
  });

  it("respects the stock across the cart's lines", async () => {
    const f = await sessionWithEveryRole(t);
    const p = catalog.find((x) => x.stock > 0 && x.stock < 20)!;
    await f.as.creator("POST", `/api/carts/${f.cartId}/product`, {
      productId: p._id,
      quantity: p.stock - 1,
    });
    expect(
      (await f.as.participant("POST", `/api/carts/${f.cartId}/product`, { productId: p._id }))
        .statusCode,
    ).toBe(200);
    const refused = await f.as.participant("PATCH", `/api/carts/${f.cartId}/quantity`, {
      productId: p._id,
      change: 1,
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(/in stock/);
    const soldOut = catalog.find((x) => x.stock === 0)!;
    const none = await f.as.creator("POST", `/api/carts/${f.cartId}/product`, {
      productId: soldOut._id,
    });
    expect(none.statusCode).toBe(409);
    expect(none.json().message).toBe("This product is out of stock.");
  });

  it("lets the creator change and remove anyone's line, and nobody else", async () => {
    const f = await sessionWithEveryRole(t);
    const p = inStock(10);
    const creatorLine = (
      await f.as.creator("POST", `/api/carts/${f.cartId}/product`, { productId: p._id })
    ).json().cart.products[0]._id;
    const benCart = (
      await f.as.participant("POST", `/api/carts/${f.cartId}/product`, { productId: p._id })
    ).json().cart;
    const benLine = benCart.products.find(
      (l: { addedBy: { name: string } }) => l.addedBy.name === "Ben",
    )._id;

    const byBen = await f.as.participant("PATCH", `/api/carts/${f.cartId}/quantity`, {
      productId: p._id,
      change: 1,
      lineId: creatorLine,
    });
    expect(byBen.statusCode).toBe(403);
    expect(
      (
        await f.as.participant(
          "DELETE",
          `/api/carts/${f.cartId}/product/${p._id}?lineId=${creatorLine}`,
        )
      ).statusCode,
    ).toBe(403);

    const byAnn = await f.as.creator("PATCH", `/api/carts/${f.cartId}/quantity`, {
      productId: p._id,
      change: 1,
      lineId: benLine,
    });
    expect(byAnn.statusCode).toBe(200);
    expect(
      byAnn.json().cart.products.find((l: { _id: string }) => l._id === benLine).quantity,
    ).toBe(2);
    const removed = await f.as.creator(
      "DELETE",
      `/api/carts/${f.cartId}/product/${p._id}?lineId=${benLine}`,
    );
    expect(removed.json().cart.products.map((l: { _id: string }) => l._id)).toEqual([creatorLine]);
    expect(
      (await f.as.participant("DELETE", `/api/carts/${f.cartId}/product/${p._id}`)).statusCode,
    ).toBe(404);
  });

  it.each([
    [{ productId: "x" }, "productId"],
    [{ quantity: 0 }, "quantity"],
    [{ quantity: 100 }, "quantity"],
    [{ quantity: 1.5 }, "quantity"],
    [{ quantity: "2" }, "quantity"],
    [{ price: 0 }, "price"],
  ])("refuses bad add input %#", async (patch, field) => {
    const f = await sessionWithEveryRole(t);
    const res = await f.as.creator("POST", `/api/carts/${f.cartId}/product`, {
      productId: inStock(1)._id,
      ...patch,
    });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().fields)).toContain(field);
  });

  it("refuses a change other than +1 or -1 and an unknown product", async () => {
    const f = await sessionWithEveryRole(t);
    const p = inStock(5);
    expect(
      (
        await f.as.creator("PATCH", `/api/carts/${f.cartId}/quantity`, {
          productId: p._id,
          change: 2,
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (
        await f.as.creator("POST", `/api/carts/${f.cartId}/product`, {
          productId: "00000000-0000-4000-8000-000000000000",
        })
      ).statusCode,
    ).toBe(404);
  });
});

describe("undoing a removal", () => {
  type Line = {
    _id: string;
    addedBy: { _id: string };
    addedAt: string;
    quantity: number;
    sharedWith: { _id: string }[];
  };

  it("puts the line back as it was (adder, quantity, sharers, split) for its remover only", async () => {
    const f = await sessionWithEveryRole(t);
    const p = inStock(10);
    await f.as.creator("POST", `/api/carts/${f.cartId}/product`, { productId: inStock(5)._id });
    const added = await f.as.participant("POST", `/api/carts/${f.cartId}/product`, {
      productId: p._id,
      quantity: 3,
    });
    const benLine = (added.json().cart.products as Line[]).find(
      (l) => l.addedBy._id === f.people.participant.userId,
    )!;
    const shared = await f.as.participant(
      "PUT",
      `/api/carts/${f.cartId}/lines/${benLine._id}/shared-with`,
      { userIds: [f.people.participant.userId, f.people.creator.userId] },
    );
    const before = shared.json().cart;
    const line = before.products.find((l: Line) => l._id === benLine._id);

    const removed = await f.as.creator(
      "DELETE",
      `/api/carts/${f.cartId}/product/${p._id}?lineId=${benLine._id}`,
    );
    expect(removed.statusCode).toBe(200);
    const restore = `/api/carts/${f.cartId}/lines/${benLine._id}/restore`;
    // Nobody but the member who removed it puts it back: strangers and pending requesters do
    // not see the cart, viewers do not change it, and Ben did not remove it.
    expect((await f.as.stranger("POST", restore)).statusCode).toBe(404);
    expect((await f.as.pending("POST", restore)).statusCode).toBe(404);
    const viewer = await f.as.viewer("POST", restore);
    expect(viewer.statusCode).toBe(403);
    expect(viewer.json().message).toBe("Viewers can see the cart but not change it.");
    const ben = await f.as.participant("POST", restore);
    expect(ben.statusCode).toBe(409);
    expect(ben.json().message).toBe("That removal can no longer be undone.");

    const back = await f.as.creator("POST", restore);
    expect(back.statusCode, back.body).toBe(200);
    const cart = back.json().cart;
    // Still Ben's line, shared as before: the split is exactly what it was.
    expect(cart.products).toEqual(before.products);
    expect(cart.products.find((l: Line) => l._id === benLine._id)).toEqual(line);
    expect(cart.split).toEqual(before.split);
    expect(cart.totalPrice).toBe(before.totalPrice);
    // Once only.
    expect((await f.as.creator("POST", restore)).statusCode).toBe(409);
    const activity = (
      await f.as.participant("GET", `/api/sessions/${f.sessionId}/activity`)
    ).json();
    expect(activity.events.at(-1)).toMatchObject({
      type: "item.restored",
      actor: { name: "Ann" },
      product: p.name,
      quantity: 3,
      lineOf: "Ben",
    });
  });

  it("refuses after the window, and when the adder has that product on a line again", async () => {
    const f = await sessionWithEveryRole(t);
    const p = inStock(10);
    const added = await f.as.participant("POST", `/api/carts/${f.cartId}/product`, {
      productId: p._id,
    });
    const lineId = added.json().cart.products[0]._id as string;
    const remove = `/api/carts/${f.cartId}/product/${p._id}?lineId=${lineId}`;
    const restore = `/api/carts/${f.cartId}/lines/${lineId}/restore`;

    expect((await f.as.participant("DELETE", remove)).statusCode).toBe(200);
    t.clock.advance((RESTORE_WINDOW_SECONDS + 1) * 1000);
    const late = await f.as.participant("POST", restore);
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe("That removal can no longer be undone.");

    await f.as.participant("POST", `/api/carts/${f.cartId}/product`, { productId: p._id });
    const again = (await f.as.participant("GET", `/api/carts/${f.cartId}`)).json().cart;
    const newLine = again.products[0]._id as string;
    await f.as.participant("DELETE", `/api/carts/${f.cartId}/product/${p._id}?lineId=${newLine}`);
    await f.as.participant("POST", `/api/carts/${f.cartId}/product`, { productId: p._id });
    const exists = await f.as.participant(
      "POST",
      `/api/carts/${f.cartId}/lines/${newLine}/restore`,
    );
    expect(exists.statusCode).toBe(409);
    expect(exists.json().message).toMatch(/in the cart again/);
    expect(
      (await f.as.participant("GET", `/api/carts/${f.cartId}`)).json().cart.products,
    ).toHaveLength(1);
  });

  it("refuses once the session has ended", async () => {
    const f = await sessionWithEveryRole(t);
    const p = inStock(10);
    const added = await f.as.creator("POST", `/api/carts/${f.cartId}/product`, {
      productId: p._id,
    });
    const lineId = added.json().cart.products[0]._id as string;
    await f.as.creator("DELETE", `/api/carts/${f.cartId}/product/${p._id}?lineId=${lineId}`);
    await f.as.creator("PUT", `/api/sessions/${f.sessionId}/end`);
    const ended = await f.as.creator("POST", `/api/carts/${f.cartId}/lines/${lineId}/restore`);
    expect(ended.statusCode).toBe(409);
    expect(ended.json().message).toBe("This session has ended; its cart is read-only.");
  });
});

describe("the cart's live split", () => {
  it("gives every paying member a running total that adds up to the summary's total", async () => {
    const f = await sessionWithEveryRole(t);
    const p = catalog.find((x) => x.price === 4.99)!;
    const added = await f.as.participant("POST", `/api/carts/${f.cartId}/product`, {
      productId: p._id,
      quantity: 3,
    });
    const cart = added.json().cart;
    const summary = (await f.as.viewer("GET", `/api/sessions/${f.sessionId}/summary`)).json();
    // Creator and participant (at zero until they carry something); never the viewer.
    expect(cart.split.map((s: { name: string }) => s.name).sort()).toEqual(["Ann", "Ben"]);
    const cents = (xs: number[]) => xs.reduce((sum, x) => sum + Math.round(x * 100), 0);
    expect(cents(cart.split.map((s: { total: number }) => s.total))).toBe(cents([summary.total]));
    expect(cart.split.find((s: { name: string }) => s.name === "Ann")).toMatchObject({
      total: 0,
      budget: null,
      overBudget: false,
    });
  });
});

describe("reads after writes", () => {
  it("a member sees another member's change on the very next read", async () => {
    const f = await sessionWithEveryRole(t);
    const p = inStock(5);
    const urls = [
      `/api/carts/${f.cartId}`,
      `/api/sessions/${f.sessionId}/cart`,
      `/api/sessions/${f.sessionId}/summary`,
      `/api/sessions/${f.sessionId}`,
      "/api/carts",
      "/api/sessions/sync",
    ];
    const before = await Promise.all(urls.map((u) => f.as.viewer("GET", u).then((r) => r.body)));
    await f.as.participant("POST", `/api/carts/${f.cartId}/product`, { productId: p._id });
    const after = await Promise.all(urls.map((u) => f.as.viewer("GET", u).then((r) => r.body)));
    urls.forEach((url, i) => expect(after[i], url).not.toBe(before[i]));
    expect(JSON.parse(after[0]!).cart.itemCount).toBe(1);
  });
});

describe("clear, delete, history and frozen prices", () => {
  it("clear empties the cart", async () => {
    const f = await sessionWithEveryRole(t);
    await f.as.participant("POST", `/api/carts/${f.cartId}/product`, { productId: inStock(5)._id });
    const res = await f.as.creator("DELETE", `/api/carts/${f.cartId}/clear`);
    expect(res.json()).toMatchObject({
      message: "Cart cleared",
      cart: { products: [], totalPrice: 0, itemCount: 0 },
    });
  });

  it("ending freezes prices; the cart is read-only history for every member", async () => {
    const f = await sessionWithEveryRole(t);
    const p = inStock(5);
    await f.as.participant("POST", `/api/carts/${f.cartId}/product`, {
      productId: p._id,
      quantity: 2,
    });
    expect(
      (await f.as.participant("GET", "/api/carts")).json().carts.map((c: { _id: string }) => c._id),
    ).toContain(f.cartId);

    const del = await f.as.creator("DELETE", `/api/carts/${f.cartId}`);
    expect(del.statusCode).toBe(200);
    await t.database.db.update(products).set({ priceCents: 1 }).where(eq(products.id, p._id));

    const history = (await f.as.viewer("GET", "/api/carts/history")).json().carts;
    const ended = history.find((c: { _id: string }) => c._id === f.cartId);
    expect(ended).toMatchObject({
      status: "completed",
      itemCount: 2,
      totalPrice: Math.round(p.price * 200) / 100,
    });
    expect(ended.products[0].productId.price).toBe(p.price);
    expect(
      (await f.as.participant("GET", "/api/carts")).json().carts.map((c: { _id: string }) => c._id),
    ).not.toContain(f.cartId);
    for (const [method, url, body] of [
      ["POST", `/api/carts/${f.cartId}/product`, { productId: p._id }],
      ["PATCH", `/api/carts/${f.cartId}/quantity`, { productId: p._id, change: 1 }],
      ["DELETE", `/api/carts/${f.cartId}/clear`, undefined],
    ] as const) {
      expect((await f.as.creator(method, url, body)).statusCode).toBe(409);
    }
    // Put the price back for the other tests.
    await t.database.db
      .update(products)
      .set({ priceCents: Math.round(p.price * 100) })
      .where(eq(products.id, p._id));
  });
});

describe("refusals and races", () => {
  it("answers each refusal with its own message and changes nothing", async () => {
    const f = await sessionWithEveryRole(t);
    const p = inStock(10);
    const roomy = catalog.find((x) => x.stock >= 100)!;
    await f.as.creator("POST", `/api/carts/${f.cartId}/product`, { productId: p._id });
    await f.as.participant("POST", `/api/carts/${f.cartId}/product`, { productId: roomy._id });
    const before = (await f.as.creator("GET", `/api/carts/${f.cartId}`)).json().cart;
    const annLine = before.products.find(
      (l: { addedBy: { name: string } }) => l.addedBy.name === "Ann",
    )._id as string;
    const cart = `/api/carts/${f.cartId}`;
    const notInCart = inStock(1) === p ? catalog.find((x) => x !== p && x !== roomy)! : inStock(1);
    const cases = [
      [
        f.as.viewer,
        "POST",
        `${cart}/product`,
        { productId: p._id },
        403,
        "Viewers can see the cart but not change it.",
      ],
      [
        f.as.viewer,
        "PATCH",
        `${cart}/quantity`,
        { productId: p._id, change: 1, lineId: annLine },
        403,
        "Viewers can see the cart but not change it.",
      ],
      [f.as.stranger, "POST", `${cart}/product`, { productId: p._id }, 404, "Cart not found"],
      [
        f.as.pending,
        "PATCH",
        `${cart}/quantity`,
        { productId: p._id, change: 1 },
        404,
        "Cart not found",
      ],
      [
        f.as.participant,
        "DELETE",
        `${cart}/clear`,
        undefined,
        403,
        "Only the session's creator can do that.",
      ],
      [
        f.as.participant,
        "PATCH",
        `${cart}/quantity`,
        { productId: p._id, change: -1, lineId: annLine },
        403,
        "You can change only the items you added.",
      ],
      [
        f.as.participant,
        "DELETE",
        `${cart}/product/${p._id}?lineId=${annLine}`,
        undefined,
        403,
        "You can change only the items you added.",
      ],
      [
        f.as.participant,
        "PATCH",
        `${cart}/quantity`,
        { productId: notInCart._id, change: 1 },
        404,
        "That item is not in the cart.",
      ],
      [
        f.as.participant,
        "DELETE",
        `${cart}/product/${notInCart._id}`,
        undefined,
        404,
        "That item is not in the cart.",
      ],
      [
        f.as.participant,
        "POST",
        `${cart}/product`,
        { productId: "00000000-0000-4000-8000-000000000000" },
        404,
        "Product not found.",
      ],
      [
        f.as.participant,
        "POST",
        `${cart}/product`,
        { productId: roomy._id, quantity: 99 },
        409,
        "A line holds at most 99 of a product.",
      ],
    ] as const;
    for (const [as, method, url, body, status, message] of cases) {
      const res = await as(method, url, body);
      expect({ method, url, status: res.statusCode, message: res.json().message }).toEqual({
        method,
        url,
        status,
        message,
      });
    }
    const after = (await f.as.creator("GET", cart)).json().cart;
    expect(after.version).toBe(before.version);
    expect(after.products).toEqual(before.products);

    // Once ended: the role is still checked first, then the cart is read-only for everyone.
    expect((await f.as.creator("DELETE", cart)).statusCode).toBe(200);
    for (const [as, status, message] of [
      [f.as.viewer, 403, "Viewers can see the cart but not change it."],
      [f.as.stranger, 404, "Cart not found"],
      [f.as.creator, 409, "This session has ended; its cart is read-only."],
      [f.as.participant, 409, "This session has ended; its cart is read-only."],
    ] as const) {
      const res = await as("POST", `${cart}/product`, { productId: p._id });
      expect({ status: res.statusCode, message: res.json().message }).toEqual({ status, message });
    }
  });

  it("concurrent adds by two members never pass the stock", async () => {
    const f = await sessionWithEveryRole(t);
    const p = inStock(8);
    await t.database.db.update(products).set({ stock: 8 }).where(eq(products.id, p._id));
    try {
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          (i % 2 ? f.as.creator : f.as.participant)("POST", `/api/carts/${f.cartId}/product`, {
            productId: p._id,
          }),
        ),
      );
      expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(8);
      expect(answers.filter((a) => a.statusCode === 409)).toHaveLength(12);
      const cart = (await f.as.creator("GET", `/api/carts/${f.cartId}`)).json().cart;
      expect(cart.itemCount).toBe(8);
    } finally {
      await t.database.db.update(products).set({ stock: p.stock }).where(eq(products.id, p._id));
    }
  });

  it("ending the session while members add fails no request", async () => {
    // On PostgreSQL ending and a cart change lock the same rows; in different orders they deadlocked.
    for (let round = 0; round < 3; round++) {
      const f = await sessionWithEveryRole(t);
      const p = inStock(60);
      const adds = Array.from({ length: 30 }, (_, i) =>
        (i % 2 ? f.as.creator : f.as.participant)("POST", `/api/carts/${f.cartId}/product`, {
          productId: p._id,
        }),
      );
      const end = f.as.creator("DELETE", `/api/carts/${f.cartId}`);
      const answers = await Promise.all(adds);
      expect((await end).statusCode).toBe(200);
      expect(answers.map((a) => a.statusCode).filter((s) => s !== 200 && s !== 409)).toEqual([]);
      const ended = (await f.as.creator("GET", `/api/carts/${f.cartId}`)).json().cart;
      expect(ended.status).toBe("completed");
      expect(ended.itemCount).toBe(answers.filter((a) => a.statusCode === 200).length);
    }
  });
});

describe("the session summary", () => {
  it("splits by who added what, with fees and tax adding up to the total", async () => {
    const f = await sessionWithEveryRole(t);
    const [a, b] = [catalog.find((x) => x.price === 4.99)!, catalog.find((x) => x.price === 24)!];
    await f.as.creator("POST", `/api/carts/${f.cartId}/product`, { productId: a._id, quantity: 3 });
    await f.as.participant("POST", `/api/carts/${f.cartId}/product`, {
      productId: b._id,
      quantity: 1,
    });
    const res = await f.as.viewer("GET", `/api/sessions/${f.sessionId}/summary`);
    expect(res.statusCode).toBe(200);
    const s = res.json();
    // Subtotal 14.97 + 24.00 = 38.97; fees 1 % = 0.39; tax 13 % of 39.36 = 5.12; total 44.48.
    expect(s).toMatchObject({
      sessionName: "Weekend groceries",
      subtotal: 38.97,
      fees: 0.39,
      tax: 5.12,
      total: 44.48,
    });
    expect(s.participants.map((p: { name: string }) => p.name).sort()).toEqual([
      "Ann",
      "Ben",
      "Vic",
    ]);
    expect(s.cartItems).toHaveLength(2);
    // Each item names its adder, with their id beside it for clients that tell people apart by id.
    expect(
      s.cartItems.map((i: { addedBy: string; addedById: string }) => [i.addedBy, i.addedById]),
    ).toEqual(
      expect.arrayContaining([
        ["Ann", f.people.creator.userId],
        ["Ben", f.people.participant.userId],
      ]),
    );
    const ann = s.split.find((m: { name: string }) => m.name === "Ann");
    const ben = s.split.find((m: { name: string }) => m.name === "Ben");
    expect(ann.subtotal).toBe(14.97);
    expect(ben.subtotal).toBe(24);
    expect(Math.round((ann.total + ben.total) * 100)).toBe(4448);
    expect(Math.round((ann.fees + ben.fees) * 100)).toBe(39);
    expect(Math.round((ann.tax + ben.tax) * 100)).toBe(512);
  });
});

describe("group commit (decision 012)", () => {
  it("applies each change of a batch on its own: one that fails is rolled back alone", async () => {
    const f = await sessionWithEveryRole(t);
    const [a, b] = catalog.filter((p) => p.stock >= 5);
    const now = new Date().toISOString();
    const call = (product: string) => ({
      op: "add",
      cart: f.cartId,
      user: f.people.participant.userId,
      product,
      line: null,
      quantity: 1,
      now,
    });
    // Read from the table: the server's kept cart views know nothing of this raw batch.
    const versionOf = async () =>
      (
        await t.database.rows<{ version: number }>(
          sql`select version from sessions where id = ${f.sessionId}::uuid`,
        )
      )[0]!.version;
    const before = await versionOf();
    const answers = await t.database.rows<{ verdict: string; error: string | null }>(
      sql`select verdict, error from cart_write_batch(${JSON.stringify([
        call(a!._id),
        call("not-a-uuid"),
        call(b!._id),
        call(a!._id),
      ])}::json, 99)`,
    );
    expect(answers.map((r) => r.verdict)).toEqual(["ok", "error", "ok", "ok"]);
    expect(answers[1]!.error).toMatch(/uuid/);
    const cart = (await f.as.participant("GET", `/api/carts/${f.cartId}`)).json().cart;
    const quantities = Object.fromEntries(
      cart.products.map((l: { productId: { _id: string }; quantity: number }) => [
        l.productId._id,
        l.quantity,
      ]),
    );
    expect(quantities).toEqual({ [a!._id]: 2, [b!._id]: 1 });
    const activity = (await f.as.participant("GET", `/api/sessions/${f.sessionId}/activity`)).json()
      .events as Array<{ type: string }>;
    expect(activity.filter((e) => e.type === "item.added")).toHaveLength(3);
    // The session's version moves once per change that landed, as if each had been written alone.
    expect(await versionOf()).toBe(before + 3);
  });

  it("answers 50 writers at once, each answer holding its own change", async () => {
    const f = await sessionWithEveryRole(t);
    const picks = catalog.filter((p) => p.stock >= 5).slice(0, 10);
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        f.as.participant("POST", `/api/carts/${f.cartId}/product`, {
          productId: picks[i % picks.length]!._id,
        }),
      ),
    );
    expect(answers.map((r) => r.statusCode)).toEqual(Array(50).fill(200));
    // A batch answers each of its changes with the cart after the batch's changes to it, so an
    // answer may show later changes too, never miss its own.
    answers.forEach((answer, i) => {
      const lines = answer.json().cart.products as Array<{ productId: { _id: string } }>;
      expect(lines.some((l) => l.productId._id === picks[i % picks.length]!._id)).toBe(true);
    });
    const counts = answers.map((r) => r.json().cart.itemCount as number);
    expect(Math.max(...counts)).toBe(50);
    const cart = (await f.as.participant("GET", `/api/carts/${f.cartId}`)).json().cart;
    expect(cart.itemCount).toBe(50);
    expect(cart.products.map((l: { quantity: number }) => l.quantity)).toEqual(Array(10).fill(5));
  });
});
