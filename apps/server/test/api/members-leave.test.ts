/**
 * Members who leave take their lines (PGlite and PostgreSQL): removing a member or leaving while
 * they have lines in the active cart asks what becomes of them (409 MEMBER_HAS_LINES with the
 * count), `lines=remove` takes them out, `lines=give&to=` hands them to a member who stays; either
 * way the person leaves every line's sharers, nobody changes a line whose adder is not a member,
 * and no order bills a non-member.
 */
import fs from "node:fs/promises";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { executeRows } from "../../src/db/client.ts";
import { createTestApp, filledSession, type TestApp } from "../helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

type Line = {
  _id: string;
  quantity: number;
  productId: { _id: string; name: string };
  addedBy: { _id: string; name: string };
  sharedWith: { _id: string }[];
};

/** Ann (creator) with a line, Ben (participant) with a line, both from filledSession(). */
async function setUp() {
  const f = await filledSession(t);
  const cart = async (): Promise<Line[]> =>
    (await f.as.creator("GET", `/api/sessions/${f.sessionId}/cart`)).json().cart.products;
  const lineOf = async (name: string) => (await cart()).filter((l) => l.addedBy.name === name);
  const ben = f.people.participant.userId;
  const ann = f.people.creator.userId;
  return { ...f, cart, lineOf, ben, ann };
}

/** The activity entries of a session, newest last. */
async function activity(f: Awaited<ReturnType<typeof setUp>>) {
  return (await f.as.creator("GET", `/api/sessions/${f.sessionId}/activity?limit=200`)).json()
    .events as Record<string, unknown>[];
}

describe("removing a member who has lines", () => {
  it("is refused with the count until the creator says what becomes of them; nothing changes", async () => {
    const f = await setUp();
    const url = `/api/sessions/${f.sessionId}/members/${f.ben}`;
    const before = (await f.as.creator("GET", `/api/sessions/${f.sessionId}`)).json().session;
    const res = await f.as.creator("DELETE", url);
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json()).toMatchObject({
      code: "MEMBER_HAS_LINES",
      lines: 1,
      message: "Ben still has 1 line in the cart: remove it or give it to someone who stays.",
    });
    const after = (await f.as.creator("GET", `/api/sessions/${f.sessionId}`)).json().session;
    expect(after.version).toBe(before.version);
    expect(after.invitedUsers.map((m: { name: string }) => m.name)).toContain("Ben");
    expect(await f.lineOf("Ben")).toHaveLength(1);
  });

  it("lines=remove takes them out, logs why, and Ben leaves every line's sharers; checkout bills Ann alone", async () => {
    const f = await setUp();
    const [annLine] = await f.lineOf("Ann");
    const shared = await f.as.creator(
      "PUT",
      `/api/carts/${f.cartId}/lines/${annLine!._id}/shared-with`,
      {
        userIds: [f.ann, f.ben],
      },
    );
    expect(shared.statusCode, shared.body).toBe(200);
    const res = await f.as.creator(
      "DELETE",
      `/api/sessions/${f.sessionId}/members/${f.ben}?lines=remove`,
    );
    expect(res.statusCode, res.body).toBe(200);
    const lines = await f.cart();
    expect(lines.map((l) => l.addedBy.name)).toEqual(["Ann"]);
    expect(lines[0]!.sharedWith.map((u) => u._id)).toEqual([f.ann]);
    const entries = await activity(f);
    expect(entries.find((e) => e.type === "item.removed")).toMatchObject({
      actor: { name: "Ann" },
      reason: "member_left",
      lineOf: "Ben",
      quantity: 3,
    });
    expect(entries.at(-1)).toMatchObject({ type: "member.removed", member: "Ben" });

    const checkout = await f.as.creator("POST", `/api/sessions/${f.sessionId}/checkout`);
    expect(checkout.statusCode, checkout.body).toBe(201);
    const { order } = checkout.json();
    expect(order.split.map((s: { name: string }) => s.name)).toEqual(["Ann"]);
    expect(order.split[0].total).toBe(order.total);
  });

  it("lines=give hands them to a member who stays, merging with that member's own line of the product", async () => {
    const f = await setUp();
    const [benLine] = await f.lineOf("Ben");
    // Ann has the same product too: the two lines become Ann's one line.
    const add = await f.as.creator("POST", `/api/carts/${f.cartId}/product`, {
      productId: benLine!.productId._id,
      quantity: 2,
    });
    expect(add.statusCode, add.body).toBe(200);
    const res = await f.as.creator(
      "DELETE",
      `/api/sessions/${f.sessionId}/members/${f.ben}?lines=give&to=${f.ann}`,
    );
    expect(res.statusCode, res.body).toBe(200);
    const lines = await f.cart();
    expect(lines.every((l) => l.addedBy.name === "Ann")).toBe(true);
    expect(lines.find((l) => l.productId._id === benLine!.productId._id)!.quantity).toBe(5);
    expect((await activity(f)).find((e) => e.type === "item.given")).toMatchObject({
      lineOf: "Ben",
      to: "Ann",
      toId: f.ann,
      quantity: 3,
    });
    // Counted lines given stay counted: the entry does not say they wait.
    expect((await activity(f)).find((e) => e.type === "item.given")).not.toHaveProperty("pending");
  });

  it("refuses bad choices with a 400 naming the field, and changes nothing", async () => {
    const f = await setUp();
    const base = `/api/sessions/${f.sessionId}/members/${f.ben}`;
    for (const query of [
      "?lines=give",
      `?to=${f.ann}`,
      "?lines=maybe",
      `?lines=give&to=${f.ben}`,
      `?lines=give&to=${f.people.viewer.userId}`,
      `?lines=give&to=${f.people.stranger.userId}`,
      "?lines=give&to=not-a-uuid",
    ]) {
      const res = await f.as.creator("DELETE", base + query);
      expect(res.statusCode, `${query}: ${res.body}`).toBe(400);
      expect(res.json().message).toBeTruthy();
    }
    expect(await f.lineOf("Ben")).toHaveLength(1);
  });
});

describe("leaving with lines", () => {
  it("asks the same of the member who leaves, then removes or gives their lines", async () => {
    const f = await setUp();
    const url = `/api/sessions/${f.sessionId}/leave`;
    const refused = await f.as.participant("DELETE", url);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: "MEMBER_HAS_LINES",
      lines: 1,
      message: "You still have 1 line in the cart: remove it or give it to someone who stays.",
    });
    const left = await f.as.participant("DELETE", `${url}?lines=give&to=${f.ann}`);
    expect(left.statusCode, left.body).toBe(200);
    expect(left.json()).toEqual({ message: "You left the session" });
    expect((await f.cart()).map((l) => l.addedBy.name)).toEqual(["Ann", "Ann"]);
    const entries = await activity(f);
    expect(entries.find((e) => e.type === "item.given")).toMatchObject({ actor: { name: "Ben" } });
    expect(entries.at(-1)).toMatchObject({ type: "member.left", actor: { name: "Ben" } });
  });

  it("a viewer or a member without lines leaves as before", async () => {
    const f = await setUp();
    expect((await f.as.viewer("DELETE", `/api/sessions/${f.sessionId}/leave`)).statusCode).toBe(
      200,
    );
    expect((await f.as.pending("DELETE", `/api/sessions/${f.sessionId}/leave`)).statusCode).toBe(
      200,
    );
  });
});

describe("a line whose adder is not a member", () => {
  it("cannot be changed or brought back by anyone, only removed", async () => {
    const f = await setUp();
    const [benLine] = await f.lineOf("Ben");
    // Ann removes Ben's line, then Ben (who has none now): her undo may not bring it back.
    const removed = await f.as.creator(
      "DELETE",
      `/api/carts/${f.cartId}/product/${benLine!.productId._id}?lineId=${benLine!._id}`,
    );
    expect(removed.statusCode, removed.body).toBe(200);
    expect(
      (await f.as.creator("DELETE", `/api/sessions/${f.sessionId}/members/${f.ben}`)).statusCode,
    ).toBe(200);
    const restore = await f.as.creator(
      "POST",
      `/api/carts/${f.cartId}/lines/${benLine!._id}/restore`,
    );
    expect(restore.statusCode).toBe(409);
    expect(await f.lineOf("Ben")).toHaveLength(0);

    // Data from before this rule: a line whose adder's membership is gone.
    const g = await setUp();
    const [gLine] = await g.lineOf("Ben");
    await t.database.db.execute(
      sql`delete from session_members where session_id = ${g.sessionId} and user_id = ${g.ben}`,
    );
    const step = await g.as.creator("PATCH", `/api/carts/${g.cartId}/quantity`, {
      productId: gLine!.productId._id,
      lineId: gLine!._id,
      change: 1,
    });
    expect(step.statusCode, step.body).toBe(409);
    expect(step.json().message).toMatch(/no longer in the session/);
    const share = await g.as.creator(
      "PUT",
      `/api/carts/${g.cartId}/lines/${gLine!._id}/shared-with`,
      {
        userIds: [g.ann],
      },
    );
    expect(share.statusCode, share.body).toBe(409);
    const [row] = await executeRows<{ quantity: number }>(
      t.database.db,
      sql`select quantity from cart_lines where id = ${gLine!._id}`,
    );
    expect(row!.quantity).toBe(3);
    const gone = await g.as.creator(
      "DELETE",
      `/api/carts/${g.cartId}/product/${gLine!.productId._id}?lineId=${gLine!._id}`,
    );
    expect(gone.statusCode, gone.body).toBe(200);
  });
});

describe("migration 0028 (lines an earlier release left behind)", () => {
  it("removes lines whose adder is no longer a member from active carts, logged, and unshares them", async () => {
    const f = await setUp();
    const [annLine] = await f.lineOf("Ann");
    await f.as.creator("PUT", `/api/carts/${f.cartId}/lines/${annLine!._id}/shared-with`, {
      userIds: [f.ann, f.ben],
    });
    const versionOf = async () =>
      (
        await executeRows<{ version: number }>(
          t.database.db,
          sql`select version from sessions where id = ${f.sessionId}`,
        )
      )[0]!.version;
    const before = await versionOf();
    // What an earlier release did: Ben's membership went, his line and his part stayed.
    await t.database.db.execute(
      sql`delete from session_members where session_id = ${f.sessionId} and user_id = ${f.ben}`,
    );
    const file = await fs.readFile(
      new URL("../../drizzle/0028_members_leave_lines.sql", import.meta.url),
      "utf8",
    );
    for (const statement of file.split("--> statement-breakpoint")) {
      await t.database.db.execute(sql.raw(statement));
    }
    const lines = await f.cart();
    expect(lines.map((l) => l.addedBy.name)).toEqual(["Ann"]);
    expect(lines[0]!.sharedWith.map((u) => u._id)).toEqual([f.ann]);
    expect(await versionOf()).toBe(before + 1);
    expect((await activity(f)).at(-1)).toMatchObject({
      type: "item.removed",
      actor: { name: "Ben" },
      lineOf: "Ben",
      reason: "member_left",
      quantity: 3,
    });
  });
});
