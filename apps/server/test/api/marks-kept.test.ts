/**
 * Balances, the settle plan and the CSV of all orders are kept while their people's marks read the
 * same (decision 061): every kind of write the kept answers' tests make (a checkout, payers set
 * and taken back, a claim, confirmations by transfer, cash and write-off, an adjustment, a
 * dispute, a transfer from the balances page, a share's mail status, a new name, a new time zone,
 * an account deleted) marks everyone on the order it writes, or takes off one, and after it
 * every reader's answers are the ones made afresh, never the ones kept from before it.
 */
import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { executeRows } from "../../src/db/client.ts";
import { keepAnswers } from "../../src/lib/kept-answers.ts";
import { meter } from "../../src/lib/metrics.ts";
import { PASSWORD, createTestApp, type Client, type TestApp } from "../helpers.ts";
import { threeWayOrder } from "../payers-support.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());
afterEach(() => vi.restoreAllMocks());

/** The sum of the person's marks' weights. */
async function marksOf(userId: string): Promise<number> {
  const [found] = await executeRows<{ sum: string }>(
    t.database.db,
    sql`select coalesce(sum(weight), 0)::text as sum from order_marks where person_id = ${userId}`,
  );
  return Number(found!.sum);
}

const KEPT = ["/api/balances", "/api/balances/settle-plan", "/api/orders/export.csv"] as const;

/** Every kept answer of each reader (and one plan `with` someone), as texts. */
async function answersOf(readers: Record<string, Client>, withId: string) {
  const all: Record<string, string> = {};
  for (const [name, as] of Object.entries(readers)) {
    for (const path of [...KEPT, `/api/balances/settle-plan?with=${withId}`]) {
      const res = await as("GET", path);
      expect(res.statusCode, `${name} ${path}: ${res.body}`).toBe(200);
      all[`${name} ${path}`] = res.body;
    }
  }
  return all;
}

describe("answers kept by their people's marks", () => {
  it("follow every kind of write, for everyone on the order and no one else", async () => {
    const f = await threeWayOrder(t);
    const { ann, ben, cat } = f.ids;
    const sam = f.people.stranger.userId;
    const url = `/api/orders/${f.order._id}`;
    const readers = { ann: f.as.creator, ben: f.as.participant, cat: f.asCat, sam: f.as.stranger };
    const withId = cat;

    // Read twice: the second read is every answer kept, so the test measures what kept ones do.
    await answersOf(readers, withId);
    const lookups = vi.spyOn(meter, "cacheLookup");
    await answersOf(readers, withId);
    const kept = lookups.mock.calls.filter(([cache]) =>
      ["balances", "settle_plans", "order_csv"].includes(cache),
    );
    expect(kept.length).toBe(16);
    expect(kept.every(([, hit]) => hit)).toBe(true);

    /**
     * Runs the write; the marks of `moved` grow and Sam's (on no order) do not; then every
     * reader's answers read through what was kept before it equal those made afresh.
     */
    const step = async (what: string, moved: string[], write: () => Promise<void>) => {
      const before = await Promise.all([...moved, sam].map(marksOf));
      await write();
      await t.app.idle();
      const after = await Promise.all([...moved, sam].map(marksOf));
      moved.forEach((_, i) => expect(after[i], `${what}: marks`).toBeGreaterThan(before[i]!));
      expect(after.at(-1), `${what}: Sam's marks`).toBe(before.at(-1));
      const answered = await answersOf(readers, withId);
      keepAnswers(t.database.db); // nothing kept: every answer made afresh
      expect(answered, what).toEqual(await answersOf(readers, withId));
    };
    const ok = async (res: Promise<{ statusCode: number; body: string }>, code = 200) => {
      const done = await res;
      expect(done.statusCode, done.body).toBe(code);
    };

    // An order between Ann and Cat only: beyond Ben's orders, in his plan's pair of others.
    await step("a checkout", [ann, cat], async () => {
      const g = await f.as.creator("POST", "/api/sessions", {
        sessionName: "Just us",
        sessionType: "Friends",
        participants: "3+",
        passcode: "tulip",
      });
      const { _id: sessionId, sessionCode, cartId } = g.json().session;
      await ok(f.asCat("POST", "/api/sessions/join/code", { sessionCode, passcode: "tulip" }), 202);
      await f.as.creator("POST", `/api/sessions/approve/${sessionCode}`, { userId: cat });
      const { products } = (await f.as.creator("GET", "/api/products?limit=50")).json() as {
        products: { _id: string; stock: number }[];
      };
      const productId = products.find((p) => p.stock >= 100)!._id;
      for (const as of [f.as.creator, f.asCat]) {
        await ok(as("POST", `/api/carts/${cartId}/product`, { productId }));
      }
      await ok(f.as.creator("POST", `/api/sessions/${sessionId}/checkout`), 201);
    });
    const half = Math.round(f.order.total * 50) / 100;
    const rest = Math.round((f.order.total - half) * 100) / 100;
    await step("payers set", [ann, ben, cat], () =>
      ok(
        f.as.creator("PUT", `${url}/payers`, {
          payers: [
            { userId: ann, amount: half },
            { userId: cat, amount: rest },
          ],
        }),
      ),
    );
    await step("payers taken back", [ann, ben, cat], () =>
      ok(
        f.as.creator("PUT", `${url}/payers`, {
          payers: [{ userId: ann, amount: f.order.total }],
        }),
      ),
    );
    await step("a claim", [ann, ben, cat], () => ok(f.as.participant("POST", `${url}/paid`)));
    await step("a confirmation in cash", [ann, ben, cat], () =>
      ok(f.as.creator("POST", `${url}/confirm/${ben}`, { how: "cash" })),
    );
    await step("an adjustment", [ann, ben, cat], () =>
      ok(
        f.as.creator("POST", `${url}/adjustments`, {
          kind: "refund",
          lineIndex: 0,
          amount: 0.5,
          note: "Dented",
        }),
        201,
      ),
    );
    const adjustment = (await f.as.creator("GET", url)).json().order.adjustments[0]._id as string;
    await step("a dispute", [ann, ben, cat], () =>
      ok(f.asCat("POST", `${url}/adjustments/${adjustment}/dispute`, { comment: "It was fine" })),
    );
    await step("a share's mail status", [ann, ben, cat], async () => {
      await t.database.db.execute(
        sql`update order_shares set mail = 'failed'
          where order_id = ${f.order._id} and user_id = ${cat}`,
      );
    });
    const beyond = (await f.asCat("GET", "/api/orders")).json().orders[0]._id as string;
    expect(beyond).not.toBe(f.order._id);
    await step("a write-off", [ann, cat], () =>
      ok(f.as.creator("POST", `/api/orders/${beyond}/confirm/${cat}`, { how: "written_off" })),
    );
    // What Cat still owes Ann is her share of the order the three share.
    const balances = (await f.asCat("GET", "/api/balances")).json().balances as {
      user: { _id: string };
      amount: number;
    }[];
    const owed = { amount: -balances.find((b) => b.user._id === ann)!.amount };
    expect(owed.amount).toBeGreaterThan(0);
    await step("a transfer from the balances page", [ann, ben, cat], () =>
      ok(f.asCat("POST", "/api/balances/transfers", { to: ann, amount: owed.amount }), 201),
    );
    // Names and the time zone are read by the light queries themselves, not marked.
    await step("a new name", [], async () => {
      await t.database.db.execute(sql`update users set name = 'Annie' where id = ${ann}`);
    });
    await step("a new time zone", [], () =>
      ok(f.as.participant("PUT", "/api/users/me/time-zone", { timeZone: "Asia/Tokyo" })),
    );
    await step("an account deleted", [ann, ben, cat], async () => {
      await ok(
        f.asCat("DELETE", "/api/users/me", { password: PASSWORD, acknowledgeUnsettled: true }),
        204,
      );
      delete (readers as Partial<typeof readers>).cat;
    });
  });
});
