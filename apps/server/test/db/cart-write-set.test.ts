/**
 * A batch of independent adds and removals goes in as a set (cart_write_set(), from
 * cart_write_batch()): every change answers, and leaves in the cart, the removed lines, the
 * activity log and the session's version, exactly what the same changes made one at a time
 * (cart_write()) do; each refusal stays that change's own. Two sessions made alike, one written
 * each way (PGlite and PostgreSQL). A removed line is kept for Undo with every column, either way.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, sessionWithEveryRole, type TestApp } from "../helpers.ts";

let t: TestApp;
let products: { id: string; stock: number }[];
/** A line's most, small so that one add can pass it within the stock. */
const MAX = 5;
type Session = Awaited<ReturnType<typeof sessionWithEveryRole>>;

beforeAll(async () => {
  t = await createTestApp();
  products = await t.database.rows<{ id: string; stock: number }>(
    sql`select id, stock from products where stock > 20 order by slug limit 10`,
  );
});
afterAll(async () => t.close());

interface Change {
  op: "add" | "remove";
  who: keyof Session["people"];
  product: string;
  /** Remove this line: the line of `product` held by this role. */
  lineOf?: keyof Session["people"];
  quantity?: number;
}

/** Lines before the batch: [role, product index, quantity]. */
const BEFORE = [
  ["creator", 2, 1],
  ["creator", 3, 1],
  ["participant", 6, 2],
  ["participant", 7, 1],
] as const;

async function lineId(f: Session, role: keyof Session["people"], product: string) {
  const [row] = await t.database.rows<{ id: string }>(sql`select id from cart_lines
    where cart_id = ${f.cartId} and product_id = ${product} and added_by = ${f.people[role].userId}`);
  return row!.id;
}

async function calls(f: Session, changes: Change[], at: string) {
  return Promise.all(
    changes.map(async (c) => ({
      op: c.op,
      cart: f.cartId,
      user: f.people[c.who].userId,
      product: c.product,
      line: c.lineOf ? await lineId(f, c.lineOf, c.product) : null,
      quantity: c.op === "add" ? (c.quantity ?? 1) : null,
      change: null,
      restoreSeconds: null,
      hiddenFrom: null,
      now: at,
    })),
  );
}

/** What a session holds after the writes, its people named by role and ids left out. */
async function state(f: Session, versionBefore: number) {
  const name = new Map(Object.entries(f.people).map(([role, p]) => [p.userId, role]));
  const lines = await t.database.rows<Record<string, unknown>>(sql`
    select product_id, added_by, quantity, added_price_cents, hidden_from, pending_at from cart_lines
    where cart_id = ${f.cartId} order by product_id, added_by`);
  const removed = await t.database.rows<Record<string, unknown>>(sql`
    select product_id, added_by, quantity, removed_by, hidden_from from removed_lines
    where cart_id = ${f.cartId} order by product_id, added_by`);
  const activity = await t.database.rows<Record<string, unknown>>(sql`
    select actor_id, actor_name, type, details, line_id is not null as has_line, hidden_from
    from activity where session_id = ${f.sessionId} order by seq`);
  const [{ version }] = (await t.database.rows<{ version: number }>(
    sql`select version from sessions where id = ${f.sessionId}`,
  )) as [{ version: number }];
  // Each person's id as their role, wherever it stands (a field, or inside an entry's details).
  const named = (rows: Record<string, unknown>[]): unknown =>
    JSON.parse(
      [...name].reduce((text, [id, role]) => text.replaceAll(id, role), JSON.stringify(rows)),
    );
  return {
    lines: named(lines),
    removed: named(removed),
    activity: named(activity),
    versions: version - versionBefore,
  };
}

async function prepared() {
  const f = await sessionWithEveryRole(t);
  for (const [role, index, quantity] of BEFORE) {
    const res = await f.as[role]("POST", `/api/carts/${f.cartId}/product`, {
      productId: products[index]!.id,
      quantity,
    });
    if (res.statusCode !== 200) throw new Error(res.body);
  }
  const [{ version }] = (await t.database.rows<{ version: number }>(
    sql`select version from sessions where id = ${f.sessionId}`,
  )) as [{ version: number }];
  return { f, version };
}

describe("a batch of independent adds and removals as a set", () => {
  it("answers and leaves what the same changes one at a time do, each refusal its own", async () => {
    const p = products.map((x) => x.id);
    const changes: Change[] = [
      { op: "add", who: "participant", product: p[0]! },
      { op: "add", who: "viewer", product: p[1]! },
      { op: "remove", who: "creator", product: p[2]! },
      { op: "remove", who: "participant", product: p[3]!, lineOf: "creator" },
      { op: "add", who: "creator", product: p[4]!, quantity: products[4]!.stock + 1 },
      { op: "add", who: "creator", product: p[5]!, quantity: MAX + 1 },
      { op: "add", who: "participant", product: p[6]!, quantity: 2 },
      { op: "remove", who: "creator", product: p[7]!, lineOf: "participant" },
      { op: "remove", who: "participant", product: p[8]! },
      { op: "add", who: "stranger", product: p[9]! },
      { op: "add", who: "pending", product: "00000000-0000-4000-8000-000000000000" },
      { op: "add", who: "creator", product: "00000000-0000-4000-8000-000000000001" },
    ];
    const at = new Date().toISOString();
    const answer = (r: Record<string, unknown>) => ({
      verdict: r.verdict,
      product_stock: r.product_stock,
      already_in_cart: r.already_in_cart,
      role: r.role,
      order_number: r.order_number,
    });

    const set = await prepared();
    const batch = await calls(set.f, changes, at);
    // The batch is one the set takes (it answers a row per change, here rolled back).
    await t.database.db
      .transaction(async (tx) => {
        const rows = await tx.execute(
          sql`select * from cart_write_set(${JSON.stringify(batch)}::json, ${MAX}::integer)`,
        );
        expect((rows as unknown as { rows?: unknown[] }).rows ?? rows).toHaveLength(changes.length);
        throw new Error("roll back");
      })
      .catch((error: unknown) => expect(String(error)).toMatch(/roll back/));
    const setRows = await t.database.rows<Record<string, unknown>>(
      sql`select * from cart_write_batch(${JSON.stringify(batch)}::json, ${MAX}::integer)`,
    );

    const one = await prepared();
    const oneRows: Record<string, unknown>[] = [];
    for (const c of await calls(one.f, changes, at)) {
      const [row] = await t.database.rows<Record<string, unknown>>(sql`
        select * from cart_write(${c.op}::text, ${c.cart}::uuid, ${c.user}::uuid,
          ${c.product}::uuid, ${c.line}::uuid, ${c.quantity}::integer, null::integer,
          null::integer, ${MAX}::integer, ${at}::timestamptz)`);
      oneRows.push(row!);
    }

    expect(setRows.map(answer)).toEqual(oneRows.map(answer));
    expect(setRows.map((r) => r.verdict)).toEqual([
      "ok",
      "role",
      "ok",
      "not_own",
      "stock",
      "line_full",
      "ok",
      "ok",
      "no_line",
      "not_member",
      "not_member",
      "no_product",
    ]);
    expect(await state(set.f, set.version)).toEqual(await state(one.f, one.version));
  });

  it("leaves a batch with two changes to one product of a cart to one change at a time", async () => {
    const { f } = await prepared();
    const batch = await calls(
      f,
      [
        { op: "add", who: "participant", product: products[0]!.id },
        { op: "remove", who: "participant", product: products[0]!.id },
      ],
      new Date().toISOString(),
    );
    const none = await t.database.db.transaction(async (tx) => {
      const rows = await tx.execute(
        sql`select * from cart_write_set(${JSON.stringify(batch)}::json, ${MAX}::integer)`,
      );
      return ((rows as unknown as { rows?: unknown[] }).rows ?? rows) as unknown[];
    });
    expect(none).toHaveLength(0);
    const rows = await t.database.rows<{ verdict: string }>(
      sql`select * from cart_write_batch(${JSON.stringify(batch)}::json, ${MAX}::integer)`,
    );
    expect(rows.map((r) => r.verdict)).toEqual(["ok", "ok"]);
  });
});

/**
 * What keep_removed_lines() copies of a line: every column cart_lines and removed_lines share,
 * each set here to a value its default would not give, so that a column the copy misses shows. A
 * column added to both tables fails the list's check until it is set here too.
 */
const KEPT_COLUMNS = [
  "acknowledged_price_cents",
  "added_at",
  "added_by",
  "added_price_cents",
  "cart_id",
  "hidden_from",
  "name",
  "note",
  "pending_at",
  "product_id",
  "quantity",
  "shared_with",
  "staple",
  "substitute",
  "unit_price_cents",
];

describe("a removed line kept for Undo", () => {
  it("keeps every column, from the set and from a change alone", async () => {
    const { f } = await prepared();
    const ann = f.people.creator.userId;
    const ben = f.people.participant.userId;
    const free = await f.as.participant("POST", `/api/carts/${f.cartId}/free-lines`, {
      name: "Birthday candles",
      estimatedPrice: 1.25,
    });
    expect(free.statusCode, free.body).toBe(200);
    const at = new Date().toISOString();
    await t.database.rows(sql`update cart_lines set note = 'ripe ones', substitute = 'none',
      staple = true, shared_with = ${`{${ann},${ben}}`}::uuid[],
      acknowledged_price_cents = coalesce(added_price_cents, 0) + 7,
      hidden_from = ${`{${f.people.viewer.userId}}`}::uuid[],
      pending_at = ${at}::timestamptz - interval '1 minute',
      added_at = added_at - interval '1 day'
      where cart_id = ${f.cartId}`);
    const lines = await t.database.rows<{ line: Record<string, unknown> }>(
      sql`select to_jsonb(l) as line from cart_lines l where cart_id = ${f.cartId}`,
    );
    const annLine = await lineId(f, "creator", products[2]!.id);
    const benLine = await lineId(f, "participant", products[6]!.id);
    const freeLine = lines.find((l) => l.line.product_id === null)!.line.id as string;

    const set = [
      { op: "remove", cart: f.cartId, user: ann, product: products[2]!.id, line: annLine, now: at },
      { op: "remove", cart: f.cartId, user: ann, product: null, line: freeLine, now: at },
    ];
    const setRows = await t.database.rows<{ verdict: string }>(
      sql`select * from cart_write_set(${JSON.stringify(set)}::json, ${MAX}::integer)`,
    );
    expect(setRows.map((r) => r.verdict)).toEqual(["ok", "ok"]);
    const [alone] = await t.database.rows<{ verdict: string }>(sql`
      select * from cart_write('remove'::text, ${f.cartId}::uuid, ${ben}::uuid,
        ${products[6]!.id}::uuid, null::uuid, null::integer, null::integer, null::integer,
        ${MAX}::integer, ${at}::timestamptz)`);
    expect(alone!.verdict).toBe("ok");

    const kept = await t.database.rows<{ line: Record<string, unknown> }>(
      sql`select to_jsonb(r) as line from removed_lines r where cart_id = ${f.cartId}`,
    );
    const removedBy = new Map([
      [annLine, ann],
      [freeLine, ann],
      [benLine, ben],
    ]);
    expect(kept.map((k) => k.line.line_id).sort()).toEqual([...removedBy.keys()].sort());
    for (const { line: k } of kept) {
      const line = lines.find((l) => l.line.id === k.line_id)!.line;
      const shared = Object.keys(k).filter((c) => c in line);
      expect(shared.sort()).toEqual(KEPT_COLUMNS);
      expect(
        Object.keys(k)
          .filter((c) => !(c in line))
          .sort(),
      ).toEqual(["line_id", "removed_at", "removed_by"]);
      for (const c of KEPT_COLUMNS) expect(k[c], c).toEqual(line[c]);
      expect(k.removed_by).toBe(removedBy.get(k.line_id as string));
      expect(new Date(k.removed_at as string).toISOString()).toBe(at);
    }
    const freeKept = kept.find((k) => k.line.line_id === freeLine)!.line;
    expect([freeKept.name, freeKept.unit_price_cents]).toEqual(["Birthday candles", 125]);
  });
});
