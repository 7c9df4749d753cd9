/**
 * Orders kept by version (features/orders/reading/kept.ts, decision 045), on PGlite and
 * PostgreSQL: after every kind of write to what an order shows, the order page, My Orders, the
 * CSV of all orders and the balances answer what the database holds now, never a view kept from
 * before. Each answer is compared with the order built afresh from its rows (orderOf reads no
 * kept view), after the kept ones were read once so that a stale one would be there to serve.
 */
import { OrderSchema, type Order } from "@cartner/contract";
import { isDeepStrictEqual } from "node:util";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { orderOf } from "../../src/features/orders/index.ts";
import { PASSWORD, secondInstance, type Client, type TestApp, createTestApp } from "../helpers.ts";
import { threeWayOrder } from "../payers-support.ts";

/** One secret for both instances, as docs/deploy.md says: a token from one works on the other. */
const env = { JWT_SECRET: "orders-kept-".padEnd(48, "x") };
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env });
});
afterAll(async () => t.close());

/** The order as built from its rows now, as the API sends it. */
async function builtNow(orderId: string): Promise<Order> {
  const order = await orderOf(t.database.db, orderId);
  return JSON.parse(JSON.stringify(OrderSchema.encode(order!))) as Order;
}

/** Reads everything that keeps something of the order, so a stale copy would be at hand. */
async function readAll(as: Client, orderId: string) {
  const one = await as("GET", `/api/orders/${orderId}`);
  expect(one.statusCode, one.body).toBe(200);
  const list = await as("GET", "/api/orders");
  expect(list.statusCode, list.body).toBe(200);
  const balances = await as("GET", "/api/balances");
  expect(balances.statusCode, balances.body).toBe(200);
  return {
    one: one.json().order as Order,
    listed: (list.json().orders as Order[]).find((o) => o._id === orderId)!,
    balances: balances.json().balances as { user: { _id: string }; amount: number }[],
  };
}

/**
 * The answers, read twice (the second from what the first kept), equal the order built from its
 * rows right after them. The checkout mails are sent by jobs that write each share's mail status
 * meanwhile: an answer that differs is read again (an answer kept from before a write never
 * equals the order built after it, however often it is read).
 */
async function expectCurrent(as: Client, orderId: string) {
  for (let attempt = 1; ; attempt++) {
    const first = await readAll(as, orderId);
    const second = await readAll(as, orderId);
    const now = await builtNow(orderId);
    const answers = [first.one, first.listed, second.one, second.listed];
    if (answers.every((a) => isDeepStrictEqual(a, now)) || attempt === 20) {
      for (const a of answers) expect(a).toEqual(now);
      return now;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

const statusOf = (order: Order, userId: string) =>
  order.split.find((s) => s.userId === userId)!.status;

describe("an order kept by version is never answered stale", () => {
  it("after a claim, a confirmation, an adjustment, a dispute, new payers and a transfer", async () => {
    const f = await threeWayOrder(t);
    const id = f.order._id;
    const url = `/api/orders/${id}`;
    await expectCurrent(f.as.creator, id);
    await expectCurrent(f.as.participant, id);

    // Two payers: the payers' rows and the book.
    const half = Math.round(f.order.total * 50) / 100;
    const payers = await f.as.creator("PUT", `${url}/payers`, {
      payers: [
        { userId: f.ids.ann, amount: half },
        { userId: f.ids.cat, amount: Math.round((f.order.total - half) * 100) / 100 },
      ],
    });
    expect(payers.statusCode, payers.body).toBe(200);
    let now = await expectCurrent(f.as.participant, id);
    expect(now.payers).toHaveLength(2);

    // A claim ("I've paid"): an entry of the book.
    expect((await f.as.participant("POST", `${url}/paid`)).statusCode).toBe(200);
    now = await expectCurrent(f.as.creator, id);
    expect(statusOf(now, f.ids.ben)).toBe("paid");

    // The payee confirms it: another entry.
    const confirmed = await f.as.creator("POST", `${url}/confirm/${f.ids.ben}`, {});
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    now = await expectCurrent(f.as.participant, id);
    // Settled towards Ann; what Ben owes Cat, the other payer, stays open.
    const benToAnn = now.parts.find((p) => p.debtor === f.ids.ben && p.payer === f.ids.ann)!;
    expect(benToAnn.open).toBe(0);

    // An adjustment: the order's row, its shares and the book.
    const adjusted = await f.as.creator("POST", `${url}/adjustments`, {
      kind: "refund",
      lineIndex: 0,
      amount: 0.5,
      note: "Dented",
    });
    expect(adjusted.statusCode, adjusted.body).toBe(201);
    now = await expectCurrent(f.asCat, id);
    expect(now.adjustments).toHaveLength(1);

    // A dispute: the order's adjustments only.
    const adjId = now.adjustments[0]!._id;
    const disputed = await f.asCat("POST", `${url}/adjustments/${adjId}/dispute`, {
      comment: "It was fine",
    });
    expect(disputed.statusCode, disputed.body).toBe(200);
    now = await expectCurrent(f.as.creator, id);
    expect(now.adjustments[0]!.disputes).toHaveLength(1);

    // A transfer recorded on the balances page: entries on every order it settles.
    const plan = await f.asCat("GET", "/api/balances/settle-plan");
    const owed = (
      plan.json().transfers as { from: { _id: string }; to: { _id: string }; amount: number }[]
    ).find((p) => p.from._id === f.ids.cat);
    if (owed) {
      const sent = await f.asCat("POST", "/api/balances/transfers", {
        to: owed.to._id,
        amount: owed.amount,
      });
      expect(sent.statusCode, sent.body).toBe(201);
    }
    now = await expectCurrent(f.as.creator, id);
    if (owed) {
      expect(now.parts.filter((p) => p.debtor === f.ids.cat).every((p) => p.open === 0)).toBe(true);
    }
  });

  it("after a share's mail status changes and a member deletes their account", async () => {
    const f = await threeWayOrder(t);
    const id = f.order._id;
    await expectCurrent(f.as.creator, id);

    // The mail job writes the share's status (its own writer, outside any request).
    await t.database.db.execute(
      sql`update order_shares set mail = 'failed' where order_id = ${id} and user_id = ${f.ids.cat}`,
    );
    let now = await expectCurrent(f.as.creator, id);
    expect(now.split.find((s) => s.userId === f.ids.cat)!.mail).toBe("failed");

    const gone = await f.asCat("DELETE", "/api/users/me", {
      password: PASSWORD,
      acknowledgeUnsettled: true,
    });
    expect(gone.statusCode, gone.body).toBe(204);
    now = await expectCurrent(f.as.creator, id);
    expect(now.split.find((s) => s.userId === f.ids.cat)!.accountDeleted).toBe(true);
  });

  it("balances and the CSV of all orders follow a payment at once", async () => {
    const f = await threeWayOrder(t);
    const id = f.order._id;
    const before = await readAll(f.as.creator, id);
    const owedByBen = before.balances.find((b) => b.user._id === f.ids.ben)!.amount;
    expect(owedByBen).toBeGreaterThan(0);
    const csvBefore = (await f.as.creator("GET", "/api/orders/export.csv")).body;
    expect(csvBefore).toContain(",unpaid,");

    await f.as.participant("POST", `/api/orders/${id}/paid`);
    await f.as.creator("POST", `/api/orders/${id}/confirm/${f.ids.ben}`, { how: "cash" });
    const after = await readAll(f.as.creator, id);
    expect(after.balances.find((b) => b.user._id === f.ids.ben)).toBeUndefined();
    const csvAfter = (await f.as.creator("GET", "/api/orders/export.csv")).body;
    const benRow = csvAfter
      .split("\r\n")
      .find((r) => r.includes(",owed to you,") && r.includes(",cash,"));
    expect(benRow).toBeDefined();
  });

  it.runIf(process.env.TEST_DB === "postgres")(
    "a write through another instance is seen by this one's kept views",
    async () => {
      const f = await threeWayOrder(t);
      const id = f.order._id;
      await expectCurrent(f.as.creator, id);
      const other = await secondInstance(t, env);
      try {
        const paid = await other.inject({
          method: "POST",
          url: `/api/orders/${id}/paid`,
          headers: { authorization: `Bearer ${f.people.participant.token}` },
        });
        expect(paid.statusCode, paid.body).toBe(200);
      } finally {
        await other.close();
      }
      const now = await expectCurrent(f.as.creator, id);
      expect(statusOf(now, f.ids.ben)).toBe("paid");
    },
  );
});
