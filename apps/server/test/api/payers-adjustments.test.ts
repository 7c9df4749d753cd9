/**
 * Several payers and transfers together with adjustments (PGlite and PostgreSQL): the parts are
 * computed from the adjusted shares, and what is open is the adjusted share less what was paid,
 * owed to the payers in proportion; balances, the settle plan and transfers all read it.
 */
import type { Notification, Order, PlannedTransfer } from "@cartner/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "../helpers.ts";
import { sum, cents, createTestApp, type TestApp } from "../helpers.ts";
import { netsOf, threeWayCart, threeWayOrder } from "../payers-support.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

async function planOf(as: Client, query = "") {
  return (await as("GET", `/api/balances/settle-plan${query}`)).json()
    .transfers as PlannedTransfer[];
}

const shareOf = (order: Order, name: string) => order.split.find((s) => s.name === name)!;

/** The three-way order, with Ben's line and a way to adjust and read the order. */
async function setup() {
  const f = await threeWayOrder(t);
  const url = `/api/orders/${f.order._id}`;
  const first = (await f.as.creator("GET", url)).json().order as Order;
  const benLine = first.lines.findIndex((l) => l.addedBy._id === f.ids.ben);
  const adjust = async (body: Record<string, unknown>) => {
    const res = await f.as.creator("POST", `${url}/adjustments`, body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json().order as Order;
  };
  /** Ben's line at a new unit price: his share changes, the others' do not. */
  const priceBen = (delta: number) =>
    adjust({
      kind: "price",
      lineIndex: benLine,
      unitPrice: Math.round((first.lines[benLine]!.unitPrice + delta) * 100) / 100,
    });
  const read = async () => (await f.as.creator("GET", url)).json().order as Order;
  return { ...f, url, first, benLine, adjust, priceBen, read };
}

describe("payers after an adjustment", () => {
  it("must add up to the adjusted total, and the parts follow the adjusted shares", async () => {
    const f = await setup();
    const adjusted = await f.priceBen(-1);
    const total = cents(adjusted.total);
    expect(total).toBeLessThan(cents(f.first.total));
    // The checkout total no longer adds up.
    const original = cents(f.first.total);
    const stale = await f.as.creator("PUT", `${f.url}/payers`, {
      payers: [
        { userId: f.ids.ann, amount: Math.round(original / 2) / 100 },
        { userId: f.ids.cat, amount: (original - Math.round(original / 2)) / 100 },
      ],
    });
    expect(stale.statusCode).toBe(400);
    expect(stale.json().fields).toHaveProperty("payers");
    const annPaid = Math.round(total / 2);
    const res = await f.as.creator("PUT", `${f.url}/payers`, {
      payers: [
        { userId: f.ids.ann, amount: annPaid / 100 },
        { userId: f.ids.cat, amount: (total - annPaid) / 100 },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const order = res.json().order as Order;
    expect(sum(order.payers.map((p) => cents(p.amount)))).toBe(total);
    // Ben owes the payers his adjusted share between them, nothing more or less.
    const ben = await netsOf(f.as.participant);
    expect(-((ben.Ann ?? 0) + (ben.Cat ?? 0))).toBe(cents(shareOf(order, "Ben").total));
    const ann = await netsOf(f.as.creator);
    expect((ann.Ben ?? 0) + (ann.Cat ?? 0)).toBe(annPaid - cents(shareOf(order, "Ann").total));
  });
});

describe("an adjustment after payers are set", () => {
  it("re-splits the parts: the payers' amounts add up to the new total and balances follow", async () => {
    const f = await setup();
    const total = cents(f.first.total);
    const annPaid = Math.round(total * 0.6);
    const set = await f.as.creator("PUT", `${f.url}/payers`, {
      payers: [
        { userId: f.ids.ann, amount: annPaid / 100 },
        { userId: f.ids.cat, amount: (total - annPaid) / 100 },
      ],
    });
    expect(set.statusCode, set.body).toBe(200);
    const order = await f.priceBen(-0.5);
    const newTotal = cents(order.total);
    expect(newTotal).toBeLessThan(total);
    const payers = order.payers.map((p) => cents(p.amount));
    expect(sum(payers)).toBe(newTotal);
    // The refund goes back to the payers as they paid, within a cent.
    expect(Math.abs(payers[0]! - (annPaid * newTotal) / total)).toBeLessThan(1);
    const ben = await netsOf(f.as.participant);
    const ann = await netsOf(f.as.creator);
    const cat = await netsOf(f.asCat);
    expect(-((ben.Ann ?? 0) + (ben.Cat ?? 0))).toBe(cents(shareOf(order, "Ben").total));
    expect((ann.Ben ?? 0) + (ann.Cat ?? 0)).toBe(payers[0]! - cents(shareOf(order, "Ann").total));
    expect((cat.Ben ?? 0) + (cat.Ann ?? 0)).toBe(payers[1]! - cents(shareOf(order, "Cat").total));
    expect(ann.Cat ?? 0).toBe(-(cat.Ann ?? 0));
    // The plan settles exactly those balances.
    const plan = await planOf(f.as.participant);
    const nets: Record<string, number> = {};
    for (const p of plan) {
      nets[p.from.name] = (nets[p.from.name] ?? 0) - cents(p.amount);
      nets[p.to.name] = (nets[p.to.name] ?? 0) + cents(p.amount);
    }
    expect(nets.Ben).toBe(-cents(shareOf(order, "Ben").total));
  });
});

describe("a share paid, then adjusted", () => {
  it("adjusted up: the plan shows only the rest, and a transfer of the rest settles it", async () => {
    const f = await setup();
    const ben = cents(shareOf(f.first, "Ben").total);
    const paid = await f.as.participant("POST", "/api/balances/transfers", {
      to: f.ids.ann,
      amount: ben / 100,
    });
    expect(paid.statusCode, paid.body).toBe(201);
    expect(shareOf(await f.read(), "Ben").status).toBe("confirmed");
    const order = await f.priceBen(1);
    const share = shareOf(order, "Ben");
    const rest = cents(share.total) - ben;
    expect(rest).toBeGreaterThan(0);
    expect(share).toMatchObject({ status: "unpaid", paid: ben / 100 });
    expect(await netsOf(f.as.participant)).toEqual({ Ann: -rest });
    // The plan (which also settles Cat's share with Ann) has Ben pay only the rest.
    const bens = (await planOf(f.as.participant)).filter(
      (p) => p.from.name === "Ben" || p.to.name === "Ben",
    );
    expect(bens).toEqual([
      {
        from: { _id: f.ids.ben, name: "Ben" },
        to: { _id: f.ids.ann, name: "Ann" },
        amount: rest / 100,
        recordable: true,
      },
    ]);
    // The whole share again is not what is open.
    const whole = await f.as.participant("POST", "/api/balances/transfers", {
      to: f.ids.ann,
      amount: cents(share.total) / 100,
    });
    expect(whole.statusCode).toBe(400);
    const res = await f.as.participant("POST", "/api/balances/transfers", {
      to: f.ids.ann,
      amount: rest / 100,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().settled).toEqual([{ orderId: f.order._id, amount: rest / 100 }]);
    expect(shareOf(await f.read(), "Ben")).toMatchObject({
      status: "confirmed",
      paid: share.total,
      credit: 0,
    });
    expect(await netsOf(f.as.participant)).toEqual({});
    const left = await planOf(f.as.participant);
    expect(left.filter((p) => p.from.name === "Ben" || p.to.name === "Ben")).toEqual([]);
  });

  it("adjusted down: the credit is owed back in balances and the plan, and the payee's transfer pays it back exactly", async () => {
    const f = await setup();
    const ben = cents(shareOf(f.first, "Ben").total);
    await f.as.participant("POST", `${f.url}/paid`);
    expect((await f.as.creator("POST", `${f.url}/confirm/${f.ids.ben}`)).statusCode).toBe(200);
    const order = await f.priceBen(-0.5);
    const share = shareOf(order, "Ben");
    const credit = ben - cents(share.total);
    expect(credit).toBeGreaterThan(0);
    expect(cents(share.credit)).toBe(credit);
    // The order view carries it on Ben's part for Ann: nothing open, the credit owed back.
    expect(order.parts.find((p) => p.debtor === f.ids.ben)).toEqual({
      debtor: f.ids.ben,
      payer: f.ids.ann,
      amount: share.total,
      open: 0,
      credit: credit / 100,
      claimed: 0,
      claimedBack: 0,
    });
    expect(await netsOf(f.as.participant)).toEqual({ Ann: credit });
    expect((await netsOf(f.as.creator)).Ben).toBe(-credit);
    const [owedBack] = (await f.as.participant("GET", "/api/balances")).json().balances;
    expect(owedBack.orders).toEqual([
      expect.objectContaining({ _id: f.order._id, amount: credit / 100, credit: true }),
    ]);
    // Once Cat paid Ann her share, the plan has Ann pay Ben the credit.
    const cat = await netsOf(f.asCat);
    const catPaid = await f.asCat("POST", "/api/balances/transfers", {
      to: f.ids.ann,
      amount: -cat.Ann! / 100,
    });
    expect(catPaid.statusCode, catPaid.body).toBe(201);
    const plan = await planOf(f.as.participant);
    expect(plan.filter((p) => p.from.name === "Ben" || p.to.name === "Ben")).toEqual([
      {
        from: { _id: f.ids.ann, name: "Ann" },
        to: { _id: f.ids.ben, name: "Ben" },
        amount: credit / 100,
        recordable: true,
      },
    ]);
    // Ben is owed, so he has nothing to transfer to Ann; Ann pays back exactly the credit.
    const url = "/api/balances/transfers";
    const wrongWay = await f.as.participant("POST", url, { to: f.ids.ann, amount: credit / 100 });
    expect(wrongWay.statusCode).toBe(403);
    const more = await f.as.creator("POST", url, { to: f.ids.ben, amount: (credit + 1) / 100 });
    expect(more.statusCode).toBe(400);
    expect(more.json().fields.amount).toContain(`$${(credit / 100).toFixed(2)} would`);
    const back = await f.as.creator("POST", url, { to: f.ids.ben, amount: credit / 100 });
    expect(back.statusCode, back.body).toBe(201);
    expect(back.json().settled).toEqual([{ orderId: f.order._id, amount: credit / 100 }]);
    const after = await f.read();
    // Paid exactly the adjusted share now; still settled as Ann confirmed it.
    expect(shareOf(after, "Ben")).toMatchObject({
      status: "confirmed",
      paid: share.total,
      credit: 0,
    });
    expect(after.parts.find((p) => p.debtor === f.ids.ben)).toMatchObject({ open: 0, credit: 0 });
    expect(await netsOf(f.as.participant)).toEqual({});
    const left = await planOf(f.as.participant);
    expect(left.filter((p) => p.from.name === "Ben" || p.to.name === "Ben")).toEqual([]);
    const log = (await f.as.creator("GET", `/api/sessions/${f.sessionId}/activity`)).json().events;
    const transfers = log
      .filter((e: { type: string }) => e.type === "order.transfer")
      .map((e: { amount: number; to: string }) => ({ amount: e.amount, to: e.to }));
    expect(transfers).toContainEqual({ amount: credit / 100, to: "Ben" });
  });

  it("a credit nets against what the member owes on another part, and the payee's own share may have one", async () => {
    const f = await setup();
    const total = cents(f.first.total);
    // Cat paid most of the shop: Ann owes her more than she owes Ann.
    const annPaid = Math.round(total / 10);
    await f.as.creator("PUT", `${f.url}/payers`, {
      payers: [
        { userId: f.ids.ann, amount: annPaid / 100 },
        { userId: f.ids.cat, amount: (total - annPaid) / 100 },
      ],
    });
    // Ann (the payee) pays Cat her part of her own share.
    const before = await netsOf(f.as.creator);
    const owedCat = await f.read();
    const annToCat = owedCat.parts.find((p) => p.debtor === f.ids.ann && p.payer === f.ids.cat)!;
    expect(annToCat.open).toBe(annToCat.amount);
    const paid = await f.as.creator("POST", "/api/balances/transfers", {
      to: f.ids.cat,
      amount: -before.Cat! / 100,
    });
    expect(paid.statusCode, paid.body).toBe(201);
    // Ann's line gets cheaper: her part for Cat shrinks below what reached Cat.
    const annLine = f.first.lines.findIndex((l) => l.addedBy._id === f.ids.ann);
    const order = await f.adjust({
      kind: "price",
      lineIndex: annLine,
      unitPrice: Math.round((f.first.lines[annLine]!.unitPrice - 1) * 100) / 100,
    });
    const part = order.parts.find((p) => p.debtor === f.ids.ann && p.payer === f.ids.cat)!;
    expect(part.open).toBe(0);
    expect(part.credit).toBeGreaterThan(0);
    expect(shareOf(order, "Ann").credit).toBe(part.credit);
    // Cat owes Ann the credit, netted with whatever else is open between them.
    const cat = await netsOf(f.asCat);
    const ann = await netsOf(f.as.creator);
    expect(ann.Cat ?? 0).toBe(-(cat.Ann ?? 0));
    const catOwesAnn = order.parts
      .filter((p) => p.debtor === f.ids.cat && p.payer === f.ids.ann)
      .reduce((a, p) => a + cents(p.open) - cents(p.credit), 0);
    expect(ann.Cat ?? 0).toBe(cents(part.credit) + catOwesAnn);
  });

  it("with two payers, one part paid then the share grown: each payer is owed what they lack", async () => {
    const f = await setup();
    const total = cents(f.first.total);
    const annPaid = Math.round(total / 2);
    await f.as.creator("PUT", `${f.url}/payers`, {
      payers: [
        { userId: f.ids.ann, amount: annPaid / 100 },
        { userId: f.ids.cat, amount: (total - annPaid) / 100 },
      ],
    });
    const before = await netsOf(f.as.participant);
    const toCat = await f.as.participant("POST", "/api/balances/transfers", {
      to: f.ids.cat,
      amount: -before.Cat! / 100,
    });
    expect(toCat.statusCode, toCat.body).toBe(201);
    const order = await f.priceBen(1);
    const grown = cents(shareOf(order, "Ben").total);
    const after = await netsOf(f.as.participant);
    // All Ben owes is his grown share less what reached Cat, split by what each payer lacks.
    expect((after.Ann ?? 0) + (after.Cat ?? 0)).toBe(-(grown + before.Cat!));
    expect(after.Cat!).toBeLessThan(0);
    expect(after.Ann!).toBeLessThan(before.Ann!);
    // Settling both parts confirms the share, and nothing is left.
    for (const [to, id] of [
      ["Ann", f.ids.ann],
      ["Cat", f.ids.cat],
    ] as const) {
      const res = await f.as.participant("POST", "/api/balances/transfers", {
        to: id,
        amount: -after[to]! / 100,
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    expect(shareOf(await f.read(), "Ben")).toMatchObject({
      status: "confirmed",
      paid: grown / 100,
    });
    expect(await netsOf(f.as.participant)).toEqual({});
  });
});

describe("a write-off between two payers, then changes", () => {
  it("a credit owed back that the one who owes by the split wrote off is taken back as their part rises", async () => {
    const f = await setup();
    const total = cents(f.first.total);
    // Ben paid the shop all but a dollar: Ann owes Ben nearly her whole share, by the split.
    const named = await f.as.creator("PUT", `${f.url}/payers`, {
      payers: [
        { userId: f.ids.ann, amount: 1 },
        { userId: f.ids.ben, amount: (total - 100) / 100 },
      ],
    });
    expect(named.statusCode, named.body).toBe(200);
    const annOwesBen = async () => 0 - ((await netsOf(f.as.creator)).Ben ?? 0);
    const paid = await annOwesBen();
    expect(paid).toBeGreaterThan(0);
    // Ann pays it, Ben confirms.
    expect((await f.as.creator("POST", `${f.url}/paid`)).statusCode).toBe(200);
    expect((await f.as.participant("POST", `${f.url}/confirm/${f.ids.ann}`)).statusCode).toBe(200);
    expect(await annOwesBen()).toBe(0);
    const annLine = f.first.lines.findIndex((l) => l.addedBy._id === f.ids.ann);
    const price = f.first.lines[annLine]!.unitPrice;
    const priceAnn = (factor: number) =>
      f.adjust({ kind: "price", lineIndex: annLine, unitPrice: Math.round(price * factor) / 100 });
    // Her line at half price: she paid Ben beyond her part, and he owes it back; she writes it off.
    await priceAnn(50);
    expect(await annOwesBen()).toBeLessThan(0);
    const off = await f.as.creator("POST", `${f.url}/confirm/${f.ids.ben}`, { how: "written_off" });
    expect(off.statusCode, off.body).toBe(200);
    expect(await annOwesBen()).toBe(0);
    // Dearer again, still below what she paid for: the rise is met by what she forgave.
    await priceAnn(75);
    expect(await annOwesBen()).toBe(0);
    // Dearer than at checkout: she owes only the rise beyond what she paid.
    const order = await priceAnn(110);
    const part = (debtor: string, payer: string) =>
      cents(order.parts.find((p) => p.debtor === debtor && p.payer === payer)?.amount ?? 0);
    expect(await annOwesBen()).toBe(part(f.ids.ann, f.ids.ben) - part(f.ids.ben, f.ids.ann) - paid);
  });

  it("a payer without a share who was paid beyond the part owes it back, and the one owed settles it", async () => {
    const f = await threeWayCart(t);
    // Ann, the payee, carries no share (weight 0); Ben and Cat split the order.
    const policy = await f.as.creator("PUT", `/api/sessions/${f.sessionId}/split-policy`, {
      mode: "weights",
      weights: { [f.ids.ann]: 0, [f.ids.ben]: 100, [f.ids.cat]: 100 },
      fees: "proportional",
    });
    expect(policy.statusCode, policy.body).toBe(200);
    const placed = await f.as.creator("POST", `/api/sessions/${f.sessionId}/checkout`);
    expect(placed.statusCode, placed.body).toBe(201);
    await t.app.idle();
    const first = placed.json().order as Order;
    expect(first.split.map((s) => s.name).sort()).toEqual(["Ben", "Cat"]);
    const url = `/api/orders/${first._id}`;
    // Ann and Ben each paid the shop about half: Ben owes Ann half of his share.
    const total = cents(first.total);
    const named = await f.as.creator("PUT", `${url}/payers`, {
      payers: [
        { userId: f.ids.ann, amount: Math.round(total / 2) / 100 },
        { userId: f.ids.ben, amount: (total - Math.round(total / 2)) / 100 },
      ],
    });
    expect(named.statusCode, named.body).toBe(200);
    const benOwesAnn = async () => (await netsOf(f.as.creator)).Ben ?? 0;
    expect(await benOwesAnn()).toBeGreaterThan(0);
    // Ben pays it, Ann confirms; then Ben's line gets cheaper: Ann owes Ben back what he paid
    // beyond his lowered part, though she has no share.
    expect((await f.as.participant("POST", `${url}/paid`)).statusCode).toBe(200);
    expect((await f.as.creator("POST", `${url}/confirm/${f.ids.ben}`)).statusCode).toBe(200);
    const benLine = first.lines.findIndex((l) => l.addedBy._id === f.ids.ben);
    const cheaper = await f.as.creator("POST", `${url}/adjustments`, {
      kind: "price",
      lineIndex: benLine,
      unitPrice: Math.round(first.lines[benLine]!.unitPrice * 50) / 100,
    });
    expect(cheaper.statusCode, cheaper.body).toBe(201);
    const owedBack = -(await benOwesAnn());
    expect(owedBack).toBeGreaterThan(0);
    // Nothing claimed: a transfer is not confirmed. Someone not on the order is not found; Cat,
    // who did not pay the shop, settles nothing.
    const early = await f.as.participant("POST", `${url}/confirm/${f.ids.ann}`);
    expect(early.statusCode, early.body).toBe(409);
    expect(early.json().message).toContain("Ann has not marked what they owe you as paid");
    const stranger = await f.as.participant("POST", `${url}/confirm/${f.people.viewer.userId}`, {
      how: "written_off",
    });
    expect(stranger.statusCode, stranger.body).toBe(404);
    const cat = await f.asCat("POST", `${url}/confirm/${f.ids.ann}`, { how: "written_off" });
    expect(cat.statusCode, cat.body).toBe(403);
    // Ben writes it off: nothing is owed between them, and Ann hears of it.
    const off = await f.as.participant("POST", `${url}/confirm/${f.ids.ann}`, {
      how: "written_off",
    });
    expect(off.statusCode, off.body).toBe(200);
    expect(await benOwesAnn()).toBe(0);
    const again = await f.as.participant("POST", `${url}/confirm/${f.ids.ann}`, {
      how: "written_off",
    });
    expect(again.statusCode, again.body).toBe(200);
    expect(await benOwesAnn()).toBe(0);
    await t.app.idle();
    const { notifications } = (await f.as.creator("GET", "/api/notifications")).json() as {
      notifications: Notification[];
    };
    expect(notifications.map((n) => n.title)).toContain("What you owed was written off");
  });
});
