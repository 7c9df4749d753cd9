/**
 * "Ask first" budgets: a member whose budget asks first and whose change takes their
 * share over it gets a line waiting for approval, out of the totals and the split (pendingTotal
 * apart), seen by them and the approvers, live and in their notifications, until the creator or
 * an approver approves or declines it. Checkout waits for such lines or drops them. Races between
 * approving, declining, the adder's removal and a checkout end in exactly one outcome.
 */
import type { Activity, Cart, CartLine, LiveServerMessage, Notification } from "@cartner/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, sessionWithEveryRole, signUp, type TestApp } from "../helpers.ts";
import { listenForLive, signedIn, within } from "../live-peers.ts";

let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await createTestApp();
  base = await listenForLive(t);
});
afterAll(async () => t.close());

type Fixture = Awaited<ReturnType<typeof sessionWithEveryRole>>;

/**
 * Ann's session where Ben (participant) asks first: his budget is exactly his share of one
 * product `first`, so adding `second` takes him over it. Answers the products and Ben's line.
 */
async function askingBen() {
  const f = await sessionWithEveryRole(t);
  const products = (await f.as.creator("GET", "/api/products?limit=3")).json().products as {
    _id: string;
    name: string;
    price: number;
  }[];
  const [first, second] = products as [(typeof products)[0], (typeof products)[0]];
  const added = await f.as.participant("POST", `/api/carts/${f.cartId}/product`, {
    productId: first._id,
  });
  expect(added.statusCode, added.body).toBe(200);
  const share = shareOf(added.json().cart, f.people.participant.userId);
  const ben = `/api/sessions/${f.sessionId}/members/${f.people.participant.userId}`;
  const set = await f.as.creator("PATCH", ben, { budget: share, budgetMode: "ask" });
  expect(set.statusCode, set.body).toBe(200);
  return { ...f, first, second, share };
}

const shareOf = (cart: Cart, userId: string) => cart.split.find((s) => s.userId === userId)!.total;
const lineOf = (cart: Cart, productId: string) =>
  cart.products.find((l) => l.productId._id === productId) as CartLine | undefined;

/** Ben adds `second`: it waits. Answers the line's id. */
async function benAsks(f: Awaited<ReturnType<typeof askingBen>>): Promise<string> {
  const res = await f.as.participant("POST", `/api/carts/${f.cartId}/product`, {
    productId: f.second._id,
  });
  expect(res.statusCode, res.body).toBe(200);
  return lineOf(res.json().cart, f.second._id)!._id;
}

const decide = (f: Fixture, who: keyof Fixture["as"], lineId: string, what: string, body = {}) =>
  f.as[who]("POST", `/api/carts/${f.cartId}/lines/${lineId}/${what}`, body);

describe("a line over an ask-first budget", () => {
  it("waits: out of the totals and the split, counted apart, seen by the member and the creator", async () => {
    const f = await askingBen();
    const before = (await f.as.creator("GET", `/api/carts/${f.cartId}`)).json().cart as Cart;
    await benAsks(f);
    for (const who of ["participant", "creator"] as const) {
      const cart = (await f.as[who]("GET", `/api/carts/${f.cartId}`)).json().cart as Cart;
      const line = lineOf(cart, f.second._id)!;
      expect(line.pending).toEqual({ requestedAt: expect.any(String), message: null });
      expect(lineOf(cart, f.first._id)!.pending).toBeNull();
      expect(cart.totalPrice).toBe(before.totalPrice);
      expect(cart.itemCount).toBe(before.itemCount);
      expect(cart.pendingTotal).toBe(f.second.price);
      expect(shareOf(cart, f.people.participant.userId)).toBe(f.share);
    }
    // The summary lists what would be bought: not the waiting line.
    const summary = (await f.as.creator("GET", `/api/sessions/${f.sessionId}/summary`)).json();
    expect(summary.cartItems.map((i: { product: { _id: string } }) => i.product._id)).toEqual([
      f.first._id,
    ]);
    // The activity says it waits.
    const entries = (await f.as.creator("GET", `/api/sessions/${f.sessionId}/activity`)).json()
      .events as Activity[];
    expect(entries.find((e) => e.type === "item.added" && e.productId === f.second._id)).toEqual(
      expect.objectContaining({ pending: true }),
    );
  });

  it("private from a member, is in their cart's privateCount but not their summary's (which leaves it out)", async () => {
    const f = await askingBen();
    const lineId = await benAsks(f);
    const hidden = await f.as.participant(
      "PUT",
      `/api/carts/${f.cartId}/lines/${lineId}/hidden-from`,
      {
        userIds: [f.people.viewer.userId],
      },
    );
    expect(hidden.statusCode, hidden.body).toBe(200);
    // The cart lists waiting lines: Vic's leaves this one out and counts it.
    const cart = (await f.as.viewer("GET", `/api/carts/${f.cartId}`)).json().cart as Cart;
    expect(cart.products.map((l) => l.productId._id)).toEqual([f.first._id]);
    expect(cart.privateCount).toBe(1);
    // The summary lists what would be bought, its total without the waiting line: no private
    // item is included in it, for Vic as for everyone.
    const summary = (await f.as.viewer("GET", `/api/sessions/${f.sessionId}/summary`)).json();
    expect(summary.cartItems.map((i: { product: { _id: string } }) => i.product._id)).toEqual([
      f.first._id,
    ]);
    expect(summary.subtotal).toBe(cart.totalPrice);
    expect(summary.privateCount).toBe(0);
  });

  it("does not wait under a budget that only warns, nor within the budget", async () => {
    const f = await askingBen();
    const ben = `/api/sessions/${f.sessionId}/members/${f.people.participant.userId}`;
    // Within the budget: a budget of twice the share takes a second of the same line.
    await f.as.creator("PATCH", ben, { budget: f.share * 3 });
    const more = await f.as.participant("PATCH", `/api/carts/${f.cartId}/quantity`, {
      productId: f.first._id,
      change: 1,
    });
    expect(lineOf(more.json().cart, f.first._id)!.pending).toBeNull();
    await f.as.creator("PATCH", ben, { budget: f.share, budgetMode: "warn" });
    const res = await f.as.participant("POST", `/api/carts/${f.cartId}/product`, {
      productId: f.second._id,
    });
    expect(lineOf(res.json().cart, f.second._id)!.pending).toBeNull();
    expect(res.json().warnings).toEqual([expect.objectContaining({ code: "OVER_BUDGET" })]);
  });

  it("follows the session's split: under equal shares, half of what anyone adds is the member's", async () => {
    const f = await sessionWithEveryRole(t);
    const [milk, bread] = (await f.as.creator("GET", "/api/products?limit=2")).json().products;
    const policy = await f.as.creator("PUT", `/api/sessions/${f.sessionId}/split-policy`, {
      mode: "equal",
      weights: {},
      fees: "proportional",
    });
    expect(policy.statusCode, policy.body).toBe(200);
    // Ann's milk: Ben carries half of it, which is his whole budget.
    const added = await f.as.creator("POST", `/api/carts/${f.cartId}/product`, {
      productId: milk._id,
    });
    const half = shareOf(added.json().cart, f.people.participant.userId);
    expect(half).toBeGreaterThan(0);
    const ben = `/api/sessions/${f.sessionId}/members/${f.people.participant.userId}`;
    await f.as.creator("PATCH", ben, { budget: half, budgetMode: "ask" });
    // Ben's bread would add half of it to his share: it waits, and his share stays half the milk.
    const asked = await f.as.participant("POST", `/api/carts/${f.cartId}/product`, {
      productId: bread._id,
    });
    const cart = asked.json().cart as Cart;
    expect(lineOf(cart, bread._id)!.pending).not.toBeNull();
    expect(shareOf(cart, f.people.participant.userId)).toBe(half);
    // With room for his half of both, the bread added again does not wait.
    await f.as.creator("PATCH", ben, { budget: 100_000 });
    await f.as.participant("DELETE", `/api/carts/${f.cartId}/product/${bread._id}`);
    const again = await f.as.participant("POST", `/api/carts/${f.cartId}/product`, {
      productId: bread._id,
    });
    expect(lineOf(again.json().cart, bread._id)!.pending).toBeNull();
  });

  it("waits for a line added by name too, at its estimate", async () => {
    const f = await askingBen();
    const res = await f.as.participant("POST", `/api/carts/${f.cartId}/free-lines`, {
      name: "Birthday cake",
      estimatedPrice: 30,
    });
    expect(res.statusCode, res.body).toBe(200);
    const cart = res.json().cart as Cart;
    const cake = cart.products.find((l) => l.productId.name === "Birthday cake")!;
    expect(cake.pending).not.toBeNull();
    expect(cart.pendingTotal).toBe(30);
    expect(shareOf(cart, f.people.participant.userId)).toBe(f.share);
    const approved = (await decide(f, "creator", cake._id, "approve")).json().cart as Cart;
    expect(approved.products.find((l) => l._id === cake._id)!.pending).toBeNull();
    expect(approved.pendingTotal).toBe(0);
  });

  it("tells the member and the approvers live, and the approvers by notification", async () => {
    const f = await askingBen();
    const named = await f.as.creator("PUT", `/api/sessions/${f.sessionId}/approvers`, {
      userIds: [f.people.viewer.userId],
    });
    expect(named.statusCode, named.body).toBe(200);
    const peers = {
      creator: await signedIn(base, f.people.creator.token),
      participant: await signedIn(base, f.people.participant.token),
      viewer: await signedIn(base, f.people.viewer.token),
    };
    const lineId = await benAsks(f);
    const is = (type: string) => (m: LiveServerMessage) =>
      m.type === type && "lineId" in m && m.lineId === lineId;
    for (const peer of Object.values(peers)) {
      await within(peer.next(is("line.pending")), 2000);
    }
    // Notifications go once the answer is sent.
    for (const who of ["creator", "viewer"] as const) {
      await expect
        .poll(async () =>
          (await f.as[who]("GET", "/api/notifications"))
            .json()
            .notifications.map((n: { title: string }) => n.title),
        )
        .toContain(`Ben asks to add ${f.second.name}`);
    }
    // The viewer, an approver, declines with a message; Ben hears it both ways.
    const declined = await decide(f, "viewer", lineId, "decline", { message: "Not this week" });
    expect(declined.statusCode, declined.body).toBe(200);
    expect(lineOf(declined.json().cart, f.second._id)).toBeUndefined();
    const heard = await within(peers.participant.next(is("line.declined")), 2000);
    expect(heard).toMatchObject({ message: "Not this week" });
    await within(peers.creator.next(is("line.declined")), 2000);
    await expect
      .poll(async () =>
        (await f.as.participant("GET", "/api/notifications"))
          .json()
          .notifications.map((n: { body: string }) => n.body),
      )
      .toContain(`Vic declined ${f.second.name}: "Not this week"`);
    for (const peer of Object.values(peers)) peer.socket.close();
  });
});

describe("approving and declining", () => {
  it("approve: the line counts from then on; the entry keeps the message", async () => {
    const f = await askingBen();
    const lineId = await benAsks(f);
    const res = await decide(f, "creator", lineId, "approve", { message: "Fine, once" });
    expect(res.statusCode, res.body).toBe(200);
    const cart = res.json().cart as Cart;
    expect(lineOf(cart, f.second._id)!.pending).toBeNull();
    expect(cart.pendingTotal).toBe(0);
    expect(shareOf(cart, f.people.participant.userId)).toBeGreaterThan(f.share);
    const entries = (await f.as.creator("GET", `/api/sessions/${f.sessionId}/activity`)).json()
      .events as Activity[];
    expect(entries.find((e) => e.type === "item.approved")).toMatchObject({
      product: f.second.name,
      lineOf: "Ben",
      message: "Fine, once",
    });
  });

  it("refuses a line that does not wait (409), an unknown line (404), bad input (400)", async () => {
    const f = await askingBen();
    const lineId = await benAsks(f);
    const first = lineOf(
      (await f.as.creator("GET", `/api/carts/${f.cartId}`)).json().cart,
      f.first._id,
    )!;
    const notWaiting = await decide(f, "creator", first._id, "approve");
    expect(notWaiting.statusCode).toBe(409);
    expect(notWaiting.json().message).toBe(
      `${f.first.name} is not waiting for approval: there is nothing to decide.`,
    );
    const unknown = await decide(f, "creator", crypto.randomUUID(), "decline");
    expect(unknown.statusCode).toBe(404);
    const long = await decide(f, "creator", lineId, "approve", { message: "x".repeat(201) });
    expect(long.statusCode).toBe(400);
    expect(long.json().fields).toEqual({ message: "message is at most 200 characters" });
    const extra = await decide(f, "creator", lineId, "approve", { approved: true });
    expect(extra.statusCode).toBe(400);
  });

  it("is the creator's and the approvers': others 403, a stranger 404", async () => {
    const f = await askingBen();
    const lineId = await benAsks(f);
    expect((await decide(f, "participant", lineId, "approve")).statusCode).toBe(403);
    expect((await decide(f, "viewer", lineId, "approve")).statusCode).toBe(403);
    expect((await decide(f, "pending", lineId, "approve")).statusCode).toBe(404);
    expect((await decide(f, "stranger", lineId, "decline")).statusCode).toBe(404);
    const outsider = await signUp(t, "Zed");
    const res = await t.app.inject({
      method: "POST",
      url: `/api/carts/${f.cartId}/lines/${lineId}/approve`,
      headers: { authorization: `Bearer ${outsider.token}` },
    });
    expect(res.statusCode).toBe(404);
    // Still waiting.
    const cart = (await f.as.creator("GET", `/api/carts/${f.cartId}`)).json().cart as Cart;
    expect(lineOf(cart, f.second._id)!.pending).not.toBeNull();
  });

  it("an approver's own line waits for someone else: approving it is refused, declining takes it away", async () => {
    const f = await askingBen();
    const named = await f.as.creator("PUT", `/api/sessions/${f.sessionId}/approvers`, {
      userIds: [f.people.participant.userId],
    });
    expect(named.statusCode, named.body).toBe(200);
    const lineId = await benAsks(f);
    const own = await decide(f, "participant", lineId, "approve");
    expect(own.statusCode, own.body).toBe(403);
    expect(own.json().message).toContain("the creator or another approver approves it");
    const cart = (await f.as.creator("GET", `/api/carts/${f.cartId}`)).json().cart as Cart;
    expect(lineOf(cart, f.second._id)!.pending).not.toBeNull();
    const declined = await decide(f, "participant", lineId, "decline");
    expect(declined.statusCode, declined.body).toBe(200);
    expect(lineOf(declined.json().cart as Cart, f.second._id)).toBeUndefined();
  });

  it("a waiting line its adder gives the creator on leaving still waits, and the creator decides it", async () => {
    const f = await askingBen();
    const lineId = await benAsks(f);
    const ann = f.people.creator.userId;
    const left = await f.as.participant(
      "DELETE",
      `/api/sessions/${f.sessionId}/leave?lines=give&to=${ann}`,
    );
    expect(left.statusCode, left.body).toBe(200);
    // Ann's line now, still waiting: nobody approved it, so leaving does not make it count.
    const given = (await f.as.creator("GET", `/api/carts/${f.cartId}`)).json().cart as Cart;
    const line = lineOf(given, f.second._id)!;
    expect(line.addedBy._id).toBe(ann);
    expect(line.pending).not.toBeNull();
    expect(given.pendingTotal).toBeGreaterThan(0);
    // The creator never asks first: a waiting line of theirs was given to them, and they approve it.
    const approved = await decide(f, "creator", lineId, "approve");
    expect(approved.statusCode, approved.body).toBe(200);
    expect(lineOf(approved.json().cart as Cart, f.second._id)!.pending).toBeNull();
    expect((approved.json().cart as Cart).pendingTotal).toBe(0);
  });

  it("a waiting line removed with its adder leaving is gone, with nothing left to decide", async () => {
    const f = await askingBen();
    const lineId = await benAsks(f);
    const left = await f.as.participant(
      "DELETE",
      `/api/sessions/${f.sessionId}/leave?lines=remove`,
    );
    expect(left.statusCode, left.body).toBe(200);
    const cart = (await f.as.creator("GET", `/api/carts/${f.cartId}`)).json().cart as Cart;
    expect(lineOf(cart, f.second._id)).toBeUndefined();
    expect(cart.pendingTotal).toBe(0);
    expect((await decide(f, "creator", lineId, "approve")).statusCode).toBe(404);
  });

  it("approving, declining and the member removing the line at once end in exactly one outcome", async () => {
    for (let round = 0; round < 4; round++) {
      const f = await askingBen();
      const lineId = await benAsks(f);
      const [approve, decline, remove] = await Promise.all([
        decide(f, "creator", lineId, "approve"),
        decide(f, "creator", lineId, "decline"),
        f.as.participant("DELETE", `/api/carts/${f.cartId}/product/${f.second._id}`),
      ]);
      const ok = (r: { statusCode: number }) => r.statusCode === 200;
      for (const r of [approve, decline, remove]) expect([200, 404, 409]).toContain(r.statusCode);
      // One decision at most; a line removed first leaves nothing to decide.
      expect(Number(ok(approve)) + Number(ok(decline))).toBeLessThanOrEqual(1);
      const cart = (await f.as.creator("GET", `/api/carts/${f.cartId}`)).json().cart as Cart;
      const line = lineOf(cart, f.second._id);
      expect(line !== undefined).toBe(!ok(decline) && !ok(remove));
      if (line) expect(line.pending).toBeNull();
      if (!ok(remove)) expect(ok(approve) || ok(decline)).toBe(true);
      const entries = (await f.as.creator("GET", `/api/sessions/${f.sessionId}/activity`)).json()
        .events as Activity[];
      expect(entries.filter((e) => e.type === "item.approved").length).toBe(Number(ok(approve)));
      expect(entries.filter((e) => e.type === "item.declined").length).toBe(Number(ok(decline)));
    }
  });
});

describe("deciding from the notification", () => {
  const listOf = async (f: Fixture, who: keyof Fixture["as"]) => {
    const res = await f.as[who]("GET", "/api/notifications");
    expect(res.statusCode, res.body).toBe(200);
    return res.json().notifications as Notification[];
  };
  const askOf = (list: Notification[], lineId: string) =>
    list.find((n) => n.approval?.lineId === lineId);
  /** Waits for `who`'s request for approval of the line (notifications go after the answer). */
  const askFor = async (f: Fixture, who: keyof Fixture["as"], lineId: string) => {
    await expect.poll(async () => askOf(await listOf(f, who), lineId)).toBeDefined();
    return askOf(await listOf(f, who), lineId)!;
  };

  it("names the cart and the line, waiting, to the creator and the approvers only", async () => {
    const f = await askingBen();
    await f.as.creator("PUT", `/api/sessions/${f.sessionId}/approvers`, {
      userIds: [f.people.viewer.userId],
    });
    const lineId = await benAsks(f);
    for (const who of ["creator", "viewer"] as const) {
      const ask = await askFor(f, who, lineId);
      expect(ask).toMatchObject({
        title: `Ben asks to add ${f.second.name}`,
        url: `/cart/${f.sessionId}`,
        readAt: null,
        approval: { cartId: f.cartId, lineId, waiting: true },
      });
    }
    // Ben's own notifications, and others', never carry it; every other notification says null.
    for (const who of ["participant", "pending", "stranger"] as const) {
      const list = await listOf(f, who);
      expect(askOf(list, lineId)).toBeUndefined();
      for (const n of list) expect(n.approval).toBeNull();
    }
  });

  it("says it no longer waits once decided, and is read by whoever decided it", async () => {
    const f = await askingBen();
    await f.as.creator("PUT", `/api/sessions/${f.sessionId}/approvers`, {
      userIds: [f.people.viewer.userId],
    });
    const lineId = await benAsks(f);
    const ask = await askFor(f, "creator", lineId);
    await askFor(f, "viewer", lineId);
    const approved = await decide(f, "creator", ask.approval!.lineId, "approve");
    expect(approved.statusCode, approved.body).toBe(200);
    const mine = askOf(await listOf(f, "creator"), lineId)!;
    expect(mine.approval).toEqual({ cartId: f.cartId, lineId, waiting: false });
    expect(mine.readAt).not.toBeNull();
    // The other approver's request no longer waits either, and stays theirs to read.
    const theirs = askOf(await listOf(f, "viewer"), lineId)!;
    expect(theirs.approval!.waiting).toBe(false);
    expect(theirs.readAt).toBeNull();
    // Deciding it again from there is refused, as the cart says.
    const again = await decide(f, "viewer", lineId, "decline");
    expect(again.statusCode).toBe(409);
  });

  it("says it no longer waits once declined, or removed by its adder", async () => {
    const f = await askingBen();
    const lineId = await benAsks(f);
    await askFor(f, "creator", lineId);
    const declined = await decide(f, "creator", lineId, "decline");
    expect(declined.statusCode, declined.body).toBe(200);
    expect(askOf(await listOf(f, "creator"), lineId)!.approval!.waiting).toBe(false);

    const g = await askingBen();
    const removedId = await benAsks(g);
    await askFor(g, "creator", removedId);
    const removed = await g.as.participant(
      "DELETE",
      `/api/carts/${g.cartId}/product/${g.second._id}`,
    );
    expect(removed.statusCode, removed.body).toBe(200);
    const gone = askOf(await listOf(g, "creator"), removedId)!;
    expect(gone.approval).toEqual({ cartId: g.cartId, lineId: removedId, waiting: false });
    expect(gone.readAt).toBeNull();
  });
});

describe("checkout with lines waiting for approval", () => {
  it("waits by default: 409 PENDING_APPROVALS naming them; nothing is written", async () => {
    const f = await askingBen();
    const lineId = await benAsks(f);
    const res = await f.as.creator("POST", `/api/sessions/${f.sessionId}/checkout`, {});
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: "PENDING_APPROVALS",
      lines: [
        { lineId, name: f.second.name, quantity: 1, addedBy: { _id: f.people.participant.userId } },
      ],
    });
    expect(res.json().message).toContain(`${f.second.name} (1, Ben)`);
    const session = (await f.as.creator("GET", `/api/sessions/${f.sessionId}`)).json().session;
    expect(session.status).toBe("active");
  });

  it('drops them with pending "drop": the order has the rest, the ended cart only what was bought', async () => {
    const f = await askingBen();
    await benAsks(f);
    const res = await f.as.creator("POST", `/api/sessions/${f.sessionId}/checkout`, {
      pending: "drop",
    });
    expect(res.statusCode, res.body).toBe(201);
    const order = res.json().order;
    expect(order.lines.map((l: { name: string }) => l.name)).toEqual([f.first.name]);
    const cart = (await f.as.creator("GET", `/api/carts/${f.cartId}`)).json().cart as Cart;
    expect(cart.products.map((l) => l.productId._id)).toEqual([f.first._id]);
    const bad = await f.as.creator("POST", `/api/sessions/${f.sessionId}/checkout`, {
      pending: "later",
    });
    expect(bad.statusCode).toBe(400);
  });

  it("racing an approval, takes the line approved or not at all, never half", async () => {
    for (let round = 0; round < 4; round++) {
      const f = await askingBen();
      const lineId = await benAsks(f);
      const [approve, checkout] = await Promise.all([
        decide(f, "creator", lineId, "approve"),
        f.as.creator("POST", `/api/sessions/${f.sessionId}/checkout`, { pending: "drop" }),
      ]);
      expect(checkout.statusCode, checkout.body).toBe(201);
      const names = checkout.json().order.lines.map((l: { name: string }) => l.name);
      expect(names.includes(f.second.name)).toBe(approve.statusCode === 200);
      if (approve.statusCode !== 200) expect(approve.statusCode).toBe(409);
    }
  });
});
