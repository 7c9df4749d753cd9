/**
 * Database.prepared, the light queries' call (a named statement per text: PostgreSQL's own, and on
 * PGlite one made through the client's protocol): the same rows as `rows` with each kind of
 * parameter and value, again from the statement it kept; an error leaves the database answering;
 * and it never reads what another caller's transaction has not committed (PGlite and PostgreSQL).
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers.ts";

let t: TestApp;
let product: { id: string; name: string };

beforeAll(async () => {
  t = await createTestApp();
  const [first] = await t.database.rows<{ id: string; name: string }>(
    sql`select id, name from products order by slug limit 1`,
  );
  product = first!;
});
afterAll(() => t.close());

/** Every kind of value the light queries read or pass: uuids, texts, arrays, integers, nulls. */
const shapes = (ids: string[], word: string, n: number) =>
  sql`select p.id, p.name, p.stock, ${n}::int + 1 as "next", p.stock > ${n} as "over",
        ${word}::text as "word", null::text as "nothing", array_length(${sql.param(ids)}::uuid[], 1) as "count"
      from products p where p.id = any(${sql.param(ids)}::uuid[]) order by p.id`;

describe("Database.prepared", () => {
  it("answers what rows answers, the first time and from the statement it kept", async () => {
    const ids = (
      await t.database.rows<{ id: string }>(sql`select id from products order by slug limit 3`)
    ).map((r) => r.id);
    const expected = await t.database.rows(shapes(ids, "first", 2));
    expect(expected).toHaveLength(3);
    expect(await t.database.prepared(shapes(ids, "first", 2))).toEqual(expected);
    // Other values through the same text: the statement is bound again, not re-made.
    const again = await t.database.rows(shapes(ids.slice(1), "second", -1));
    expect(await t.database.prepared(shapes(ids.slice(1), "second", -1))).toEqual(again);
    expect(again[0]).toMatchObject({ word: "second", next: 0, over: true, nothing: null });
  });

  it("throws the database's error and answers the next call", async () => {
    const divide = (by: number) => sql`select 10 / ${by}::int as "q"`;
    await expect(t.database.prepared(divide(0))).rejects.toThrow(/division by zero/);
    expect(await t.database.prepared(divide(5))).toEqual([{ q: 2 }]);
    await expect(t.database.prepared(sql`select * from no_such_table`)).rejects.toThrow(
      /no_such_table/,
    );
    expect(await t.database.prepared(divide(2))).toEqual([{ q: 5 }]);
  });

  it("never reads another caller's uncommitted change", async () => {
    const name = sql`select name from products where id = ${product.id}::uuid`;
    let changed!: () => void;
    const inside = new Promise<void>((resolve) => (changed = resolve));
    const rolledBack = t.database.db
      .transaction(async (tx) => {
        await tx.execute(sql`update products set name = 'Not committed' where id = ${product.id}`);
        changed();
        await new Promise((resolve) => setTimeout(resolve, 100));
        throw new Error("roll back");
      })
      .catch(() => undefined);
    await inside;
    const read = await t.database.prepared<{ name: string }>(name);
    await rolledBack;
    expect(read).toEqual([{ name: product.name }]);
    expect(await t.database.prepared(name)).toEqual([{ name: product.name }]);
  });
});
