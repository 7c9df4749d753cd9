/**
 * Split policies, per-line sharers, member budgets and ready marks, through the API.
 * Every answer's shares add up to the cart's totals to the cent.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { splitShares, type Cart, type SplitPolicy } from "@cartner/contract";
import { cents, createTestApp, sessionWithEveryRole, type TestApp } from "../helpers.ts";

let t: TestApp;
let productId: string;
let price: number;
beforeAll(async () => {
  t = await createTestApp();
  const f = await sessionWithEveryRole(t);
  const products = (await f.as.creator("GET", "/api/products")).json().products;
  const p = products.find((x: { stock: number; price: number }) => x.stock > 20 && x.price > 5);
  productId = p._id;
  price = p.price;
});
afterAll(async () => t.close());

type Share = { userId: string; name: string; subtotal: number; total: number; overBudget: boolean };
const byName = (split: Share[]) => Object.fromEntries(split.map((s) => [s.name, s]));

async function world() {
  const f = await sessionWithEveryRole(t);
  const added = await f.as.participant("POST", `/api/carts/${f.cartId}/product`, {
    productId,
    quantity: 2,
  });
  const line = added.json().cart.products[0] as { _id: string };
  return { ...f, lineId: line._id };
}

async function cartOf(f: Awaited<ReturnType<typeof world>>) {
  return (await f.as.viewer("GET", `/api/carts/${f.cartId}`)).json().cart;
}

describe("the split policy", () => {
  it("equal with fees equal: Ann and Ben carry the same, the viewer nothing; shares add up", async () => {
    const f = await world();
    const res = await f.as.creator("PUT", `/api/sessions/${f.sessionId}/split-policy`, {
      mode: "equal",
      weights: {},
      fees: "equal",
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().session.splitPolicy).toEqual({ mode: "equal", weights: {}, fees: "equal" });
    const cart = await cartOf(f);
    const split = byName(cart.split);
    expect(Object.keys(split).sort()).toEqual(["Ann", "Ben"]);
    expect(Math.abs(cents(split.Ann!.subtotal) - cents(split.Ben!.subtotal))).toBeLessThanOrEqual(
      1,
    );
    const summary = (await f.as.viewer("GET", `/api/sessions/${f.sessionId}/summary`)).json();
    expect(cart.split.reduce((s: number, x: Share) => s + cents(x.total), 0)).toBe(
      cents(summary.total),
    );
  });

  it("is the contract's split with the cart's id drawing ties, the figures the web previews", async () => {
    const f = await world();
    const policy: SplitPolicy = { mode: "equal", weights: {}, fees: "proportional" };
    await f.as.creator("PUT", `/api/sessions/${f.sessionId}/split-policy`, policy);
    // One more line, so that the total has odd cents to draw for.
    await f.as.creator("POST", `/api/carts/${f.cartId}/product`, { productId, quantity: 1 });
    const cart = (await cartOf(f)) as Cart;
    const expected = splitShares(
      cart.products.map((l) => ({
        lineTotal: cents(l.lineTotal),
        addedBy: l.addedBy._id,
        sharedWith: l.sharedWith.map((u) => u._id),
      })),
      cart.sessionId.invitedUsers,
      policy,
      cart._id,
    ).shares;
    const figures = (s: { subtotal: number; fees: number; tax: number; total: number }) =>
      [s.subtotal, s.fees, s.tax, s.total].map(cents);
    expect(cart.split.map((s) => [s.userId, ...figures(s)])).toEqual(
      expected.map((s) => [s.userId, s.subtotal, s.fees, s.tax, s.total]),
    );
  });

  it("weights: a member saved without a weight carries as 100, next to one at 50", async () => {
    const f = await world();
    // Only Ben's box was typed in; Ann's, untouched at the 100 the web shows, is not sent.
    const res = await f.as.creator("PUT", `/api/sessions/${f.sessionId}/split-policy`, {
      mode: "weights",
      weights: { [f.people.participant.userId]: 50 },
      fees: "proportional",
    });
    expect(res.statusCode).toBe(200);
    const cart = await cartOf(f);
    const split = byName(cart.split);
    const ann = cents(split.Ann!.subtotal);
    const ben = cents(split.Ben!.subtotal);
    // Ben added the line, yet Ann (missing = 100) carries two thirds of it, Ben (50) one third.
    expect(ann + ben).toBe(cents(price) * 2);
    expect(Math.abs(ann - 2 * ben)).toBeLessThanOrEqual(2);
    const summary = (await f.as.viewer("GET", `/api/sessions/${f.sessionId}/summary`)).json();
    expect(cart.split.reduce((s: number, x: Share) => s + cents(x.total), 0)).toBe(
      cents(summary.total),
    );
  });

  it("weights: no weights at all is everyone at 100, an equal split; every weight 0 falls back to the adder", async () => {
    const f = await world();
    const url = `/api/sessions/${f.sessionId}/split-policy`;
    await f.as.creator("PUT", url, { mode: "weights", weights: {}, fees: "proportional" });
    let split = byName((await cartOf(f)).split);
    const ann = cents(split.Ann!.subtotal);
    const ben = cents(split.Ben!.subtotal);
    expect(ann + ben).toBe(cents(price) * 2);
    expect(Math.abs(ann - ben)).toBeLessThanOrEqual(1);

    const zero = { [f.people.creator.userId]: 0, [f.people.participant.userId]: 0 };
    await f.as.creator("PUT", url, { mode: "weights", weights: zero, fees: "proportional" });
    split = byName((await cartOf(f)).split);
    expect(cents(split.Ann!.subtotal)).toBe(0);
    expect(cents(split.Ben!.subtotal)).toBe(cents(price) * 2);
  });

  it.each([
    ["a weight over 100", { mode: "weights", weights: { W: 101 }, fees: "equal" }],
    ["a weight that is not whole", { mode: "weights", weights: { W: 1.5 }, fees: "equal" }],
    ["an unknown key", { mode: "equal", weights: {}, fees: "equal", extra: 1 }],
    ["an unknown mode", { mode: "random", weights: {}, fees: "equal" }],
    ["a weight for a viewer", { mode: "weights", weights: { V: 50 }, fees: "equal" }],
  ])("refuses %s with 400 and changes nothing", async (_what, body) => {
    const f = await world();
    const json = JSON.parse(
      JSON.stringify(body)
        .replace('"W"', JSON.stringify(f.people.participant.userId))
        .replace('"V"', JSON.stringify(f.people.viewer.userId)),
    );
    const res = await f.as.creator("PUT", `/api/sessions/${f.sessionId}/split-policy`, json);
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toBeDefined();
    const session = (await f.as.creator("GET", `/api/sessions/${f.sessionId}`)).json().session;
    expect(session.splitPolicy.mode).toBe("by_adder");
  });
});

describe("sharing a line", () => {
  it("splits it among its sharers, and a member who leaves drops out of it", async () => {
    const f = await world();
    const ids = [f.people.creator.userId, f.people.participant.userId];
    const res = await f.as.participant(
      "PUT",
      `/api/carts/${f.cartId}/lines/${f.lineId}/shared-with`,
      { userIds: ids },
    );
    expect(res.statusCode).toBe(200);
    const cart = res.json().cart;
    expect(cart.products[0].sharedWith.map((u: { name: string }) => u.name).sort()).toEqual([
      "Ann",
      "Ben",
    ]);
    const split = byName(cart.split);
    expect(cents(split.Ann!.subtotal) + cents(split.Ben!.subtotal)).toBe(cents(price) * 2);
    expect(Math.abs(cents(split.Ann!.subtotal) - cents(split.Ben!.subtotal))).toBeLessThanOrEqual(
      1,
    );

    await f.as.participant("DELETE", `/api/sessions/${f.sessionId}/leave`);
    const after = await cartOf(f);
    // Ben left: the line falls back to the policy (by adder: Ben's, as his lines stay).
    const total = after.split.reduce((s: number, x: Share) => s + cents(x.total), 0);
    const summary = (await f.as.viewer("GET", `/api/sessions/${f.sessionId}/summary`)).json();
    expect(total).toBe(cents(summary.total));
  });

  it.each([
    [
      "a duplicate id",
      (f: Awaited<ReturnType<typeof world>>) => [f.people.creator.userId, f.people.creator.userId],
    ],
    ["a viewer", (f: Awaited<ReturnType<typeof world>>) => [f.people.viewer.userId]],
    ["a stranger", (f: Awaited<ReturnType<typeof world>>) => [f.people.stranger.userId]],
    ["a pending requester", (f: Awaited<ReturnType<typeof world>>) => [f.people.pending.userId]],
  ])("refuses %s with 400", async (_what, ids) => {
    const f = await world();
    const res = await f.as.participant(
      "PUT",
      `/api/carts/${f.cartId}/lines/${f.lineId}/shared-with`,
      { userIds: ids(f) },
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().fields.userIds).toBeDefined();
    expect((await cartOf(f)).products[0].sharedWith).toEqual([]);
  });
});

describe("budgets and ready marks", () => {
  it("a write that takes a member past their own budget succeeds and warns", async () => {
    const f = await world();
    const set = await f.as.participant(
      "PATCH",
      `/api/sessions/${f.sessionId}/members/${f.people.participant.userId}`,
      { budget: 1 },
    );
    expect(set.statusCode).toBe(200);
    const res = await f.as.participant("POST", `/api/carts/${f.cartId}/product`, { productId });
    expect(res.statusCode).toBe(200);
    expect(res.json().warnings).toEqual([
      expect.objectContaining({ code: "OVER_BUDGET", userId: f.people.participant.userId }),
    ]);
    const ben = byName(res.json().cart.split).Ben!;
    expect(ben).toMatchObject({ budget: 1, overBudget: true });
  });

  it.each([-1, 1_000_001, 1.234])("refuses a budget of %s", async (budget) => {
    const f = await world();
    const res = await f.as.participant(
      "PATCH",
      `/api/sessions/${f.sessionId}/members/${f.people.participant.userId}`,
      { budget },
    );
    expect(res.statusCode).toBe(400);
  });

  it("the creator changes a role; nobody changes the creator's", async () => {
    const f = await sessionWithEveryRole(t);
    const demote = await f.as.creator(
      "PATCH",
      `/api/sessions/${f.sessionId}/members/${f.people.participant.userId}`,
      { role: "viewer" },
    );
    expect(demote.statusCode).toBe(200);
    const ben = demote.json().session.invitedUsers.find((m: { name: string }) => m.name === "Ben");
    expect(ben.role).toBe("viewer");
    const self = await f.as.creator(
      "PATCH",
      `/api/sessions/${f.sessionId}/members/${f.people.creator.userId}`,
      { role: "viewer" },
    );
    expect(self.statusCode).toBe(409);
  });

  it("a member who carries lines cannot become a viewer until they are shared with others", async () => {
    const f = await world();
    const other = (await f.as.creator("GET", "/api/products?limit=50"))
      .json()
      .products.find((p: { _id: string; stock: number }) => p._id !== productId && p.stock > 5);
    await f.as.participant("POST", `/api/carts/${f.cartId}/product`, { productId: other._id });
    const url = `/api/sessions/${f.sessionId}/members/${f.people.participant.userId}`;
    const refused = await f.as.creator("PATCH", url, { role: "viewer", budget: 20 });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      code: "MEMBER_HAS_LINES",
      message: "Ben still has 2 lines in the cart: remove them or share them with others first.",
      requestId: refused.headers["x-request-id"],
    });
    // Nothing changed: still a participant, no budget, still carrying both lines.
    let cart = await cartOf(f);
    expect(cart.sessionId.invitedUsers.find((m: { name: string }) => m.name === "Ben")).toEqual(
      expect.objectContaining({ role: "participant", budget: null }),
    );
    expect(cents(byName(cart.split).Ben!.subtotal)).toBe(cents(cart.totalPrice));

    // One line shared with Ann alone, the other removed: Ben carries nothing and may become a viewer.
    const [first, second] = cart.products as { _id: string; productId: { _id: string } }[];
    const shared = await f.as.participant(
      "PUT",
      `/api/carts/${f.cartId}/lines/${first!._id}/shared-with`,
      { userIds: [f.people.creator.userId] },
    );
    expect(shared.statusCode).toBe(200);
    const one = await f.as.creator("PATCH", url, { role: "viewer" });
    expect(one.json().message).toBe(
      "Ben still has 1 line in the cart: remove it or share it with others first.",
    );
    await f.as.participant("DELETE", `/api/carts/${f.cartId}/product/${second!.productId._id}`);
    const demoted = await f.as.creator("PATCH", url, { role: "viewer" });
    expect(demoted.statusCode, demoted.body).toBe(200);
    cart = await cartOf(f);
    expect(cart.split.map((s: Share) => s.name)).toEqual(["Ann"]);
    expect(cents(byName(cart.split).Ann!.subtotal)).toBe(cents(cart.totalPrice));
  });

  it("marks a member ready for everyone to see", async () => {
    const f = await world();
    const res = await f.as.participant("PUT", `/api/sessions/${f.sessionId}/ready`, {
      ready: true,
    });
    expect(res.statusCode).toBe(200);
    const seen = (await f.as.viewer("GET", `/api/sessions/${f.sessionId}`)).json().session;
    expect(seen.invitedUsers.find((m: { name: string }) => m.name === "Ben").ready).toBe(true);
  });

  it("a ready mark clears when the member's share total changes, and says so", async () => {
    const f = await world();
    type Seen = { name: string; ready: boolean; shareChanged: boolean };
    const ben = (members: Seen[]) => {
      const m = members.find((x) => x.name === "Ben")!;
      return { ready: m.ready, shareChanged: m.shareChanged };
    };
    /** Ben's mark as the session, the session lists and the cart show it to the viewer. */
    const benEverywhere = async () => {
      const session = (await f.as.viewer("GET", `/api/sessions/${f.sessionId}`)).json().session;
      const mine = (await f.as.viewer("GET", "/api/sessions/my")).json();
      const listed = (mine.sessions ?? mine).find((s: { _id: string }) => s._id === f.sessionId);
      const cart = await cartOf(f);
      return [
        ben(session.invitedUsers),
        ben(listed.invitedUsers),
        ben(cart.sessionId.invitedUsers),
      ];
    };
    const ready = { ready: true, shareChanged: false };
    const changed = { ready: false, shareChanged: true };
    const mark = await f.as.participant("PUT", `/api/sessions/${f.sessionId}/ready`, {
      ready: true,
    });
    expect(ben(mark.json().session.invitedUsers)).toEqual(ready);
    expect(await benEverywhere()).toEqual([ready, ready, ready]);

    // Ann sets her own budget: Ben's share does not move, so he stays ready.
    await f.as.creator("PATCH", `/api/sessions/${f.sessionId}/members/${f.people.creator.userId}`, {
      budget: 50,
    });
    expect(await benEverywhere()).toEqual([ready, ready, ready]);

    // Ann adds a line and shares it with Ben: his share rises, his mark no longer counts.
    const other = (await f.as.creator("GET", "/api/products?limit=50"))
      .json()
      .products.find((p: { _id: string; stock: number }) => p._id !== productId && p.stock > 5);
    const added = await f.as.creator("POST", `/api/carts/${f.cartId}/product`, {
      productId: other._id,
    });
    const line = added
      .json()
      .cart.products.find((l: { productId: { _id: string } }) => l.productId._id === other._id);
    const shared = await f.as.creator(
      "PUT",
      `/api/carts/${f.cartId}/lines/${line._id}/shared-with`,
      {
        userIds: [f.people.creator.userId, f.people.participant.userId],
      },
    );
    expect(ben(shared.json().cart.sessionId.invitedUsers)).toEqual(changed);
    expect(await benEverywhere()).toEqual([changed, changed, changed]);

    // Marking again holds at the new total; a policy change that moves his share clears it again.
    await f.as.participant("PUT", `/api/sessions/${f.sessionId}/ready`, { ready: true });
    expect(await benEverywhere()).toEqual([ready, ready, ready]);
    const policy = await f.as.creator("PUT", `/api/sessions/${f.sessionId}/split-policy`, {
      mode: "equal",
      weights: {},
      fees: "creator",
    });
    expect(ben(policy.json().session.invitedUsers)).toEqual(changed);
    expect(await benEverywhere()).toEqual([changed, changed, changed]);

    // Ann adding to her own line moves Ben's share too (now split equally): cart writes clear it.
    await f.as.participant("PUT", `/api/sessions/${f.sessionId}/ready`, { ready: true });
    const more = await f.as.creator("POST", `/api/carts/${f.cartId}/product`, {
      productId: other._id,
    });
    expect(more.statusCode).toBe(200);
    expect(ben(more.json().cart.sessionId.invitedUsers)).toEqual(changed);

    // Unmarking leaves nothing to explain.
    await f.as.participant("PUT", `/api/sessions/${f.sessionId}/ready`, { ready: false });
    const off = { ready: false, shareChanged: false };
    expect(await benEverywhere()).toEqual([off, off, off]);
  });
});
