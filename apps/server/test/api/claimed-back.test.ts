/**
 * A credit owed back and said paid back (PGlite and PostgreSQL): when a payer who owes someone a
 * credit back on an order says they paid it ("I've paid"), the order's part between the two
 * carries the claim (`claimedBack`) until the one owed confirms it, as `claimed` carries a
 * debtor's claim on an open part.
 */
import type { Order, OrderPart } from "@cartner/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cents, createTestApp, type TestApp } from "../helpers.ts";
import { netsOf, threeWayCart, threeWayOrder } from "../payers-support.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const partOf = (order: Order, debtor: string, payer: string): OrderPart =>
  order.parts.find((p) => p.debtor === debtor && p.payer === payer)!;

describe("a claim of paying a credit back", () => {
  it("a payer without a share says they paid it back: the part carries it until the one owed confirms", async () => {
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
    const url = `/api/orders/${first._id}`;
    const read = async () => (await f.as.participant("GET", url)).json().order as Order;
    // Ann and Ben each paid the shop about half; Ben pays Ann his part, she confirms; then his
    // line gets cheaper, so Ann owes him back what he paid beyond it.
    const total = cents(first.total);
    const named = await f.as.creator("PUT", `${url}/payers`, {
      payers: [
        { userId: f.ids.ann, amount: Math.round(total / 2) / 100 },
        { userId: f.ids.ben, amount: (total - Math.round(total / 2)) / 100 },
      ],
    });
    expect(named.statusCode, named.body).toBe(200);
    expect((await f.as.participant("POST", `${url}/paid`)).statusCode).toBe(200);
    expect((await f.as.creator("POST", `${url}/confirm/${f.ids.ben}`)).statusCode).toBe(200);
    const benLine = first.lines.findIndex((l) => l.addedBy._id === f.ids.ben);
    const cheaper = await f.as.creator("POST", `${url}/adjustments`, {
      kind: "price",
      lineIndex: benLine,
      unitPrice: Math.round(first.lines[benLine]!.unitPrice * 50) / 100,
    });
    expect(cheaper.statusCode, cheaper.body).toBe(201);
    const owed = partOf(await read(), f.ids.ben, f.ids.ann);
    expect(owed.credit).toBeGreaterThan(0);
    expect(owed).toMatchObject({ open: 0, claimed: 0, claimedBack: 0 });

    // Ann says she paid it back: the part carries her claim, for Ben, and for her.
    const said = await f.as.creator("POST", `${url}/paid`);
    expect(said.statusCode, said.body).toBe(200);
    expect(partOf(said.json().order as Order, f.ids.ben, f.ids.ann)).toMatchObject({
      credit: owed.credit,
      claimed: 0,
      claimedBack: owed.credit,
    });
    expect(partOf(await read(), f.ids.ben, f.ids.ann).claimedBack).toBe(owed.credit);
    // Saying it again claims nothing more.
    expect((await f.as.creator("POST", `${url}/paid`)).statusCode).toBe(200);
    expect(partOf(await read(), f.ids.ben, f.ids.ann).claimedBack).toBe(owed.credit);

    // Ben confirms he received it: nothing is owed or claimed between them any more.
    const confirmed = await f.as.participant("POST", `${url}/confirm/${f.ids.ann}`);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const after = await read();
    expect(partOf(after, f.ids.ben, f.ids.ann)).toMatchObject({
      open: 0,
      credit: 0,
      claimed: 0,
      claimedBack: 0,
    });
    expect((await netsOf(f.as.participant)).Ann ?? 0).toBe(0);
  });

  it("a payer with a share says they paid a credit back: the share is paid, and the part carries it", async () => {
    const f = await threeWayOrder(t);
    const url = `/api/orders/${f.order._id}`;
    const read = async () => (await f.as.creator("GET", url)).json().order as Order;
    const total = cents(f.order.total);
    // Cat paid most of the shop: Ann (the payee) owes her more than Cat owes Ann; Ann pays it.
    const annPaid = Math.round(total / 10);
    const named = await f.as.creator("PUT", `${url}/payers`, {
      payers: [
        { userId: f.ids.ann, amount: annPaid / 100 },
        { userId: f.ids.cat, amount: (total - annPaid) / 100 },
      ],
    });
    expect(named.statusCode, named.body).toBe(200);
    const owedCat = -((await netsOf(f.as.creator)).Cat ?? 0);
    expect(owedCat).toBeGreaterThan(0);
    const paid = await f.as.creator("POST", "/api/balances/transfers", {
      to: f.ids.cat,
      amount: owedCat / 100,
    });
    expect(paid.statusCode, paid.body).toBe(201);
    // Ann's line gets cheaper: Cat owes Ann back what reached her beyond Ann's part.
    const annLine = f.order.lines.findIndex((l) => l.addedBy._id === f.ids.ann);
    const cheaper = await f.as.creator("POST", `${url}/adjustments`, {
      kind: "price",
      lineIndex: annLine,
      unitPrice: Math.round((f.order.lines[annLine]!.unitPrice - 1) * 100) / 100,
    });
    expect(cheaper.statusCode, cheaper.body).toBe(201);
    const owed = partOf(await read(), f.ids.ann, f.ids.cat);
    expect(owed.credit).toBeGreaterThan(0);
    expect(owed).toMatchObject({ open: 0, claimed: 0, claimedBack: 0 });
    expect((await read()).split.find((s) => s.userId === f.ids.cat)!.status).toBe("unpaid");

    // Cat says she paid it back: her share waits for Ann, and the part carries the claim.
    const said = await f.asCat("POST", `${url}/paid`);
    expect(said.statusCode, said.body).toBe(200);
    const claimed = await read();
    expect(partOf(claimed, f.ids.ann, f.ids.cat)).toMatchObject({
      credit: owed.credit,
      claimed: 0,
      claimedBack: owed.credit,
    });
    expect(claimed.split.find((s) => s.userId === f.ids.cat)!.status).toBe("paid");
    // No other part carries a claim back: nobody else said they paid one.
    expect(claimed.parts.filter((p) => p.claimedBack > 0).map((p) => [p.debtor, p.payer])).toEqual([
      [f.ids.ann, f.ids.cat],
    ]);

    const confirmed = await f.as.creator("POST", `${url}/confirm/${f.ids.cat}`);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const after = await read();
    expect(partOf(after, f.ids.ann, f.ids.cat)).toMatchObject({
      open: 0,
      credit: 0,
      claimed: 0,
      claimedBack: 0,
    });
    expect(after.split.find((s) => s.userId === f.ids.cat)!.status).toBe("confirmed");
  });
});

describe("the OpenAPI document", () => {
  it("describes claimedBack on an order's parts, as it does claimed", async () => {
    const doc = (await t.app.inject({ method: "GET", url: "/api/docs/json" })).json();
    const answer = doc.paths["/api/orders/{id}"].get.responses["200"].content["application/json"];
    const part = answer.schema.properties.order.properties.parts.items;
    expect(part.required).toEqual(expect.arrayContaining(["claimed", "claimedBack"]));
    expect(part.properties.claimedBack).toEqual(part.properties.claimed);
  });
});
