/**
 * People's marks with two writers at once (PostgreSQL: the embedded database has one connection).
 * A writer never waits on another's marks, and a transaction that took its mark first but commits
 * last still moves the sum, where the largest id would not move (decision 061).
 */
import crypto from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers.ts";
import { mark, marksOf as marksOfIn } from "../marks-support.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const marksOf = (person: string) => marksOfIn(t.database.db, person);

describe("order_mark() with two writers", () => {
  it("never waits on another writer, and a mark taken first but committed last moves the sum", async () => {
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
  });
});
