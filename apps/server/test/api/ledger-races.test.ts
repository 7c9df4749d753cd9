/**
 * The ledger under concurrency (PGlite and PostgreSQL): every money event reads the book and
 * appends to it under its session's lock, so the same transfer sent twelve times at once records
 * once, and a write-off racing a transfer of the same debt ends in exactly one of them.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { executeRows } from "../../src/db/client.ts";
import { cents, createTestApp, filledSession, type TestApp } from "../helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

/** Ann (payee) and Ben, who owes her his share. */
async function owed() {
  const f = await filledSession(t);
  const placed = await f.as.creator("POST", `/api/sessions/${f.sessionId}/checkout`);
  expect(placed.statusCode, placed.body).toBe(201);
  const order = placed.json().order as { _id: string; split: { name: string; total: number }[] };
  const benShare = order.split.find((s) => s.name === "Ben")!.total;
  return { ...f, order, benShare };
}

/** The book's entries of an order, by kind. */
async function kindsOf(orderId: string): Promise<string[]> {
  const rows = await executeRows<{ kind: string }>(
    t.database.db,
    sql`select kind from ledger_entries where order_id = ${orderId} order by seq`,
  );
  return rows.map((r) => r.kind);
}

/** What Ben owes Ann on his balances (cents, positive: he owes). */
async function benOwes(f: Awaited<ReturnType<typeof owed>>): Promise<number> {
  const { balances } = (await f.as.participant("GET", "/api/balances")).json() as {
    balances: { user: { name: string }; amount: number }[];
  };
  return 0 - cents(balances.find((b) => b.user.name === "Ann")?.amount ?? 0);
}

describe("the ledger under concurrency", () => {
  it("records the same transfer sent twelve times at once exactly once, with or without a key", async () => {
    for (const withKey of [true, false]) {
      const f = await owed();
      const body = { to: f.people.creator.userId, amount: f.benShare };
      const answers = await Promise.all(
        Array.from({ length: 12 }, () =>
          t.app.inject({
            method: "POST",
            url: "/api/balances/transfers",
            headers: {
              authorization: `Bearer ${f.people.participant.token}`,
              ...(withKey ? { "idempotency-key": `transfer-${f.order._id}` } : {}),
            },
            payload: body,
          }),
        ),
      );
      const ok = answers.filter((a) => a.statusCode === 201);
      // With one key every answer is the first's replay; without, the others find nothing open.
      expect(ok.length, answers.map((a) => a.statusCode).join()).toBe(withKey ? 12 : 1);
      expect(answers.every((a) => a.statusCode < 500)).toBe(true);
      expect(await kindsOf(f.order._id)).toEqual(["share", "transfer"]);
      expect(await benOwes(f)).toBe(0);
    }
  });

  it("a write-off racing a transfer of the same debt ends in exactly one of them", async () => {
    for (let round = 0; round < 3; round++) {
      const f = await owed();
      const ben = f.people.participant.userId;
      const [off, paid] = await Promise.all([
        f.as.creator("POST", `/api/orders/${f.order._id}/confirm/${ben}`, { how: "written_off" }),
        f.as.participant("POST", "/api/balances/transfers", {
          to: f.people.creator.userId,
          amount: f.benShare,
        }),
      ]);
      expect([off.statusCode, paid.statusCode]).toContain(off.statusCode === 200 ? 200 : 201);
      const kinds = (await kindsOf(f.order._id)).filter((k) => k !== "share");
      // One settlement, whichever came first; the other found nothing left to settle.
      expect(kinds.length, kinds.join()).toBe(1);
      expect(["written_off", "transfer"]).toContain(kinds[0]);
      if (kinds[0] === "transfer") expect(paid.statusCode).toBe(201);
      else expect(paid.statusCode).toBeGreaterThanOrEqual(400);
      expect(await benOwes(f)).toBe(0);
    }
  });
});
