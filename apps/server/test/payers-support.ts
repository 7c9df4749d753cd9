/** An order three members share, for the several-payers and settle-plan API tests. */
import type { Order } from "@cartner/contract";
import { expect } from "vitest";
import {
  cents,
  client,
  sessionWithEveryRole,
  signUp,
  type Client,
  type TestApp,
} from "./helpers.ts";

/**
 * Ann (creator, the payee), Ben and Cat (participants) each with a line, not yet checked out;
 * Vic views and Sam is a stranger.
 */
export async function threeWayCart(test: TestApp) {
  const f = await sessionWithEveryRole(test);
  const cat = await signUp(test, "Cat");
  const asCat = client(test, cat.token);
  const join = await asCat("POST", "/api/sessions/join/code", {
    sessionCode: f.code,
    passcode: "tulip",
  });
  expect(join.statusCode, join.body).toBe(202);
  await f.as.creator("POST", `/api/sessions/approve/${f.code}`, { userId: cat.userId });
  const products = (await f.as.creator("GET", "/api/products?limit=50")).json().products as {
    _id: string;
    stock: number;
  }[];
  // Products with stock to spare, so that checkouts (which take stock) leave the next cart the same.
  const [a, b, c] = products.filter((p) => p.stock >= 100);
  for (const [as, product, quantity] of [
    [f.as.creator, a!, 2],
    [f.as.participant, b!, 3],
    [asCat, c!, 1],
  ] as const) {
    const res = await as("POST", `/api/carts/${f.cartId}/product`, {
      productId: product._id,
      quantity,
    });
    expect(res.statusCode, res.body).toBe(200);
  }
  const ids = {
    ann: f.people.creator.userId,
    ben: f.people.participant.userId,
    cat: cat.userId,
  };
  return { ...f, asCat, ids };
}

/** The same three-way cart, checked out with the payee paying it all. */
export async function threeWayOrder(test: TestApp) {
  const f = await threeWayCart(test);
  const placed = await f.as.creator("POST", `/api/sessions/${f.sessionId}/checkout`);
  expect(placed.statusCode, placed.body).toBe(201);
  const order = placed.json().order as Order;
  // The checkout's mails are jobs of the queue, each writing its share's status when sent: once
  // they are done, the order changes only by what the test does.
  await test.app.idle();
  return { ...f, order };
}

/** Net of every balance the caller sees, in cents by name (positive: owed to them). */
export async function netsOf(as: Client): Promise<Record<string, number>> {
  const { balances } = (await as("GET", "/api/balances")).json() as {
    balances: { user: { name: string }; amount: number }[];
  };
  return Object.fromEntries(balances.map((b) => [b.user.name, cents(b.amount)]));
}
