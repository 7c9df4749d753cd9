/**
 * Several payers named at checkout (PGlite and PostgreSQL): checked by the same rule as the
 * payee's later change (PUT /orders/:id/payers), written in the checkout's transaction; bad
 * payers refuse the checkout and nothing is written.
 */
import { ActivityEntrySchema, type OrderShare } from "@cartner/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devMails } from "../../src/db/schema.ts";
import { cents, createTestApp, type TestApp } from "../helpers.ts";
import { netsOf, threeWayCart } from "../payers-support.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

type Cart = Awaited<ReturnType<typeof threeWayCart>>;

/** The cart's total as the summary shows it, in cents (the checkout's total: prices hold). */
async function totalOf(f: Cart) {
  return cents((await f.as.creator("GET", `/api/sessions/${f.sessionId}/summary`)).json().total);
}

const usd = (n: number) =>
  new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(n);

const checkout = (f: Cart, body?: unknown) =>
  f.as.creator("POST", `/api/sessions/${f.sessionId}/checkout`, body);

/** Nothing was written: no order for the session, the session still active, its cart open. */
async function expectNothingWritten(f: Cart) {
  const { orders } = (await f.as.creator("GET", "/api/orders")).json();
  expect(orders.filter((o: { sessionId: string }) => o.sessionId === f.sessionId)).toEqual([]);
  const { session } = (await f.as.creator("GET", `/api/sessions/${f.sessionId}`)).json();
  expect(session.status).toBe("active");
  const { events } = (await f.as.creator("GET", `/api/sessions/${f.sessionId}/activity`)).json();
  expect(events.filter((e: { type: string }) => e.type === "order.placed")).toEqual([]);
}

describe("POST /sessions/:id/checkout with payers", () => {
  it("owes every share to the payers in proportion, to the cent, as the payers set afterwards would", async () => {
    const f = await threeWayCart(t);
    const total = await totalOf(f);
    const annPaid = Math.round(total * 0.6);
    const payers = [
      { userId: f.ids.ann, amount: annPaid / 100 },
      { userId: f.ids.cat, amount: (total - annPaid) / 100 },
    ];
    const res = await checkout(f, { payers });
    expect(res.statusCode, res.body).toBe(201);
    const { order } = res.json();
    expect(cents(order.total)).toBe(total);
    expect(order.payers).toEqual([
      { user: { _id: f.ids.ann, name: "Ann" }, amount: annPaid / 100 },
      { user: { _id: f.ids.cat, name: "Cat" }, amount: (total - annPaid) / 100 },
    ]);
    const share = (name: string) =>
      cents(order.split.find((s: OrderShare) => s.name === name).total);
    const of = (b: Record<string, number>, name: string) => b[name] ?? 0;
    const ann = await netsOf(f.as.creator);
    const ben = await netsOf(f.as.participant);
    const cat = await netsOf(f.asCat);
    // Ben owes both payers his whole share between them, each in proportion to what they paid.
    expect(-(of(ben, "Ann") + of(ben, "Cat"))).toBe(share("Ben"));
    expect(Math.abs(-of(ben, "Ann") - (share("Ben") * annPaid) / total)).toBeLessThan(1);
    expect(of(ann, "Ben")).toBe(-of(ben, "Ann"));
    expect(of(cat, "Ben")).toBe(-of(ben, "Cat"));
    expect(of(ann, "Cat")).toBe(-of(cat, "Ann"));
    // Each payer is owed what they paid less their own share, to the cent.
    expect(of(ann, "Ben") + of(ann, "Cat")).toBe(annPaid - share("Ann"));
    expect(of(cat, "Ben") + of(cat, "Ann")).toBe(total - annPaid - share("Cat"));
    // Ann owes Cat her part and Cat owes Ann hers; the book nets the two, so only the one who
    // owes the difference has an open share (even the payee's may be).
    const annOwesCat = of(ann, "Cat") < 0;
    const status = Object.fromEntries(order.split.map((s: OrderShare) => [s.name, s.status]));
    expect(status).toEqual({
      Ann: annOwesCat ? "unpaid" : "confirmed",
      Ben: "unpaid",
      Cat: annOwesCat ? "confirmed" : "unpaid",
    });

    // The same split set by the payee afterwards gives the same balances.
    const g = await threeWayCart(t);
    expect(await totalOf(g)).toBe(total);
    const placed = (await checkout(g)).json().order;
    const put = await g.as.creator("PUT", `/api/orders/${placed._id}/payers`, {
      payers: [
        { userId: g.ids.ann, amount: annPaid / 100 },
        { userId: g.ids.cat, amount: (total - annPaid) / 100 },
      ],
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(await netsOf(g.as.participant)).toEqual(ben);
    expect(await netsOf(g.as.creator)).toEqual(ann);

    // The activity log says who paid.
    const { events } = (
      await f.as.participant("GET", `/api/sessions/${f.sessionId}/activity`)
    ).json();
    const entry = events.find((e: { type: string }) => e.type === "order.placed");
    expect(entry.payers).toEqual([
      { name: "Ann", amount: annPaid / 100 },
      { name: "Cat", amount: (total - annPaid) / 100 },
    ]);
    expect(ActivityEntrySchema.safeParse(entry).error).toBeUndefined();

    // Ben hears who paid and what he owes; Cat, a payer, both what she owes and is owed.
    await t.app.idle();
    const notice = async (as: Cart["asCat"]) =>
      (await as("GET", "/api/notifications"))
        .json()
        .notifications.find(
          (n: { kind: string; orderId?: string }) =>
            n.kind === "checkout" && n.orderId === order._id,
        ).body as string;
    expect(await notice(f.as.participant)).toMatch(
      new RegExp(`, paid by Ann and Cat: you owe \\${usd(share("Ben") / 100)}$`),
    );
    expect(await notice(f.asCat)).toMatch(
      /paid by Ann and Cat: you owe \$[\d.,]+; the others owe you \$[\d.,]+$/,
    );
    // The checkout mail names the payers instead of "Pay Ann your share".
    const mail = (
      await t.database.db
        .select()
        .from(devMails)
        .where(eq(devMails.recipient, f.people.participant.email))
    ).find((m) => m.subject.includes(order.number));
    expect(mail?.text).toContain(
      `Paid at the shop by Ann ${usd(annPaid / 100)}, Cat ${usd((total - annPaid) / 100)}`,
    );
    expect(mail?.text).not.toContain("Pay Ann your share");
  });

  it("takes the payee alone with the whole total, or no payers, as the payee paying it all", async () => {
    for (const body of [undefined, {}]) {
      const f = await threeWayCart(t);
      const total = await totalOf(f);
      const res = await checkout(f, body);
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().order.payers).toEqual([
        { user: { _id: f.ids.ann, name: "Ann" }, amount: total / 100 },
      ]);
    }
    const f = await threeWayCart(t);
    const total = await totalOf(f);
    const res = await checkout(f, { payers: [{ userId: f.ids.ann, amount: total / 100 }] });
    expect(res.statusCode, res.body).toBe(201);
    const { order } = res.json();
    expect(order.split.find((s: OrderShare) => s.name === "Ann").status).toBe("confirmed");
    expect(await netsOf(f.as.participant)).toEqual({
      Ann: -cents(order.split.find((s: OrderShare) => s.name === "Ben").total),
    });
  });

  it("refuses a payer who is not the payee or a member with a share (400), writing nothing", async () => {
    const f = await threeWayCart(t);
    const total = await totalOf(f);
    const half = Math.floor(total / 2);
    const outsiders = [
      ["a stranger", f.people.stranger.userId],
      ["a viewer (no share)", f.people.viewer.userId],
      ["a pending member", f.people.pending.userId],
    ] as const;
    for (const [what, userId] of outsiders) {
      const res = await checkout(f, {
        payers: [
          { userId: f.ids.ann, amount: half / 100 },
          { userId, amount: (total - half) / 100 },
        ],
      });
      expect(res.statusCode, what).toBe(400);
      expect(res.json().fields?.payers, what).toMatch(/payee or a member with a share/);
    }
    await expectNothingWritten(f);
  });

  it("refuses amounts that do not add up to the total to the cent (400), writing nothing and using up no order number", async () => {
    const before = await threeWayCart(t);
    const first = (await checkout(before)).json().order.number as string;

    const f = await threeWayCart(t);
    const total = await totalOf(f);
    const half = Math.floor(total / 2);
    for (const off of [-1, 1]) {
      const res = await checkout(f, {
        payers: [
          { userId: f.ids.ann, amount: half / 100 },
          { userId: f.ids.ben, amount: (total - half + off) / 100 },
        ],
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().fields?.payers).toMatch(/add up to .*the order's total is/);
    }
    await expectNothingWritten(f);

    // A good split afterwards goes through, and its number follows the last order's.
    const res = await checkout(f, {
      payers: [
        { userId: f.ids.ann, amount: half / 100 },
        { userId: f.ids.ben, amount: (total - half) / 100 },
      ],
    });
    expect(res.statusCode, res.body).toBe(201);
    const number = (n: string) => Number(n.replace(/\D/g, ""));
    expect(number(res.json().order.number)).toBe(number(first) + 1);
  });

  it("refuses malformed payers with 400 naming payers before looking at the cart", async () => {
    const f = await threeWayCart(t);
    const total = await totalOf(f);
    const bad: [string, unknown, RegExp][] = [
      [
        "the same payer twice",
        {
          payers: [
            { userId: f.ids.ann, amount: 1 },
            { userId: f.ids.ann, amount: total / 100 - 1 },
          ],
        },
        /once/,
      ],
      ["no payers", { payers: [] }, /At least one/],
      [
        "an amount of zero",
        {
          payers: [
            { userId: f.ids.ann, amount: total / 100 },
            { userId: f.ids.ben, amount: 0 },
          ],
        },
        /more than 0/,
      ],
      ["three decimals", { payers: [{ userId: f.ids.ann, amount: 1.001 }] }, /two decimals/],
    ];
    for (const [what, body, message] of bad) {
      const res = await checkout(f, body);
      expect(res.statusCode, what).toBe(400);
      expect(JSON.stringify(res.json().fields), what).toMatch(message);
    }
    const extra = await checkout(f, { payers: undefined, tip: 1 });
    expect(extra.statusCode).toBe(400);
    await expectNothingWritten(f);
  });

  it("is the creator's alone: a participant naming payers is refused (403)", async () => {
    const f = await threeWayCart(t);
    const total = await totalOf(f);
    const res = await f.as.participant("POST", `/api/sessions/${f.sessionId}/checkout`, {
      payers: [{ userId: f.ids.ben, amount: total / 100 }],
    });
    expect(res.statusCode).toBe(403);
    await expectNothingWritten(f);
  });
});
