/**
 * Several payers through the API (PGlite and PostgreSQL): the payee says who paid the shop, the
 * shares are then owed to the payers in proportion to the cent, and balances follow. Roles are
 * walked by authorization.test.ts; here what the call does and its bad input.
 */
import { ActivityEntrySchema, type Order, type OrderShare } from "@cartner/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sum, cents, createTestApp, type TestApp } from "../helpers.ts";
import { netsOf, threeWayOrder } from "../payers-support.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe("PUT /orders/:id/payers", () => {
  it("defaults to the payee having paid everything", async () => {
    const f = await threeWayOrder(t);
    const { order } = (await f.as.participant("GET", `/api/orders/${f.order._id}`)).json();
    expect(order.payers).toEqual([{ user: { _id: f.ids.ann, name: "Ann" }, amount: order.total }]);
  });

  it("splits what each share owes between the payers in proportion, to the cent, and balances follow", async () => {
    const f = await threeWayOrder(t);
    const total = cents(f.order.total);
    const annPaid = Math.round(total * 0.6);
    const res = await f.as.creator("PUT", `/api/orders/${f.order._id}/payers`, {
      payers: [
        { userId: f.ids.ann, amount: annPaid / 100 },
        { userId: f.ids.cat, amount: (total - annPaid) / 100 },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const { order } = res.json();
    expect(order.payers.map((p: { user: { name: string } }) => p.user.name)).toEqual([
      "Ann",
      "Cat",
    ]);
    expect(sum(order.payers.map((p: { amount: number }) => cents(p.amount)))).toBe(total);
    const share = (name: string) =>
      cents(order.split.find((s: OrderShare) => s.name === name).total);
    const ann = await netsOf(f.as.creator);
    const ben = await netsOf(f.as.participant);
    const cat = await netsOf(f.asCat);
    // Ben owes both payers his whole share between them.
    const of = (b: Record<string, number>, name: string) => b[name] ?? 0;
    expect(-(of(ben, "Ann") + of(ben, "Cat"))).toBe(share("Ben"));
    expect(of(ann, "Ben")).toBe(-of(ben, "Ann"));
    expect(of(cat, "Ben")).toBe(-of(ben, "Cat"));
    // What Ann and Cat owe each other is the same seen from either side.
    expect(of(ann, "Cat")).toBe(-of(cat, "Ann"));
    // Each payer is owed what they paid less their own share, to the cent.
    expect(of(ann, "Ben") + of(ann, "Cat")).toBe(annPaid - share("Ann"));
    expect(of(cat, "Ben") + of(cat, "Ann")).toBe(total - annPaid - share("Cat"));
    // Ann owes Cat her part and Cat owes Ann hers: between two people the book nets them, so the
    // one who owes the difference is unpaid and the other owes nobody.
    const annOwesCat = of(ann, "Cat") < 0;
    const status = Object.fromEntries(order.split.map((s: OrderShare) => [s.name, s.status]));
    expect(status).toEqual({
      Ann: annOwesCat ? "unpaid" : "confirmed",
      Ben: "unpaid",
      Cat: annOwesCat ? "confirmed" : "unpaid",
    });
    // Ben's pay panel asks him for Ann's part only, what his balance says he owes her.
    const payInfo = (await f.as.participant("GET", `/api/orders/${f.order._id}/pay-info`)).json();
    expect(cents(payInfo.amount)).toBe(-of(ben, "Ann"));
  });

  it("goes back to the payee alone, and the payee's share is settled again", async () => {
    const f = await threeWayOrder(t);
    const url = `/api/orders/${f.order._id}/payers`;
    const half = Math.floor(cents(f.order.total) / 2);
    await f.as.creator("PUT", url, {
      payers: [
        { userId: f.ids.ben, amount: half / 100 },
        { userId: f.ids.ann, amount: (cents(f.order.total) - half) / 100 },
      ],
    });
    const back = await f.as.creator("PUT", url, {
      payers: [{ userId: f.ids.ann, amount: f.order.total }],
    });
    expect(back.statusCode, back.body).toBe(200);
    const { order } = back.json();
    expect(order.payers).toEqual([{ user: { _id: f.ids.ann, name: "Ann" }, amount: order.total }]);
    expect(order.split.find((s: OrderShare) => s.name === "Ann").status).toBe("confirmed");
    expect(await netsOf(f.as.participant)).toEqual({
      Ann: -cents(order.split.find((s: OrderShare) => s.name === "Ben").total),
    });
  });

  it("is refused once a share is paid (409), and nothing changes", async () => {
    const f = await threeWayOrder(t);
    expect((await f.as.participant("POST", `/api/orders/${f.order._id}/paid`)).statusCode).toBe(
      200,
    );
    const res = await f.as.creator("PUT", `/api/orders/${f.order._id}/payers`, {
      payers: [{ userId: f.ids.cat, amount: f.order.total }],
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/already paid or settled/);
    const { order } = (await f.as.creator("GET", `/api/orders/${f.order._id}`)).json();
    expect(order.payers[0].user.name).toBe("Ann");
  });

  it("refuses bad payers with 400 naming payers, storing nothing", async () => {
    const f = await threeWayOrder(t);
    const url = `/api/orders/${f.order._id}/payers`;
    const total = f.order.total;
    const bad: [string, unknown, RegExp][] = [
      [
        "amounts not adding up",
        { payers: [{ userId: f.ids.ann, amount: total - 0.01 }] },
        /add up to/,
      ],
      [
        "a payer outside the order (a viewer)",
        { payers: [{ userId: f.people.viewer.userId, amount: total }] },
        /payee or a member with a share/,
      ],
      [
        "the same payer twice",
        {
          payers: [
            { userId: f.ids.ann, amount: 1 },
            { userId: f.ids.ann, amount: total - 1 },
          ],
        },
        /once/,
      ],
      ["no payers", { payers: [] }, /At least one/],
    ];
    for (const [what, body, message] of bad) {
      const res = await f.as.creator("PUT", url, body);
      expect(res.statusCode, what).toBe(400);
      expect(res.json().fields?.payers, what).toMatch(message);
    }
    const zero = await f.as.creator("PUT", url, {
      payers: [
        { userId: f.ids.ann, amount: total },
        { userId: f.ids.ben, amount: 0 },
      ],
    });
    expect(zero.statusCode).toBe(400);
    expect(Object.keys(zero.json().fields)[0]).toMatch(/^payers/);
    const { order } = (await f.as.creator("GET", `/api/orders/${f.order._id}`)).json();
    expect(order.payers).toHaveLength(1);
    expect(order.split.find((s: OrderShare) => s.name === "Ann").status).toBe("confirmed");
  });

  it("answers a stranger 404 and a sharer 403", async () => {
    const f = await threeWayOrder(t);
    const body = { payers: [{ userId: f.ids.ben, amount: f.order.total }] };
    const url = `/api/orders/${f.order._id}/payers`;
    expect((await f.as.stranger("PUT", url, body)).statusCode).toBe(404);
    expect((await f.as.viewer("PUT", url, body)).statusCode).toBe(404);
    const sharer = await f.as.participant("PUT", url, body);
    expect(sharer.statusCode).toBe(403);
    expect(sharer.json().message).toBe("Only the payee says who paid the shop.");
  });

  it("writes the change in the session's activity", async () => {
    const f = await threeWayOrder(t);
    await f.as.creator("PUT", `/api/orders/${f.order._id}/payers`, {
      payers: [{ userId: f.ids.cat, amount: f.order.total }],
    });
    const { events } = (
      await f.as.participant("GET", `/api/sessions/${f.sessionId}/activity`)
    ).json();
    const entry = events.find((e: { type: string }) => e.type === "order.payers");
    expect(entry.payers).toEqual([{ name: "Cat", amount: f.order.total }]);
    expect(ActivityEntrySchema.safeParse(entry).error).toBeUndefined();
  });
});

describe("POST /orders/:id/confirm/:userId when the payee named other payers and not themself", () => {
  it("refuses the payee (403): only those who paid the shop settle, and nothing moves", async () => {
    const f = await threeWayOrder(t);
    const url = `/api/orders/${f.order._id}`;
    const named = await f.as.creator("PUT", `${url}/payers`, {
      payers: [{ userId: f.ids.cat, amount: f.order.total }],
    });
    expect(named.statusCode, named.body).toBe(200);
    // Ann owes Cat her share; Cat owes Ann nothing, so Ann has nothing to confirm, in any way.
    for (const how of ["transfer", "cash", "written_off"]) {
      const res = await f.as.creator("POST", `${url}/confirm/${f.ids.cat}`, { how });
      expect(res.statusCode, `${how}: ${res.body}`).toBe(403);
      expect(res.json().message).toBe("Only those who paid the shop confirm payments to them.");
    }
    // Ann paid Cat, Cat confirmed it, then Ann's line went missing: Cat owes Ann a credit back.
    // It is paid back by a transfer; Ann recording it as cash is refused, and the credit stays.
    expect((await f.as.creator("POST", `${url}/paid`)).statusCode).toBe(200);
    const confirmed = await f.asCat("POST", `${url}/confirm/${f.ids.ann}`);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const lines = (confirmed.json().order as Order).lines;
    const annLine = lines.findIndex((l) => l.addedBy._id === f.ids.ann);
    const missing = await f.as.creator("POST", `${url}/adjustments`, {
      kind: "missing",
      lineIndex: annLine,
    });
    expect(missing.statusCode, missing.body).toBe(201);
    const credit = (missing.json().order as Order).split.find((s) => s.name === "Ann")!.credit;
    expect(credit).toBeGreaterThan(0);
    const cash = await f.as.creator("POST", `${url}/confirm/${f.ids.cat}`, { how: "cash" });
    expect(cash.statusCode, cash.body).toBe(403);
    const { order } = (await f.as.creator("GET", url)).json();
    expect(order.split.find((s: OrderShare) => s.name === "Ann").credit).toBe(credit);
    // Cat, who paid the shop, still confirms what Ben says he paid her.
    expect((await f.as.participant("POST", `${url}/paid`)).statusCode).toBe(200);
    expect((await f.asCat("POST", `${url}/confirm/${f.ids.ben}`)).statusCode).toBe(200);
  });
});
