/**
 * People's marks (order_mark() and its triggers, decision 061): a transaction marks a person
 * once, a mark rolled back with a savepoint is made again, a person's older marks fold into the
 * newest, whoever a share or payer row takes off an order and a payee replaced are marked; and on
 * PostgreSQL a writer never waits on another's marks, while a transaction that took its mark
 * first but commits last still moves the sum (where the largest id would not move).
 */
import crypto from "node:crypto";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { executeRows } from "../../src/db/client.ts";
import { createTestApp, type TestApp } from "../helpers.ts";
import { threeWayOrder } from "../payers-support.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const onPostgres = process.env.TEST_DB === "postgres";

/** The person's marks: the sum of their weights, how many rows, the largest id. */
async function marksOf(person: string) {
  const [found] = await executeRows<{ sum: string; rows: string; max: string | null }>(
    t.database.db,
    sql`select coalesce(sum(weight), 0)::text as sum, count(*)::text as rows, max(id)::text as max
      from order_marks where person_id = ${person}`,
  );
  return { sum: Number(found!.sum), rows: Number(found!.rows), max: found!.max };
}

const mark = (person: string) => sql`select order_mark(array[${person}]::uuid[])`;

describe("order_mark()", () => {
  it("marks a person once a transaction, again after a savepoint rolled back, in one row", async () => {
    const person = crypto.randomUUID();
    for (let i = 0; i < 3; i++) await t.database.db.execute(mark(person));
    expect(await marksOf(person)).toMatchObject({ sum: 3, rows: 1 });

    await t.database.db.transaction(async (tx) => {
      await tx.execute(mark(person));
      await tx.execute(mark(person));
    });
    expect(await marksOf(person)).toMatchObject({ sum: 4, rows: 1 });

    await t.database.db.transaction(async (tx) => {
      await tx
        .transaction(async (inner) => {
          await inner.execute(mark(person));
          throw new Error("rolled back");
        })
        .catch(() => {});
      await tx.execute(mark(person));
    });
    expect(await marksOf(person)).toMatchObject({ sum: 5, rows: 1 });
  });

  it("marks whoever a share or payer row takes off an order, and a payee replaced", async () => {
    const f = await threeWayOrder(t);
    const { ann, ben, cat } = f.ids;
    const order = f.order._id;
    const catBefore = await marksOf(cat);
    await t.database.db.execute(
      sql`delete from order_shares where order_id = ${order} and user_id in (${cat}, ${ann})`,
    );
    // Cat is on the order no more: only her share's own trigger could mark her.
    expect((await marksOf(cat)).sum).toBe(catBefore.sum + 1);
    // Nor is Ann, once the order names another payee.
    const annBefore = await marksOf(ann);
    await t.database.db.execute(sql`update orders set payee_id = ${ben} where id = ${order}`);
    expect((await marksOf(ann)).sum).toBe(annBefore.sum + 1);
  });

  it.runIf(onPostgres)(
    "never waits on another writer, and a mark taken first but committed last moves the sum",
    async () => {
      const person = crypto.randomUUID();
      await t.database.db.execute(mark(person));
      const clients = [0, 1].map(() => new pg.Client({ connectionString: t.database.url }));
      await Promise.all(clients.map((c) => c.connect()));
      const [first, second] = clients as [pg.Client, pg.Client];
      try {
        // The first takes its mark, folding (and so locking) the person's row, and stays open.
        await first.query("begin");
        await first.query("select order_mark(array[$1]::uuid[])", [person]);
        // The second would fail rather than wait; it skips the locked row and commits.
        await second.query("begin");
        await second.query("set local lock_timeout = '200ms'");
        await second.query("select order_mark(array[$1]::uuid[])", [person]);
        await second.query("commit");
        const seen = await marksOf(person);
        expect(seen.sum).toBe(2);
        // The first commits after a reader saw the second's mark, which has the larger id.
        await first.query("commit");
        const now = await marksOf(person);
        expect(now.max).toBe(seen.max);
        expect(now).toMatchObject({ sum: 3, rows: 2 });
        // The next mark folds both.
        await t.database.db.execute(mark(person));
        expect(await marksOf(person)).toMatchObject({ sum: 4, rows: 1 });
      } finally {
        await Promise.all(clients.map((c) => c.end()));
      }
    },
  );
});
