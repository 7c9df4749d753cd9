/**
 * Free lines in the database (PGlite and PostgreSQL): cart_write() steps, removes and restores a
 * line without a product, named by its line id alone, and cart_view() shows it by name with no
 * picture, parsed with the contract's strict schema; the table keeps a line either a product's
 * or a name's, never both or neither, and a note within its length.
 */
import {
  CartViewSchema,
  CartWriteResultSchema,
  QUANTITY_MAX,
  RESTORE_WINDOW_SECONDS,
} from "@cartner/contract";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, sessionWithEveryRole, type TestApp } from "../helpers.ts";

let t: TestApp;
let f: Awaited<ReturnType<typeof sessionWithEveryRole>>;
beforeAll(async () => {
  t = await createTestApp();
  f = await sessionWithEveryRole(t);
});
afterAll(async () => t.close());

async function write(op: string, user: string, product: string | null, line: string | null) {
  const [row] = await t.database.rows(sql`
    select * from cart_write(${op}::text, ${f.cartId}::uuid, ${user}::uuid, ${product}::uuid,
      ${line}::uuid, null::integer, ${op === "step" ? 1 : null}::integer,
      ${op === "restore" ? RESTORE_WINDOW_SECONDS : null}::integer, ${QUANTITY_MAX}::integer,
      ${new Date().toISOString()}::timestamptz)`);
  return CartWriteResultSchema.parse(row);
}

describe("a free line through the cart functions", () => {
  it("is stepped, removed and restored by its line id, and the view names it", async () => {
    const ben = f.people.participant.userId;
    const added = await f.as.participant("POST", `/api/carts/${f.cartId}/free-lines`, {
      name: "Birthday candles",
      estimatedPrice: 1.25,
      note: "blue ones",
    });
    expect(added.statusCode, added.body).toBe(200);
    const [{ id }] = (await t.database.rows<{ id: string }>(
      sql`select id from cart_lines where cart_id = ${f.cartId} and product_id is null`,
    )) as [{ id: string }];

    // Without a line id nothing names it (a product's own line is found by its product).
    expect((await write("step", ben, id, null)).verdict).toBe("no_line");
    const stepped = await write("step", ben, id, id);
    expect(stepped.verdict).toBe("ok");
    const line = stepped.view!.lines.find((l) => l.id === id)!;
    expect(line).toMatchObject({
      productId: null,
      productName: "Birthday candles",
      slug: null,
      imageHash: null,
      unitPriceCents: 125,
      quantity: 2,
      note: "blue ones",
      substitute: "any",
    });
    expect((await write("remove", ben, id, id)).verdict).toBe("ok");
    const restored = await write("restore", ben, null, id);
    expect(restored.verdict).toBe("ok");
    expect(restored.view!.lines.find((l) => l.id === id)).toMatchObject({
      productName: "Birthday candles",
      unitPriceCents: 125,
      quantity: 2,
      note: "blue ones",
    });
    const [{ view }] = (await t.database.rows<{ view: unknown }>(
      sql`select cart_view(${f.cartId}::uuid) as view`,
    )) as [{ view: unknown }];
    expect(CartViewSchema.parse(view).lines.some((l) => l.productId === null)).toBe(true);
    // The log names it like any line.
    const log = await t.database.rows<{ type: string; details: { product: string } }>(
      sql`select type, details from activity where session_id = ${f.sessionId} order by seq`,
    );
    expect(log.filter((e) => e.details.product === "Birthday candles").map((e) => e.type)).toEqual([
      "item.added",
      "item.quantity",
      "item.removed",
      "item.restored",
    ]);
  });

  it("the table refuses a line with both a product and a name, or neither, or a long note", async () => {
    const ben = f.people.participant.userId;
    const [{ product }] = (await t.database.rows<{ product: string }>(
      sql`select id as product from products order by slug limit 1`,
    )) as [{ product: string }];
    const insert = (productId: string | null, name: string | null, note: string | null) =>
      t.database
        .rows(sql`insert into cart_lines (cart_id, product_id, name, added_by, quantity, note)
        values (${f.cartId}, ${productId}, ${name}, ${ben}, 1, ${note})`);
    await expect(insert(product, "Candles", null)).rejects.toThrow();
    await expect(insert(null, null, null)).rejects.toThrow();
    await expect(insert(null, "Candles", "x".repeat(201))).rejects.toThrow();
  });
});
