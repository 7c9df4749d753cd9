/**
 * My Orders pages a long history from its indexes (PGlite and PostgreSQL): each of the reader's
 * ways into an order (a share, the payee alone, a payer alone) reads its own index a page at a
 * time, and the pages still follow one another to the whole list, newest first, orders placed at
 * the same moment by number, nothing twice and nothing left out. On both databases, a first page
 * reads about a page of rows from each index however long the history is.
 */
import crypto from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { orderPage } from "../../src/features/orders/reading/orders.ts";
import { group } from "../group-support.ts";
import { createTestApp, type Client, type TestApp } from "../helpers.ts";

type Name = "Ann" | "Ben" | "Cat" | "Dan";

let t: TestApp;
let g: Awaited<ReturnType<typeof group<Name>>>;
/** Every order made, with its sort key and its people. */
const made: {
  id: string;
  sessionId: string;
  at: number;
  number: number;
  people: Set<Name>;
  /** The people who are in it as a payer only. */
  payersOnly?: Name[];
}[] = [];

/**
 * A copy of `template` placed at `at` (ms), with `payee`, shares for `shares` and payers
 * `payers`, written straight to the tables, as an order of a long history is: the share and payer
 * rows get their order's sort key from the database, as every insert does.
 */
async function copyOrder(
  template: string,
  at: number,
  payee: Name,
  shares: Name[],
  payers: Name[],
) {
  const db = t.database;
  const [sessionId, cartId, orderId] = [
    crypto.randomUUID(),
    crypto.randomUUID(),
    crypto.randomUUID(),
  ];
  const code = `P${crypto.randomBytes(5).toString("hex").toUpperCase()}`;
  await db.rows(sql`insert into sessions select (jsonb_populate_record(null::sessions,
      to_jsonb(s) || jsonb_build_object('id', ${sessionId}::text, 'code', ${code}::text))).*
    from sessions s where s.id = (select session_id from orders where id = ${template})`);
  await db.rows(sql`insert into carts select (jsonb_populate_record(null::carts,
      to_jsonb(c) || jsonb_build_object('id', ${cartId}::text, 'session_id', ${sessionId}::text))).*
    from carts c where c.id = (select cart_id from orders where id = ${template})`);
  const [row] = await db.rows<{ number: number }>(sql`insert into orders overriding system value
    select (jsonb_populate_record(null::orders, to_jsonb(o) || jsonb_build_object('id', ${orderId}::text,
      'session_id', ${sessionId}::text, 'cart_id', ${cartId}::text,
      'placed_at', ${new Date(at).toISOString()}::text, 'payee_id', ${g.id(payee)}::text,
      'number', nextval(pg_get_serial_sequence('orders', 'number')),
      'version', nextval('order_versions')))).*
    from orders o where o.id = ${template} returning number`);
  for (const name of shares) {
    await db.rows(sql`insert into order_shares (order_id, user_id, name, subtotal_cents,
        fees_cents, tax_cents, total_cents)
      values (${orderId}, ${g.id(name)}, ${name}, 100, 0, 0, 100)`);
  }
  for (const [position, name] of payers.entries()) {
    await db.rows(sql`insert into order_payers (order_id, user_id, name, amount_cents, position)
      values (${orderId}, ${g.id(name)}, ${name}, 100, ${position})`);
  }
  made.push({
    id: orderId,
    sessionId,
    at,
    number: Number(row!.number),
    people: new Set([payee, ...shares, ...payers]),
    payersOnly: payers.filter((n) => n !== payee && !shares.includes(n)),
  });
}

/** The reader's orders as the list orders them: newest first, then the higher number first. */
const listOf = (name: Name) =>
  made
    .filter((o) => o.people.has(name))
    .sort((a, b) => b.at - a.at || b.number - a.number)
    .map((o) => o.id);

/** Follows My Orders' cursors with pages of `limit`: the ids in order and the pages' sizes. */
async function walk(as: Client, limit: number, query = "") {
  const ids: string[] = [];
  const sizes: number[] = [];
  let cursor: string | null = null;
  do {
    const res = await as(
      "GET",
      `/api/orders?limit=${limit}${query}${cursor ? `&cursor=${cursor}` : ""}`,
    );
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { orders: { _id: string }[]; nextCursor: string | null };
    ids.push(...body.orders.map((o) => o._id));
    sizes.push(body.orders.length);
    cursor = body.nextCursor;
    expect(sizes.length).toBeLessThan(200);
  } while (cursor);
  return { ids, sizes };
}

beforeAll(async () => {
  t = await createTestApp();
  g = await group(t, ["Ann", "Ben", "Cat", "Dan"] as const);
  const product = (
    (await g.as.Ann("GET", "/api/products?limit=50")).json().products as {
      name: string;
      stock: number;
    }[]
  ).find((p) => p.stock > 10)!;
  await g.add("Ben", product.name, 1);
  const template = (await g.checkout())._id;
  await t.app.idle();
  const [placed] = await t.database.rows<{ at: string | Date; number: number; people: string[] }>(
    sql`select o.placed_at as at, o.number, array(select s.user_id::text from order_shares s
        where s.order_id = o.id) || o.payee_id::text as people
      from orders o where o.id = ${template}`,
  );
  made.push({
    id: template,
    sessionId: g.session._id,
    at: new Date(placed!.at).getTime(),
    number: Number(placed!.number),
    people: new Set(
      (["Ann", "Ben", "Cat", "Dan"] as const).filter((n) => placed!.people.includes(g.id(n))),
    ),
  });
  // Over two years of weekly orders, every fifth week two at the same moment: Cat has a share
  // in a third of them, is the payee alone of a third and a payer alone of the rest; Dan is in
  // every other one, so the lists interleave.
  const week = 7 * 24 * 3600 * 1000;
  const start = made[0]!.at - 130 * week;
  for (let w = 0; w < 120; w++) {
    const at = start + w * week;
    const dan: Name[] = w % 2 === 0 ? ["Dan"] : [];
    if (w % 3 === 0) await copyOrder(template, at, "Ann", ["Ben", "Cat", ...dan], []);
    else if (w % 3 === 1) await copyOrder(template, at, "Cat", ["Ben", ...dan], []);
    else await copyOrder(template, at, "Ann", ["Ben", ...dan], ["Ann", "Cat"]);
    if (w % 5 === 0) await copyOrder(template, at, "Ben", ["Cat", "Ben"], []);
  }
});
afterAll(async () => t.close());

describe("My Orders from its indexes", () => {
  it("pages a long history across every way into an order and every tie, as one list", async () => {
    for (const name of ["Cat", "Dan", "Ben", "Ann"] as const) {
      const whole = listOf(name);
      expect(whole.length, name).toBeGreaterThan(40);
      for (const limit of name === "Cat" ? [1, 2, 5, 11, 100] : [7, 100]) {
        const paged = await walk(g.as[name], limit);
        expect(paged.ids, `${name} by ${limit}`).toEqual(whole);
        expect(paged.sizes.slice(0, -1).every((n) => n === limit)).toBe(true);
      }
    }
  });

  it("answers a session's order to its payer alone, and not to a stranger", async () => {
    const payerOnly = made.find((o) => o.payersOnly?.includes("Cat"))!;
    expect(payerOnly).toBeDefined();
    const res = await g.as.Cat("GET", `/api/orders?sessionId=${payerOnly.sessionId}`);
    expect(res.json().orders.map((o: { _id: string }) => o._id)).toEqual([payerOnly.id]);
    const stranger = made.find((o) => !o.people.has("Dan"))!;
    const none = await g.as.Dan("GET", `/api/orders?sessionId=${stranger.sessionId}`);
    expect(none.json().orders).toEqual([]);
  });
});

/** Rows each access path read, summed over the plan: [relation or index, rows]. */
function rowsRead(plan: Record<string, unknown>, into: Map<string, number>) {
  const name = (plan["Index Name"] ?? plan["Relation Name"]) as string | undefined;
  if (name && plan["Node Type"] !== "Bitmap Heap Scan") {
    const rows = (plan["Actual Rows"] as number) * (plan["Actual Loops"] as number);
    into.set(name, (into.get(name) ?? 0) + rows);
  }
  for (const child of (plan.Plans as Record<string, unknown>[] | undefined) ?? []) {
    rowsRead(child, into);
  }
  return into;
}

describe("a first page", () => {
  it("reads about a page of rows from each index, not the history", async () => {
    const read = async () => {
      let plan: Record<string, unknown> | undefined;
      const light = async <T>(query: ReturnType<typeof sql>): Promise<T[]> => {
        const [row] = await t.database.rows<{ "QUERY PLAN": [{ Plan: Record<string, unknown> }] }>(
          sql`explain (analyze, format json) ${query}`,
        );
        plan = row!["QUERY PLAN"][0].Plan;
        return t.database.rows<T>(query);
      };
      await orderPage({ db: t.database.db, light }, g.id("Cat"), { limit: 5 });
      return rowsRead(plan!, new Map());
    };
    await t.database.rows(sql`analyze`);
    const rows = await read();
    expect(listOf("Cat").length).toBeGreaterThan(40);
    // Each way in reads at most its page and the one after it (limit + 1) from its index; the
    // page's orders are then read by their ids.
    for (const index of [
      "order_shares_user_placed_idx",
      "orders_payee_placed_idx",
      "order_payers_user_placed_idx",
    ]) {
      expect(rows.get(index) ?? 0, index).toBeLessThanOrEqual(6);
    }
    for (const table of ["orders", "order_shares", "order_payers"]) {
      expect(rows.get(table) ?? 0, table).toBe(0);
    }
  });
});
