/**
 * An order's writers take its row before its shares, on PostgreSQL (this file runs only there:
 * the embedded database runs one transaction at a time). A share's update moves the order's
 * version through a trigger, so a writer that took a share first and the order second would
 * deadlock with an adjustment, which takes the order first and then re-splits its shares.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers.ts";
import { threeWayOrder } from "../payers-support.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

/** Resolves once some connection waits on a lock (the server's request reached it). */
async function someoneWaits(client: pg.Client): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const { rows } = await client.query(
      "select 1 from pg_stat_activity where wait_event_type = 'Lock' and pid <> pg_backend_pid()",
    );
    if (rows.length > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error("nobody waited on a lock");
}

describe("an order's row is locked before its shares", () => {
  it("sending a failed mail again while an adjustment holds the order: both land", async () => {
    expect(t.database.kind).toBe("postgres");
    const f = await threeWayOrder(t);
    const orderId = f.order._id;
    await t.app.idle();
    const adjuster = new pg.Client({ connectionString: t.database.url });
    await adjuster.connect();
    try {
      await adjuster.query("update order_shares set mail = 'failed' where order_id = $1", [
        orderId,
      ]);
      // As an adjustment does: the order's row first, then its shares.
      await adjuster.query("begin");
      await adjuster.query("select 1 from orders where id = $1 for update", [orderId]);
      const resend = f.as.creator("POST", `/api/orders/${orderId}/mail`);
      const watcher = new pg.Client({ connectionString: t.database.url });
      await watcher.connect();
      try {
        await someoneWaits(watcher);
      } finally {
        await watcher.end();
      }
      await adjuster.query(
        "update order_shares set original_total_cents = total_cents where order_id = $1",
        [orderId],
      );
      await adjuster.query("commit");
      const res = await resend;
      expect(res.statusCode, res.body).toBe(200);
    } finally {
      await adjuster.end();
    }
  });
});
