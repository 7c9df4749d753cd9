/**
 * A line given on leaving that joins the recipient's line of the same product (one line per
 * member and product, decision 048): when either line waits for approval, the merged line waits,
 * so given units waiting are never counted without a decision, and the request for approval
 * follows the line they now belong to.
 */
import type { Cart, CartLine, Notification } from "@cartner/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, sessionWithEveryRole, type TestApp } from "../helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

type Fixture = Awaited<ReturnType<typeof sessionWithEveryRole>>;
type Who = keyof Fixture["as"];

/** Ann's session with Pat made a participant too; two products with stock to spare. */
async function session() {
  const f = await sessionWithEveryRole(t);
  const ok = await f.as.creator("POST", `/api/sessions/approve/${f.code}`, {
    userId: f.people.pending.userId,
  });
  expect(ok.statusCode, ok.body).toBe(200);
  const products = (await f.as.creator("GET", "/api/products?limit=3")).json().products as {
    _id: string;
  }[];
  return { ...f, first: products[0]!._id, second: products[1]!._id };
}

const cartOf = async (f: Fixture, who: Who = "creator") =>
  (await f.as[who]("GET", `/api/carts/${f.cartId}`)).json().cart as Cart;
const linesOf = (cart: Cart, productId: string) =>
  cart.products.filter((l) => l.productId._id === productId) as CartLine[];

async function add(f: Fixture, who: Who, productId: string): Promise<Cart> {
  const res = await f.as[who]("POST", `/api/carts/${f.cartId}/product`, { productId });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().cart as Cart;
}

/** `who` asks first, with a budget of what they have in the cart now (so any more waits). */
async function asksFirst(f: Fixture, who: "participant" | "pending") {
  const userId = f.people[who].userId;
  const share = (await cartOf(f)).split.find((s) => s.userId === userId)!.total;
  const set = await f.as.creator("PATCH", `/api/sessions/${f.sessionId}/members/${userId}`, {
    budget: share,
    budgetMode: "ask",
  });
  expect(set.statusCode, set.body).toBe(200);
}

async function leaveGiving(f: Fixture, who: Who, to: string) {
  const left = await f.as[who]("DELETE", `/api/sessions/${f.sessionId}/leave?lines=give&to=${to}`);
  expect(left.statusCode, left.body).toBe(200);
}

/** The session's "gave a line" entry of the product, as the creator reads the log. */
async function givenEntry(f: Fixture, productId: string) {
  const res = await f.as.creator("GET", `/api/sessions/${f.sessionId}/activity?limit=50`);
  expect(res.statusCode, res.body).toBe(200);
  const entries = res.json().events as Array<{ type: string; productId: string }>;
  return entries.find((e) => e.type === "item.given" && e.productId === productId);
}

/** Waits for the creator's request for approval of the line, and answers it. */
async function askFor(f: Fixture, lineId: string): Promise<Notification> {
  const find = async () =>
    ((await f.as.creator("GET", "/api/notifications")).json().notifications as Notification[]).find(
      (n) => n.approval?.lineId === lineId,
    );
  await expect.poll(find).toBeDefined();
  return (await find())!;
}

describe("a given line joining the recipient's line of the product", () => {
  it("waiting, joins a counted line of the creator's: the merged line waits until approved", async () => {
    const f = await session();
    await add(f, "participant", f.first);
    await asksFirst(f, "participant");
    await add(f, "creator", f.second);
    const asked = await add(f, "participant", f.second);
    const bens = linesOf(asked, f.second).find(
      (l) => l.addedBy._id === f.people.participant.userId,
    )!;
    expect(bens.pending).not.toBeNull();
    await askFor(f, bens._id);
    const before = await cartOf(f);

    await leaveGiving(f, "participant", f.people.creator.userId);
    const after = await cartOf(f);
    const [merged, ...more] = linesOf(after, f.second);
    expect(more).toEqual([]);
    expect(merged).toMatchObject({ quantity: 2, addedBy: { _id: f.people.creator.userId } });
    // Nobody approved Ben's unit: it is not counted, and the line waits as a whole (decision 048).
    expect(merged!.pending).not.toBeNull();
    expect(await givenEntry(f, f.second)).toMatchObject({ pending: true });
    expect(await givenEntry(f, f.first)).not.toHaveProperty("pending");
    expect(after.totalPrice).toBeLessThan(before.totalPrice);
    expect(after.pendingTotal).toBeGreaterThan(before.pendingTotal);
    const shares = (cart: Cart) => cart.split.reduce((sum, s) => sum + s.total, 0);
    expect(shares(after)).toBeLessThan(shares(before));
    // The request for approval Ann had follows the line it now belongs to, still waiting.
    expect((await askFor(f, merged!._id)).approval).toMatchObject({ waiting: true });

    const approved = await f.as.creator(
      "POST",
      `/api/carts/${f.cartId}/lines/${merged!._id}/approve`,
      {},
    );
    expect(approved.statusCode, approved.body).toBe(200);
    const counted = approved.json().cart as Cart;
    expect(counted.pendingTotal).toBe(0);
    expect(counted.totalPrice).toBeGreaterThan(before.totalPrice);
  });

  it("counted, joins a waiting line: the merged line still waits, for the creator to decide", async () => {
    const f = await session();
    await add(f, "participant", f.first);
    await asksFirst(f, "participant");
    const asked = await add(f, "participant", f.second);
    const bens = linesOf(asked, f.second)[0]!;
    expect(bens.pending).not.toBeNull();
    await add(f, "pending", f.second);
    const before = await cartOf(f);

    await leaveGiving(f, "pending", f.people.participant.userId);
    const after = await cartOf(f);
    const [merged, ...more] = linesOf(after, f.second);
    expect(more).toEqual([]);
    expect(merged).toMatchObject({ _id: bens._id, quantity: 2 });
    expect(merged!.pending).not.toBeNull();
    // Pat's counted unit now waits with Ben's line: the log says so.
    expect(await givenEntry(f, f.second)).toMatchObject({ pending: true });
    expect(after.totalPrice).toBeLessThan(before.totalPrice);
    const declined = await f.as.creator(
      "POST",
      `/api/carts/${f.cartId}/lines/${merged!._id}/decline`,
      {},
    );
    expect(declined.statusCode, declined.body).toBe(200);
    expect(linesOf(declined.json().cart as Cart, f.second)).toEqual([]);
  });

  it("both waiting: the merged line waits since the earlier request", async () => {
    const f = await session();
    for (const who of ["participant", "pending"] as const) await add(f, who, f.first);
    for (const who of ["participant", "pending"] as const) await asksFirst(f, who);
    const bens = linesOf(await add(f, "participant", f.second), f.second)[0]!;
    const pats = linesOf(await add(f, "pending", f.second), f.second).find(
      (l) => l._id !== bens._id,
    )!;
    expect(pats.pending).not.toBeNull();
    const earlier = [bens.pending!.requestedAt, pats.pending!.requestedAt].sort()[0];

    await leaveGiving(f, "pending", f.people.participant.userId);
    const [merged, ...more] = linesOf(await cartOf(f), f.second);
    expect(more).toEqual([]);
    expect(merged).toMatchObject({ _id: bens._id, quantity: 2 });
    expect(merged!.pending!.requestedAt).toBe(earlier);
  });
});
