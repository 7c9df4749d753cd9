/**
 * A group of named people in one session, for API tests whose figures are worked out by hand:
 * the first person creates it, the others join; lines are catalog products by name; checkout
 * names the payers by person. Every call must succeed.
 */
import { endpoints, splitEndpointKey, type EndpointKey, type Order } from "@cartner/contract";
import { expect } from "vitest";
import { cents, client, signUp, type Client, type TestApp } from "./helpers.ts";

type Product = { _id: string; name: string; price: number };

export async function group<const N extends string>(t: TestApp, names: readonly N[]) {
  const people = {} as Record<N, { userId: string; token: string; email: string }>;
  for (const name of names) people[name] = await signUp(t, name);
  const as = Object.fromEntries(names.map((n) => [n, client(t, people[n].token)])) as Record<
    N,
    Client
  >;
  const id = (name: N) => people[name].userId;
  const [first, ...others] = names;
  const created = await as[first!]("POST", "/api/sessions", {
    sessionName: "Saturday shop",
    sessionType: "Friends",
    participants: "3+",
    passcode: "tulip",
  });
  expect(created.statusCode, created.body).toBe(201);
  const session = created.json().session as { _id: string; sessionCode: string; cartId: string };
  for (const n of others) {
    const join = await as[n]("POST", "/api/sessions/join/code", {
      sessionCode: session.sessionCode,
      passcode: "tulip",
    });
    expect(join.statusCode, join.body).toBe(202);
    const ok = await as[first!]("POST", `/api/sessions/approve/${session.sessionCode}`, {
      userId: id(n),
    });
    expect(ok.statusCode, ok.body).toBe(200);
  }
  const catalog = (await as[first!]("GET", "/api/products?limit=100")).json().products as Product[];
  const product = (name: string) => {
    const p = catalog.find((x) => x.name === name);
    if (!p) throw new Error(`no product ${name}`);
    return p;
  };

  return {
    people,
    as,
    id,
    session,
    product,
    async policy(mode: "by_adder" | "equal" | "weights", weights: Partial<Record<N, number>> = {}) {
      const res = await as[first!]("PUT", `/api/sessions/${session._id}/split-policy`, {
        mode,
        weights: Object.fromEntries(Object.entries(weights).map(([n, w]) => [id(n as N), w])),
        fees: "proportional",
      });
      expect(res.statusCode, res.body).toBe(200);
    },
    async add(name: N, productName: string, quantity: number) {
      const res = await as[name]("POST", `/api/carts/${session.cartId}/product`, {
        productId: product(productName)._id,
        quantity,
      });
      expect(res.statusCode, res.body).toBe(200);
    },
    async summary() {
      const res = await as[first!]("GET", `/api/sessions/${session._id}/summary`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as {
        split: { userId: string; subtotal: number; fees: number; tax: number; total: number }[];
        subtotal: number;
        fees: number;
        tax: number;
        total: number;
      };
    },
    /** Checks out; `payers` in cents by person (none: the creator paid it all). */
    async checkout(payers?: Partial<Record<N, number>>): Promise<Order> {
      const body = payers
        ? {
            payers: Object.entries(payers).map(([n, c]) => ({
              userId: id(n as N),
              amount: (c as number) / 100,
            })),
          }
        : undefined;
      const res = await as[first!]("POST", `/api/sessions/${session._id}/checkout`, body);
      expect(res.statusCode, res.body).toBe(201);
      return res.json().order as Order;
    },
  };
}

/** An order's parts in cents: "Ben>Ann" -> { amount, open, credit }. */
export function partsByName(order: Order, names: Record<string, string>) {
  const nameOf = (id: string) => Object.keys(names).find((n) => names[n] === id) ?? id;
  return Object.fromEntries(
    order.parts.map((p) => [
      `${nameOf(p.debtor)}>${nameOf(p.payer)}`,
      { amount: cents(p.amount), open: cents(p.open), credit: cents(p.credit) },
    ]),
  );
}

/** Each balance the caller sees, in cents by the other person's id (positive: they owe). */
export async function balancesOf(as: Client): Promise<Record<string, number>> {
  const res = await as("GET", "/api/balances");
  expect(res.statusCode, res.body).toBe(200);
  return Object.fromEntries(
    (res.json().balances as { user: { _id: string }; amount: number }[])
      .filter((b) => b.amount !== 0)
      .map((b) => [b.user._id, cents(b.amount)]),
  );
}

/**
 * Every GET route of the endpoint table whose path a member can fill in for the session: where a
 * line hidden from a member must leave no trace (walked from the table, not listed).
 */
export function readRoutes(session: {
  _id: string;
  cartId: string;
  sessionCode: string;
}): { key: EndpointKey; url: string }[] {
  const values: Record<string, string> = {
    id: session._id,
    sessionId: session._id,
    cartId: session.cartId,
    code: session.sessionCode,
  };
  return (Object.keys(endpoints) as EndpointKey[]).flatMap((key) => {
    const [method, path] = splitEndpointKey(key);
    if (method !== "GET") return [];
    const params = [...path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
    if (!params.every((p) => p in values)) return [];
    return [{ key, url: path.replace(/:(\w+)/g, (_, p: string) => values[p]!) }];
  });
}
