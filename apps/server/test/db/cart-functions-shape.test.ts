/**
 * The cart functions answer what the contract says they answer: cart_view(), cart_write() and
 * cart_write_batch() called through the real database for each kind of answer (a write done,
 * nothing to do, each refusal, a batch with a failed change), every answer parsed with the
 * contract's strict schemas, so a renamed, missing or extra field fails here (PGlite and
 * PostgreSQL).
 */
import {
  CartViewSchema,
  CartWriteBatchResultSchema,
  CartWriteResultSchema,
  QUANTITY_MAX,
  RESTORE_WINDOW_SECONDS,
  type CartWriteVerdict,
} from "@cartner/contract";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, sessionWithEveryRole, type TestApp } from "../helpers.ts";

let t: TestApp;
let f: Awaited<ReturnType<typeof sessionWithEveryRole>>;
let milk: string;
let bread: string;
let scarce: { id: string; stock: number };

beforeAll(async () => {
  t = await createTestApp();
  f = await sessionWithEveryRole(t);
  const stocked = await t.database.rows<{ id: string; stock: number }>(
    sql`select id, stock from products where stock > 20 order by slug limit 2`,
  );
  [milk, bread] = stocked.map((p) => p.id) as [string, string];
  const few = await t.database.rows<{ id: string; stock: number }>(
    sql`select id, stock from products where stock between 1 and 20 order by slug limit 1`,
  );
  scarce = few[0]!;
});
afterAll(async () => t.close());

interface Write {
  op: "add" | "step" | "remove" | "restore" | "clear";
  user: string;
  product?: string;
  line?: string;
  quantity?: number;
  change?: 1 | -1;
  restoreSeconds?: number;
  max?: number;
}

const now = () => new Date().toISOString();

/** One cart_write() call, its row parsed strictly. */
async function write(w: Write) {
  const [row] = await t.database.rows(sql`
    select * from cart_write(${w.op}::text, ${f.cartId}::uuid, ${w.user}::uuid,
      ${w.product ?? null}::uuid, ${w.line ?? null}::uuid, ${w.quantity ?? null}::integer,
      ${w.change ?? null}::integer, ${w.restoreSeconds ?? null}::integer,
      ${w.max ?? QUANTITY_MAX}::integer, ${now()}::timestamptz)`);
  return CartWriteResultSchema.parse(row);
}

async function expectVerdict(w: Write, verdict: CartWriteVerdict) {
  const result = await write(w);
  expect(result.verdict).toBe(verdict);
  // The view comes with a write done or nothing to do, never with a refusal.
  expect(result.view === null).toBe(verdict !== "ok" && verdict !== "unchanged");
  return result;
}

describe("the cart functions' answers parse with the contract's schemas", () => {
  it("cart_write: add, change quantity, remove, restore, and what the view then holds", async () => {
    const ben = f.people.participant.userId;
    const ann = f.people.creator.userId;
    const added = await expectVerdict({ op: "add", user: ben, product: milk, quantity: 2 }, "ok");
    const line = added.view!.lines.find((l) => l.productId === milk)!;
    expect([line.quantity, line.userId]).toEqual([2, ben]);
    await expectVerdict({ op: "add", user: ann, product: bread, quantity: 1 }, "ok");
    await expectVerdict({ op: "step", user: ben, product: milk, change: 1 }, "ok");
    await expectVerdict({ op: "step", user: ben, product: milk, change: -1 }, "ok");
    await expectVerdict({ op: "step", user: ann, product: bread, change: -1 }, "unchanged");
    // The creator changes anyone's line, by its id.
    await expectVerdict({ op: "step", user: ann, product: milk, line: line.id, change: 1 }, "ok");
    await expectVerdict({ op: "remove", user: ben, product: milk }, "ok");
    const restored = await expectVerdict(
      { op: "restore", user: ben, line: line.id, restoreSeconds: RESTORE_WINDOW_SECONDS },
      "ok",
    );
    expect(restored.view!.lines.find((l) => l.id === line.id)?.quantity).toBe(3);

    // A view with every optional part filled: a shared line, a budget, a ready mark.
    await f.as.participant("PUT", `/api/carts/${f.cartId}/lines/${line.id}/shared-with`, {
      userIds: [ann, ben],
    });
    await f.as.participant("PATCH", `/api/sessions/${f.sessionId}/members/${ben}`, {
      budget: 40,
    });
    await f.as.participant("PUT", `/api/sessions/${f.sessionId}/ready`, { ready: true });
    const [{ view }] = (await t.database.rows<{ view: unknown }>(
      sql`select cart_view(${f.cartId}::uuid) as view`,
    )) as [{ view: unknown }];
    const parsed = CartViewSchema.parse(view);
    const benAsMember = parsed.members.find((m) => m.userId === ben)!;
    expect([benAsMember.budgetCents, benAsMember.ready]).toEqual([4000, true]);
    expect(benAsMember.readyTotalCents).toEqual(expect.any(Number));
    expect(
      parsed.lines
        .find((l) => l.id === line.id)!
        .sharedWith.map((s) => s._id)
        .sort(),
    ).toEqual([ann, ben].sort());
    // Pending requesters are members of the view too (the answers built from it hide them).
    expect(parsed.members.map((m) => m.role).sort()).toEqual(
      ["creator", "participant", "pending", "viewer"].sort(),
    );
  });

  it("cart_write: each refusal answers its verdict and no view", async () => {
    const ben = f.people.participant.userId;
    const ann = f.people.creator.userId;
    const vic = f.people.viewer.userId;
    const pat = f.people.pending.userId;
    const sam = f.people.stranger.userId;
    const viewer = await expectVerdict(
      { op: "add", user: vic, product: milk, quantity: 1 },
      "role",
    );
    expect(viewer.role).toBe("viewer");
    await expectVerdict({ op: "add", user: pat, product: milk, quantity: 1 }, "not_member");
    await expectVerdict({ op: "add", user: sam, product: milk, quantity: 1 }, "not_member");
    const clear = await expectVerdict({ op: "clear", user: ben }, "role");
    expect(clear.role).toBe("participant");
    await expectVerdict(
      { op: "add", user: ben, product: "00000000-0000-4000-8000-000000000000", quantity: 1 },
      "no_product",
    );
    await expectVerdict({ op: "step", user: ben, product: scarce.id, change: 1 }, "no_line");
    const annLine = (
      await expectVerdict({ op: "add", user: ann, product: scarce.id, quantity: 1 }, "ok")
    ).view!.lines.find((l) => l.productId === scarce.id && l.userId === ann)!;
    await expectVerdict(
      { op: "step", user: ben, product: scarce.id, line: annLine.id, change: 1 },
      "not_own",
    );
    const stock = await expectVerdict(
      { op: "add", user: ben, product: scarce.id, quantity: scarce.stock },
      "stock",
    );
    expect([stock.product_stock, stock.already_in_cart]).toEqual([scarce.stock, 1]);
    await expectVerdict({ op: "add", user: ben, product: bread, quantity: 3, max: 2 }, "line_full");
    await expectVerdict(
      { op: "restore", user: ben, line: annLine.id, restoreSeconds: RESTORE_WINDOW_SECONDS },
      "no_removal",
    );
    // Ann removes her line and adds the product again: undoing the removal is refused, since
    // she has that product on a line again.
    await expectVerdict({ op: "remove", user: ann, product: scarce.id }, "ok");
    await expectVerdict({ op: "add", user: ann, product: scarce.id, quantity: 1 }, "ok");
    await expectVerdict(
      { op: "restore", user: ann, line: annLine.id, restoreSeconds: RESTORE_WINDOW_SECONDS },
      "line_exists",
    );
  });

  it("cart_write_batch: one row per change, the view once per cart, a failed change alone", async () => {
    const ben = f.people.participant.userId;
    const vic = f.people.viewer.userId;
    const call = (w: Write) => ({
      op: w.op,
      cart: f.cartId,
      user: w.user,
      product: w.product ?? null,
      line: w.line ?? null,
      quantity: w.quantity ?? null,
      change: w.change ?? null,
      restoreSeconds: w.restoreSeconds ?? null,
      now: now(),
    });
    const calls = [
      call({ op: "add", user: ben, product: milk, quantity: 1 }),
      call({ op: "add", user: vic, product: milk, quantity: 1 }),
      // An unknown operation raises inside cart_write_core(): that change alone is rolled back.
      call({ op: "explode" as Write["op"], user: ben }),
      call({ op: "step", user: ben, product: milk, change: 1 }),
    ];
    const rows = await t.database.rows(
      sql`select * from cart_write_batch(${JSON.stringify(calls)}::json, ${QUANTITY_MAX}::integer)`,
    );
    const results = rows.map((row) => CartWriteBatchResultSchema.parse(row));
    expect(results.map((r) => r.verdict)).toEqual(["ok", "role", "error", "ok"]);
    expect(results.map((r) => r.view !== null)).toEqual([false, false, false, true]);
    expect(results[2]!.error).toMatch(/unknown op/);
    expect(results.filter((r) => r.verdict !== "error").every((r) => r.error === null)).toBe(true);
  });

  it("cart_write after the session ended: 'ended'; and the schemas notice a renamed field", async () => {
    const [{ view }] = (await t.database.rows<{ view: Record<string, unknown> }>(
      sql`select cart_view(${f.cartId}::uuid) as view`,
    )) as [{ view: Record<string, unknown> }];
    const { cart, ...rest } = view as { cart: Record<string, unknown> };
    const { status, ...cartRest } = cart;
    expect(
      CartViewSchema.safeParse({ ...rest, cart: { ...cartRest, state: status } }).success,
    ).toBe(false);
    expect(CartViewSchema.safeParse({ ...rest, cart: cartRest }).success).toBe(false);

    const end = await f.as.creator("PUT", `/api/sessions/${f.sessionId}/end`);
    expect(end.statusCode, end.body).toBe(200);
    await expectVerdict(
      { op: "add", user: f.people.participant.userId, product: milk, quantity: 1 },
      "ended",
    );
    const [ended] = (await t.database.rows<{ view: unknown }>(
      sql`select cart_view(${f.cartId}::uuid) as view`,
    )) as [{ view: unknown }];
    expect(CartViewSchema.parse(ended.view).cart.status).toBe("completed");
  });
});
