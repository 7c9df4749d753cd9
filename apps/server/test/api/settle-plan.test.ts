/**
 * Fewer transfers through the API (PGlite and PostgreSQL): the settle plan over every open
 * balance in the caller's orders, and recording a transfer, which settles the caller's open
 * shares owed to the recipient (less what the recipient owes back) oldest first, exactly.
 */
import { ActivityEntrySchema } from "@cartner/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cents, client, createTestApp, signUp, type Client, type TestApp } from "../helpers.ts";
import { threeWayOrder } from "../payers-support.ts";

let t: TestApp;
let productIds: string[];
beforeAll(async () => {
  t = await createTestApp();
  const someone = await signUp(t, "Zed");
  const products = (await client(t, someone.token)("GET", "/api/products?limit=50")).json()
    .products as { _id: string; stock: number }[];
  productIds = products.filter((p) => p.stock > 10).map((p) => p._id);
});
afterAll(async () => t.close());

interface Person {
  userId: string;
  as: Client;
  name: string;
}
async function person(name: string): Promise<Person> {
  const p = await signUp(t, name);
  return { userId: p.userId, as: client(t, p.token), name };
}

let nextProduct = 0;
/** `payee` checks out a session where each member added one line; answers the order. */
async function orderOf(payee: Person, members: Person[]) {
  const created = await payee.as("POST", "/api/sessions", {
    sessionName: `${payee.name}'s shop`,
    sessionType: "Friends",
    participants: "3+",
    passcode: "tulip",
  });
  expect(created.statusCode, created.body).toBe(201);
  const { _id: sessionId, sessionCode, cartId } = created.json().session;
  for (const m of members) {
    const joined = await m.as("POST", "/api/sessions/join/code", {
      sessionCode,
      passcode: "tulip",
    });
    expect(joined.statusCode, joined.body).toBe(202);
    await payee.as("POST", `/api/sessions/approve/${sessionCode}`, { userId: m.userId });
  }
  for (const p of [payee, ...members]) {
    const productId = productIds[nextProduct++ % productIds.length];
    const added = await p.as("POST", `/api/carts/${cartId}/product`, { productId });
    expect(added.statusCode, added.body).toBe(200);
  }
  const placed = await payee.as("POST", `/api/sessions/${sessionId}/checkout`);
  expect(placed.statusCode, placed.body).toBe(201);
  const order = placed.json().order as {
    _id: string;
    sessionId: string;
    split: { userId: string; total: number; status: string; settledAs: string | null }[];
  };
  const shareOf = (p: Person) => cents(order.split.find((s) => s.userId === p.userId)!.total);
  return { ...order, shareOf };
}

type Plan = {
  from: { _id: string; name: string };
  to: { _id: string; name: string };
  amount: number;
  recordable: boolean;
}[];
const planOf = async (p: Person, query = "") =>
  (await p.as("GET", `/api/balances/settle-plan${query}`)).json().transfers as Plan;
const netsOf = async (p: Person) =>
  Object.fromEntries(
    (
      (await p.as("GET", "/api/balances")).json().balances as {
        user: { name: string };
        amount: number;
      }[]
    ).map((b) => [b.user.name, cents(b.amount)]),
  );

describe("GET /balances/settle-plan", () => {
  it("nets two people's orders both ways into one transfer", async () => {
    const [ann, ben] = [await person("Ann"), await person("Ben")];
    const first = await orderOf(ann, [ben]);
    const second = await orderOf(ben, [ann]);
    const benOwes = first.shareOf(ben) - second.shareOf(ann);
    const plan = await planOf(ann);
    expect(plan).toHaveLength(1);
    const [only] = plan;
    const [from, to] = benOwes > 0 ? ["Ben", "Ann"] : ["Ann", "Ben"];
    expect([only!.from.name, only!.to.name, cents(only!.amount)]).toEqual([
      from,
      to,
      Math.abs(benOwes),
    ]);
    expect(await planOf(ben)).toEqual(plan);
  });

  it("settles everyone in at most people − 1 transfers, and applying the plan zeroes every balance", async () => {
    const [ann, ben, cat, dan] = [
      await person("Ann"),
      await person("Ben"),
      await person("Cat"),
      await person("Dan"),
    ];
    await orderOf(ann, [ben, cat]);
    await orderOf(ben, [cat, dan]);
    await orderOf(cat, [ann, dan]);
    const plan = await planOf(cat);
    expect(plan.length).toBeGreaterThan(0);
    expect(plan.length).toBeLessThanOrEqual(3);
    // Each person's net is what the plan moves for them.
    const everyone = [ann, ben, cat, dan];
    for (const p of everyone) {
      const net = Object.values(await netsOf(p)).reduce((a, b) => a + b, 0);
      const moved = plan.reduce(
        (a, tr) =>
          a +
          (tr.to.name === p.name ? cents(tr.amount) : 0) -
          (tr.from.name === p.name ? cents(tr.amount) : 0),
        0,
      );
      // Cat's orders reach everyone, so her plan covers every open balance here.
      expect(moved, p.name).toBe(net);
    }
  });

  it("with= keeps only the orders shared with that person", async () => {
    const [ann, ben, cat] = [await person("Ann"), await person("Ben"), await person("Cat")];
    const withBen = await orderOf(ann, [ben]);
    await orderOf(ann, [cat]);
    const plan = await planOf(ann, `?with=${ben.userId}`);
    expect(plan).toEqual([
      {
        from: { _id: ben.userId, name: "Ben" },
        to: { _id: ann.userId, name: "Ann" },
        amount: withBen.shareOf(ben) / 100,
        recordable: true,
      },
    ]);
    expect(await planOf(ann)).toHaveLength(2);
    const bad = await ann.as("GET", "/api/balances/settle-plan?with=nobody");
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields.with).toBeTruthy();
  });

  it("marks which transfers the transfer route can record: not one that nets a third person's debt", async () => {
    // Cat owes Ann; Ann owes Ben more: greedy routes Cat's debt to Ben, so neither planned
    // transfer settles whole shares between its two people.
    const [ann, ben, cat] = [await person("Ann"), await person("Ben"), await person("Cat")];
    await orderOf(ann, [cat]);
    await orderOf(ben, [ann]);
    const plan = await planOf(ann);
    const byPerson = new Map([ann, ben, cat].map((p) => [p.userId, p]));
    // Each planned transfer is recorded by its payer: the flag says whether the route takes it.
    for (const tr of [...plan].sort((a, b) => Number(a.recordable) - Number(b.recordable))) {
      const recorded = await byPerson.get(tr.from._id)!.as("POST", "/api/balances/transfers", {
        to: tr.to._id,
        amount: tr.amount,
      });
      // Refused (400 naming the amounts that would do, or 404 with nothing between the two).
      expect(recorded.statusCode === 201, `${tr.from.name} → ${tr.to.name}: ${recorded.body}`).toBe(
        tr.recordable,
      );
      expect(recorded.statusCode).toBeLessThan(500);
    }
    expect(plan.some((tr) => !tr.recordable)).toBe(true);
  });

  it("is empty for someone with nothing open", async () => {
    const sam = await person("Sam");
    expect(await planOf(sam)).toEqual([]);
  });
});

describe("POST /balances/transfers", () => {
  it("settles the oldest shares owed first, exactly, and refuses an amount that matches none", async () => {
    const [ann, ben] = [await person("Ann"), await person("Ben")];
    const older = await orderOf(ann, [ben]);
    const newer = await orderOf(ann, [ben]);
    const url = "/api/balances/transfers";
    // Half of the older share matches no whole shares: 400 naming amount, saying what would.
    const wrong = await ben.as("POST", url, { to: ann.userId, amount: 0.01 });
    expect(wrong.statusCode).toBe(400);
    const both = older.shareOf(ben) + newer.shareOf(ben);
    expect(wrong.json().fields.amount).toContain(
      `$${(older.shareOf(ben) / 100).toFixed(2)}, $${(both / 100).toFixed(2)} would`,
    );
    expect(await netsOf(ben)).toEqual({ Ann: -both });

    const paid = await ben.as("POST", url, { to: ann.userId, amount: older.shareOf(ben) / 100 });
    expect(paid.statusCode, paid.body).toBe(201);
    expect(paid.json()).toEqual({
      settled: [{ orderId: older._id, amount: older.shareOf(ben) / 100 }],
    });
    const { order } = (await ann.as("GET", `/api/orders/${older._id}`)).json();
    const share = order.split.find((s: { userId: string }) => s.userId === ben.userId);
    expect([share.status, share.settledAs]).toEqual(["confirmed", "transfer"]);
    expect(await netsOf(ann)).toEqual({ Ben: newer.shareOf(ben) });
    const { events } = (await ann.as("GET", `/api/sessions/${older.sessionId}/activity`)).json();
    const entry = events.find((e: { type: string }) => e.type === "order.transfer");
    expect(entry).toMatchObject({ to: "Ann", toId: ann.userId, amount: older.shareOf(ben) / 100 });
    expect(entry.actor.name).toBe("Ben");
    expect(ActivityEntrySchema.safeParse(entry).error).toBeUndefined();
    // Ann hears of it.
    await t.app.idle();
    const inbox = (await ann.as("GET", "/api/notifications")).json();
    expect(inbox.notifications[0]).toMatchObject({
      kind: "payment",
      title: "Ben paid you",
      body: `Ben recorded a transfer of $${(older.shareOf(ben) / 100).toFixed(2)} to you, settling 1 order`,
      url: "/balances",
    });
  });

  it("cancels what the recipient owes back, on both orders", async () => {
    const [ann, ben] = [await person("Ann"), await person("Ben")];
    const first = await orderOf(ann, [ben]);
    const second = await orderOf(ben, [ann]);
    const [plan] = await planOf(ben);
    const payer = plan!.from.name === "Ben" ? ben : ann;
    const payee = payer === ben ? ann : ben;
    const res = await payer.as("POST", "/api/balances/transfers", {
      to: payee.userId,
      amount: plan!.amount,
    });
    expect(res.statusCode, res.body).toBe(201);
    const settled = res.json().settled as { orderId: string; amount: number }[];
    expect(settled.map((s) => s.orderId).sort()).toEqual([first._id, second._id].sort());
    expect(cents(settled.reduce((a, s) => a + s.amount, 0))).toBe(cents(plan!.amount));
    expect(await netsOf(ann)).toEqual({});
    expect(await netsOf(ben)).toEqual({});
    expect(await planOf(ann)).toEqual([]);
  });

  it("with several payers, settles one payer's part and leaves the other's open", async () => {
    const f = await threeWayOrder(t);
    const total = cents(f.order.total);
    const annPaid = Math.round(total / 2);
    const set = await f.as.creator("PUT", `/api/orders/${f.order._id}/payers`, {
      payers: [
        { userId: f.ids.ann, amount: annPaid / 100 },
        { userId: f.ids.cat, amount: (total - annPaid) / 100 },
      ],
    });
    expect(set.statusCode, set.body).toBe(200);
    const ben = { userId: f.ids.ben, as: f.as.participant, name: "Ben" };
    const before = await netsOf(ben);
    const toAnn = await ben.as("POST", "/api/balances/transfers", {
      to: f.ids.ann,
      amount: -before.Ann! / 100,
    });
    expect(toAnn.statusCode, toAnn.body).toBe(201);
    expect(await netsOf(ben)).toEqual({ Cat: before.Cat });
    const shareOf = async () =>
      (await ben.as("GET", `/api/orders/${f.order._id}`))
        .json()
        .order.split.find((s: { userId: string }) => s.userId === f.ids.ben);
    expect((await shareOf()).status).toBe("unpaid");
    // Settled parts lock the payers.
    const change = await f.as.creator("PUT", `/api/orders/${f.order._id}/payers`, {
      payers: [{ userId: f.ids.ann, amount: total / 100 }],
    });
    expect(change.statusCode).toBe(409);
    const toCat = await ben.as("POST", "/api/balances/transfers", {
      to: f.ids.cat,
      amount: -before.Cat! / 100,
    });
    expect(toCat.statusCode, toCat.body).toBe(201);
    expect((await shareOf()).status).toBe("confirmed");
    expect(await netsOf(ben)).toEqual({});
  });

  it("answers the one owed 403, a stranger 404, and bad input 400 naming the field with nothing stored", async () => {
    const [ann, ben, sam] = [await person("Ann"), await person("Ben"), await person("Sam")];
    const order = await orderOf(ann, [ben]);
    const amount = order.shareOf(ben) / 100;
    const url = "/api/balances/transfers";
    const owed = await ann.as("POST", url, { to: ben.userId, amount });
    expect(owed.statusCode).toBe(403);
    expect(owed.json().message).toMatch(/Only the one who owes/);
    expect((await sam.as("POST", url, { to: ann.userId, amount })).statusCode).toBe(404);
    const cases: [unknown, string][] = [
      [{ to: ben.userId, amount }, "to"],
      [{ to: "someone", amount }, "to"],
      [{ to: ann.userId, amount: 0 }, "amount"],
      [{ to: ann.userId, amount: 1.234 }, "amount"],
      [{ to: ann.userId }, "amount"],
    ];
    for (const [body, field] of cases) {
      const res = await ben.as("POST", url, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.keys(res.json().fields), JSON.stringify(body)).toContain(field);
    }
    expect(await netsOf(ben)).toEqual({ Ann: -order.shareOf(ben) });
  });
});
