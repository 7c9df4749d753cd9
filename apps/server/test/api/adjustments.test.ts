/**
 * Order adjustments and disputes through the API (PGlite and PostgreSQL): only the payee adjusts,
 * the order re-splits to the cent, a member who had paid gets a credit or owes the rest, disputes
 * reach the payee, bad input stores nothing, and the receipt lists the changes. The roles per
 * route are also walked by authorization.test.ts.
 */
import { resplit, type Order, type SplitPolicy } from "@cartner/contract";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { orders, sessionMembers } from "../../src/db/schema.ts";
import { sum, cents, createTestApp, filledSession, type TestApp } from "../helpers.ts";
import { listenForLive, signedIn } from "../live-peers.ts";
import { pdfText } from "../pdf-text.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

/** Ann (payee) and Ben each with a line, checked out; Vic views, Pat waits, Sam is a stranger. */
async function placed() {
  const f = await filledSession(t);
  const res = await f.as.creator("POST", `/api/sessions/${f.sessionId}/checkout`);
  expect(res.statusCode, res.body).toBe(201);
  const order = res.json().order as Order;
  const benLine = order.lines.findIndex((l) => l.addedBy.name === "Ben");
  return { ...f, order, benLine, url: `/api/orders/${order._id}` };
}

const shareOf = (order: Order, name: string) => order.split.find((s) => s.name === name)!;

/** The shares add up to the order's figures to the cent. */
function expectExact(order: Order) {
  for (const key of ["subtotal", "fees", "tax", "total"] as const) {
    expect(sum(order.split.map((s) => cents(s[key]))), key).toBe(cents(order[key]));
  }
}

describe("POST /api/orders/:id/adjustments", () => {
  it("only the payee adjusts: a sharer 403, a stranger or viewer 404, nothing stored", async () => {
    const f = await placed();
    const body = { kind: "missing", lineIndex: f.benLine };
    expect((await f.as.participant("POST", `${f.url}/adjustments`, body)).statusCode).toBe(403);
    for (const role of ["stranger", "viewer", "pending"] as const) {
      expect((await f.as[role]("POST", `${f.url}/adjustments`, body)).statusCode, role).toBe(404);
    }
    const order = (await f.as.creator("GET", f.url)).json().order as Order;
    expect(order.adjustments).toEqual([]);
    expect(order.total).toBe(f.order.total);
  });

  it("re-splits by the order's rules to the cent; original figures stay beside the adjusted", async () => {
    const f = await placed();
    const ben = shareOf(f.order, "Ben");
    const line = f.order.lines[f.benLine]!;
    const res = await f.as.creator("POST", `${f.url}/adjustments`, {
      kind: "quantity",
      lineIndex: f.benLine,
      quantity: 1,
      note: "Only one left",
    });
    expect(res.statusCode, res.body).toBe(201);
    const order = res.json().order as Order;
    expectExact(order);
    expect(order.originalTotal).toBe(f.order.total);
    expect(cents(order.total)).toBeLessThan(cents(f.order.total));
    const after = shareOf(order, "Ben");
    // By adder: Ben now carries one of his line; Ann's subtotal is untouched.
    expect(after.subtotal).toBe(line.unitPrice);
    expect(after.originalTotal).toBe(ben.total);
    expect(shareOf(order, "Ann").subtotal).toBe(shareOf(f.order, "Ann").subtotal);
    expect(order.lines[f.benLine]!.adjusted).toMatchObject({ lineTotal: line.unitPrice });
    expect(order.adjustments).toMatchObject([
      { kind: "quantity", lineIndex: f.benLine, quantity: 1, note: "Only one left", disputes: [] },
    ]);
    // Ben's balance follows his adjusted share.
    const balances = (await f.as.participant("GET", "/api/balances")).json().balances;
    expect(balances[0].amount).toBe(-after.total);
  });

  it("substituted and order-level changes; the activity log has every adjustment", async () => {
    const f = await placed();
    const sub = await f.as.creator("POST", `${f.url}/adjustments`, {
      kind: "substituted",
      lineIndex: f.benLine,
      name: "Store brand",
      unitPrice: 1.5,
    });
    expect(sub.statusCode, sub.body).toBe(201);
    const fee = await f.as.creator("POST", `${f.url}/adjustments`, {
      kind: "order_fee",
      amount: -0.99,
      name: "Coupon",
    });
    expect(fee.statusCode, fee.body).toBe(201);
    const order = fee.json().order as Order;
    expectExact(order);
    expect(order.lines[f.benLine]!.adjusted).toMatchObject({ name: "Store brand" });
    expect(cents(order.fees)).toBe(cents(sub.json().order.fees) - 99);
    const log = (await f.as.creator("GET", `/api/sessions/${f.sessionId}/activity`)).json().events;
    const adjusted = log.filter((e: { type: string }) => e.type === "order.adjusted");
    expect(adjusted.map((e: { kind: string }) => e.kind)).toEqual(["substituted", "order_fee"]);
    expect(adjusted[0]).toMatchObject({
      line: f.order.lines[f.benLine]!.name,
      actor: { name: "Ann" },
    });
    expect(adjusted[1]).toMatchObject({ to: order.total });
  });

  it("a member who paid gets a credit when their share drops, and owes the rest when it grows", async () => {
    const f = await placed();
    const ben = f.people.participant.userId;
    expect((await f.as.participant("POST", `${f.url}/paid`)).statusCode).toBe(200);
    expect((await f.as.creator("POST", `${f.url}/confirm/${ben}`)).statusCode).toBe(200);
    const paid = shareOf(f.order, "Ben").total;
    const missing = await f.as.creator("POST", `${f.url}/adjustments`, {
      kind: "missing",
      lineIndex: f.benLine,
    });
    const dropped = shareOf(missing.json().order, "Ben");
    expect(dropped).toMatchObject({ total: 0, credit: paid, status: "confirmed" });
    // Delivered after all, at a higher price: Ben owes only what his payment does not cover.
    const line = f.order.lines[f.benLine]!;
    const price = await f.as.creator("POST", `${f.url}/adjustments`, {
      kind: "price",
      lineIndex: f.benLine,
      unitPrice: line.unitPrice + 1,
    });
    expect(price.statusCode, price.body).toBe(201);
    const grown = shareOf(price.json().order, "Ben");
    expect(grown).toMatchObject({ status: "unpaid", credit: 0, paid });
    const rest = cents(grown.total) - cents(paid);
    expect(rest).toBeGreaterThan(0);
    const balances = (await f.as.participant("GET", "/api/balances")).json().balances;
    expect(cents(balances[0].amount)).toBe(-rest);
    // The pay panel asks for the rest too.
    const payInfo = (await f.as.participant("GET", `${f.url}/pay-info`)).json();
    expect(cents(payInfo.amount)).toBe(rest);
    // Paying again pays the rest: the log says so.
    expect((await f.as.participant("POST", `${f.url}/paid`)).statusCode).toBe(200);
    const log = (await f.as.creator("GET", `/api/sessions/${f.sessionId}/activity`)).json().events;
    const payments = log.filter((e: { type: string }) => e.type === "order.paid");
    expect(cents(payments.at(-1).amount)).toBe(rest);
  });

  it("a share adjusted to nothing with nothing paid is settled: nothing to pay, owed nowhere; raised again, it is owed", async () => {
    const f = await placed();
    const ben = f.people.participant.userId;
    const res = await f.as.creator("POST", `${f.url}/adjustments`, {
      kind: "missing",
      lineIndex: f.benLine,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(shareOf(res.json().order, "Ben")).toMatchObject({
      total: 0,
      paid: 0,
      credit: 0,
      status: "confirmed",
      settledAs: null,
    });
    // Saying "paid" changes nothing and tells nobody; no balance, no plan, nothing to pay.
    expect((await f.as.participant("POST", `${f.url}/paid`)).statusCode).toBe(200);
    expect(shareOf((await f.as.participant("GET", f.url)).json().order, "Ben").status).toBe(
      "confirmed",
    );
    expect((await f.as.participant("GET", "/api/balances")).json().balances).toEqual([]);
    expect((await f.as.creator("GET", "/api/balances")).json().balances).toEqual([]);
    const plan = await f.as.participant("GET", "/api/balances/settle-plan");
    expect(plan.json().transfers).toEqual([]);
    expect(cents((await f.as.participant("GET", `${f.url}/pay-info`)).json().amount)).toBe(0);
    const log = (await f.as.creator("GET", `/api/sessions/${f.sessionId}/activity`)).json().events;
    expect(log.some((e: { type: string }) => e.type === "order.paid")).toBe(false);
    // Delivered after all: Ben owes his share again.
    const line = f.order.lines[f.benLine]!;
    const back = await f.as.creator("POST", `${f.url}/adjustments`, {
      kind: "quantity",
      lineIndex: f.benLine,
      quantity: line.quantity,
    });
    expect(back.statusCode, back.body).toBe(201);
    const owed = shareOf(back.json().order, "Ben");
    expect(owed).toMatchObject({ status: "unpaid", paid: 0, settledAs: null });
    expect(owed.total).toBe(shareOf(f.order, "Ben").total);
    const balances = (await f.as.participant("GET", "/api/balances")).json().balances;
    expect(balances.map((b: { user: { _id: string } }) => b.user._id)).toEqual([
      f.people.creator.userId,
    ]);
    expect(cents(balances[0].amount)).toBe(-cents(owed.total));
    const payee = (await f.as.creator("GET", "/api/balances")).json().balances;
    expect(payee.map((b: { user: { _id: string } }) => b.user._id)).toEqual([ben]);
  });

  it("bad input is a 400 naming the field, and nothing is stored", async () => {
    const f = await placed();
    const line = f.order.lines[f.benLine]!;
    const cases: [Record<string, unknown>, string][] = [
      [
        { kind: "refund", lineIndex: f.benLine, amount: line.unitPrice * line.quantity + 0.01 },
        "amount",
      ],
      [{ kind: "missing", lineIndex: f.order.lines.length }, "lineIndex"],
      [{ kind: "lost", lineIndex: 0 }, "kind"],
      [{ kind: "order_fee", amount: -(f.order.total + 1) }, "amount"],
      [{ kind: "price", lineIndex: 0, unitPrice: -1 }, "unitPrice"],
      [{ kind: "price", lineIndex: 0, unitPrice: 1.234 }, "unitPrice"],
      [{ kind: "substituted", lineIndex: 0, unitPrice: 1 }, "name"],
      [{ kind: "quantity", lineIndex: 0 }, "quantity"],
      [{ kind: "refund", lineIndex: 0, amount: 0 }, "amount"],
    ];
    for (const [body, field] of cases) {
      const res = await f.as.creator("POST", `${f.url}/adjustments`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.keys(res.json().fields ?? {}), JSON.stringify(body)).toContain(field);
    }
    const order = (await f.as.creator("GET", f.url)).json().order as Order;
    expect(order.adjustments).toEqual([]);
    // Only the checkout mails' state may have moved meanwhile.
    const figures = (o: Order) =>
      o.split.map(({ name, total, status, credit }) => ({ name, total, status, credit }));
    expect(figures(order)).toEqual(figures(f.order));
    expect(order.total).toBe(f.order.total);
    const log = (await f.as.creator("GET", `/api/sessions/${f.sessionId}/activity`)).json().events;
    expect(log.some((e: { type: string }) => e.type === "order.adjusted")).toBe(false);
  });

  it("two adjustments at once both land, each re-split from the other's figures", async () => {
    const f = await placed();
    const [a, b] = await Promise.all([
      f.as.creator("POST", `${f.url}/adjustments`, { kind: "order_fee", amount: 1 }),
      f.as.creator("POST", `${f.url}/adjustments`, { kind: "order_fee", amount: 2 }),
    ]);
    expect([a!.statusCode, b!.statusCode]).toEqual([201, 201]);
    const order = (await f.as.creator("GET", f.url)).json().order as Order;
    expect(order.adjustments).toHaveLength(2);
    expect(cents(order.total)).toBe(cents(f.order.total) + 300);
    expectExact(order);
  });

  it("an order placed before checkout kept its members re-splits the same way", async () => {
    const f = await placed();
    await t.database.db.update(orders).set({ members: null }).where(eq(orders.id, f.order._id));
    const res = await f.as.creator("POST", `${f.url}/adjustments`, {
      kind: "price",
      lineIndex: 0,
      unitPrice: 0.99,
    });
    expect(res.statusCode, res.body).toBe(201);
    // What the members kept at checkout (Ann the creator, Ben a participant) would give.
    const ann = f.people.creator.userId;
    const ben = f.people.participant.userId;
    const [{ cartId, policy }] = (await t.database.db
      .select({ cartId: orders.cartId, policy: orders.policy })
      .from(orders)
      .where(eq(orders.id, f.order._id))) as [{ cartId: string; policy: SplitPolicy }];
    const expected = resplit(
      {
        lines: f.order.lines.map((l) => ({
          name: l.name,
          unitPrice: cents(l.unitPrice),
          quantity: l.quantity,
          addedBy: l.addedBy.name === "Ann" ? ann : ben,
        })),
        members: [
          { userId: ann, name: "Ann", role: "creator" },
          { userId: ben, name: "Ben", role: "participant" },
        ],
        // The policy the order kept (a Friends session's preset: by adder, fees equal).
        policy,
      },
      [{ kind: "price", lineIndex: 0, unitPrice: 99 }],
      cartId,
    );
    const order = res.json().order as Order;
    expect(order.split.map((s) => [s.name, cents(s.total)]).sort()).toEqual(
      expected.shares.map((s) => [s.name, s.total]).sort(),
    );
    expectExact(order);
  });

  it("tells the order's people live, and nobody else", async () => {
    const f = await placed();
    const base = await listenForLive(t);
    const ben = await signedIn(base, f.people.participant.token);
    const sam = await signedIn(base, f.people.stranger.token);
    await f.as.creator("POST", `${f.url}/adjustments`, { kind: "missing", lineIndex: f.benLine });
    expect(await ben.next((m) => m.type === "order.updated")).toMatchObject({
      orderId: f.order._id,
    });
    expect(sam.messages.filter((m) => m.type.startsWith("order."))).toEqual([]);
    for (const peer of [ben, sam]) peer.socket.close();
  });

  it("a member removed from the session still sees their adjusted share and pays it", async () => {
    const f = await placed();
    await t.database.db
      .delete(sessionMembers)
      .where(
        and(
          eq(sessionMembers.sessionId, f.sessionId),
          eq(sessionMembers.userId, f.people.participant.userId),
        ),
      );
    await f.as.creator("POST", `${f.url}/adjustments`, {
      kind: "refund",
      lineIndex: f.benLine,
      amount: 0.5,
    });
    const seen = await f.as.participant("GET", f.url);
    expect(seen.statusCode).toBe(200);
    const share = shareOf(seen.json().order, "Ben");
    expect(cents(share.total)).toBeLessThan(cents(share.originalTotal));
    expect((await f.as.participant("POST", `${f.url}/paid`)).statusCode).toBe(200);
  });
});

describe("POST /api/orders/:id/adjustments/:adjId/dispute", () => {
  it("a member with a share disputes with a comment; the payee sees it; others may not", async () => {
    const f = await placed();
    const made = await f.as.creator("POST", `${f.url}/adjustments`, {
      kind: "missing",
      lineIndex: f.benLine,
    });
    const adjId = (made.json().order as Order).adjustments[0]!._id;
    const url = `${f.url}/adjustments/${adjId}/dispute`;
    const res = await f.as.participant("POST", url, { comment: "It was in the bag" });
    expect(res.statusCode, res.body).toBe(200);
    const seen = (await f.as.creator("GET", f.url)).json().order as Order;
    expect(seen.adjustments[0]!.disputes).toMatchObject([
      { comment: "It was in the bag", by: { name: "Ben" } },
    ]);
    expect((await f.as.creator("POST", url, { comment: "no" })).statusCode).toBe(403);
    expect((await f.as.stranger("POST", url, { comment: "no" })).statusCode).toBe(404);
    const unknown = `${f.url}/adjustments/${crypto.randomUUID()}/dispute`;
    expect((await f.as.participant("POST", unknown, { comment: "?" })).statusCode).toBe(404);
    const empty = await f.as.participant("POST", url, { comment: "  " });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().fields).toHaveProperty("comment");
    // Ben heard of the change, Ann of the dispute.
    await t.app.idle();
    const titles = async (as: typeof f.as.creator) =>
      (await as("GET", "/api/notifications"))
        .json()
        .notifications.map((n: { title: string; body: string }) => `${n.title}: ${n.body}`);
    expect(await titles(f.as.participant)).toContainEqual(
      expect.stringMatching(
        /was changed after checkout: Ann recorded a change .* your share is now \$0\.00/,
      ),
    );
    expect(await titles(f.as.creator)).toContainEqual(
      expect.stringMatching(/Ben disputes a change to CRT-\d+: It was in the bag/),
    );
    const log = (await f.as.creator("GET", `/api/sessions/${f.sessionId}/activity`)).json().events;
    expect(log.filter((e: { type: string }) => e.type === "order.disputed")).toMatchObject([
      { comment: "It was in the bag", kind: "missing", actor: { name: "Ben" } },
    ]);
  });
});

describe("the receipt after adjustments", () => {
  it("lists the changes, the original and adjusted totals and each share's change", async () => {
    const f = await placed();
    await f.as.creator("POST", `${f.url}/adjustments`, { kind: "missing", lineIndex: f.benLine });
    const pdf = await f.as.participant("GET", `${f.url}/receipt.pdf`);
    expect(pdf.statusCode).toBe(200);
    const text = (await pdfText(new Uint8Array(pdf.rawPayload))).replace(/\s+/g, " ");
    expect(text).toContain("Changes after checkout");
    expect(text).toContain(`${f.order.lines[f.benLine]!.name}: not delivered`);
    expect(text).toContain("Original total at checkout");
    expect(text).toContain("Not delivered: now $0.00");
    expect(text).toContain("Was ");
  });
});
