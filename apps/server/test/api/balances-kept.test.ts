/**
 * Balances and the settle plan are kept per reader (lib/kept-answers.ts) while their light query
 * reads the same: after a read that kept the answer, a payment on one of the reader's orders, a
 * new name and a payment on an order beyond the reader's (between two others) are all in the
 * next answer.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cents, client, createTestApp, signUp, type Client, type TestApp } from "../helpers.ts";

let t: TestApp;
let productIds: string[];
beforeAll(async () => {
  t = await createTestApp();
  const someone = await signUp(t, "Zed");
  const products = (await client(t, someone.token)("GET", "/api/products?limit=50")).json()
    .products as { _id: string; stock: number }[];
  productIds = products.filter((p) => p.stock > 10).map((p) => p._id);
});
afterAll(async () => t?.close());

interface Person {
  userId: string;
  as: Client;
}
async function person(name: string): Promise<Person> {
  const p = await signUp(t, name);
  return { userId: p.userId, as: client(t, p.token) };
}

/** `payee` checks out a session where each member added `quantity` of one product; its id. */
async function orderOf(payee: Person, members: Person[], product: number, quantity: number) {
  const created = await payee.as("POST", "/api/sessions", {
    sessionName: "Shop",
    sessionType: "Friends",
    participants: "3+",
    passcode: "tulip",
  });
  expect(created.statusCode, created.body).toBe(201);
  const { _id: sessionId, sessionCode, cartId } = created.json().session;
  for (const m of members) {
    const joined = await m.as("POST", "/api/sessions/join/code", {
      sessionCode,
      passcode: "tulip",
    });
    expect(joined.statusCode, joined.body).toBe(202);
    await payee.as("POST", `/api/sessions/approve/${sessionCode}`, { userId: m.userId });
    const added = await m.as("POST", `/api/carts/${cartId}/product`, {
      productId: productIds[product],
      quantity,
    });
    expect(added.statusCode, added.body).toBe(200);
  }
  const placed = await payee.as("POST", `/api/sessions/${sessionId}/checkout`);
  expect(placed.statusCode, placed.body).toBe(201);
  return placed.json().order._id as string;
}

async function settle(payee: Person, debtor: Person, orderId: string) {
  expect((await debtor.as("POST", `/api/orders/${orderId}/paid`)).statusCode).toBe(200);
  const confirmed = await payee.as("POST", `/api/orders/${orderId}/confirm/${debtor.userId}`, {
    how: "transfer",
  });
  expect(confirmed.statusCode, confirmed.body).toBe(200);
}

type Plan = { from: { name: string }; to: { name: string }; amount: number; recordable: boolean }[];
type Balances = { user: { name: string }; amount: number; orders: unknown[] }[];

describe("balances and the settle plan, kept", () => {
  it("follow a payment, a new name and a payment on an order beyond the reader's", async () => {
    const [ann, ben, cat] = [await person("Ann"), await person("Ben"), await person("Cat")];
    // Cat owes Ann on an older order Ben is not part of, and on the one Ben is.
    const beyond = await orderOf(ann, [cat], 1, 2);
    const shared = await orderOf(ann, [ben, cat], 0, 1);
    const plan = async () => {
      const res = await ben.as("GET", "/api/balances/settle-plan");
      expect(res.statusCode, res.body).toBe(200);
      return res.json().transfers as Plan;
    };
    const balances = async () => {
      const res = await ben.as("GET", "/api/balances");
      expect(res.statusCode, res.body).toBe(200);
      return res.json().balances as Balances;
    };
    const catToAnn = async () => (await plan()).find((p) => p.from.name === "Cat")!;

    const first = await plan();
    expect(await plan()).toEqual(first);
    expect(first).toHaveLength(2);
    // What Cat owes on the older order comes first: the amount of the shared one settles no
    // whole part.
    expect((await catToAnn()).recordable).toBe(false);
    const owed = await balances();
    expect(await balances()).toEqual(owed);
    expect(owed.map((b) => b.user.name)).toEqual(["Ann"]);

    await settle(ann, cat, beyond);
    expect((await catToAnn()).recordable).toBe(true);

    await t.database.db.execute(sql`update users set name = 'Annie' where id = ${ann.userId}`);
    expect((await balances()).map((b) => b.user.name)).toEqual(["Annie"]);
    expect((await plan()).map((p) => p.to.name)).toEqual(["Annie", "Annie"]);

    await settle(ann, ben, shared);
    expect(await balances()).toEqual([]);
    const left = await plan();
    expect(left.map((p) => [p.from.name, p.to.name, p.recordable])).toEqual([
      ["Cat", "Annie", true],
    ]);
    expect(cents(left[0]!.amount)).toBe(cents(first.find((p) => p.from.name === "Cat")!.amount));
  });
});
