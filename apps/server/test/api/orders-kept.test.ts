/**
 * Orders kept by version (features/orders/reading/kept.ts, decision 045), on PGlite and
 * PostgreSQL: after every kind of write to what an order shows, the order page, My Orders, the
 * CSV of all orders and the balances answer what the database holds now, never a view kept from
 * before. Each answer is compared with the order built afresh from its rows (orderOf reads no
 * kept view), after the kept ones were read once so that a stale one would be there to serve.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PASSWORD, type Client, type TestApp, createTestApp } from "../helpers.ts";
import { expectCurrent as current, readAll, statusOf } from "../kept-support.ts";
import { threeWayOrder } from "../payers-support.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const expectCurrent = (as: Client, orderId: string) => current(t, as, orderId);

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
});
