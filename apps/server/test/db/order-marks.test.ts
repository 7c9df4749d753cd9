/**
 * People's marks (order_mark() and its triggers, decision 061): a transaction marks a person
 * once, a mark rolled back with a savepoint is made again, a person's older marks fold into the
 * newest, whoever a share or payer row takes off an order and a payee replaced are marked. Two
 * writers at once: order-marks-concurrent.test.ts (PostgreSQL).
 */
import crypto from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers.ts";
import { mark, marksOf as marksOfIn } from "../marks-support.ts";
import { threeWayOrder } from "../payers-support.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const marksOf = (person: string) => marksOfIn(t.database.db, person);

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
});
