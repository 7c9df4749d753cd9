/**
 * A small household's data made through the API, and the figures people read back (carts,
 * orders, balances, activity). The backup test and the upgrade fixture use both; the calls are
 * ones every release since orders and the activity log (migration 0012) answers alike.
 */
import { call, mailboxCode, signUp } from "./server-process.ts";

export const HOUSEHOLD = [
  { name: "Ann", email: "ann.upgrade@example.com" },
  { name: "Ben", email: "ben.upgrade@example.com" },
  { name: "Cleo", email: "cleo.upgrade@example.com" },
] as const;

export interface Person {
  name: string;
  email: string;
  userId: string;
  token: string;
}

export interface Household {
  people: Person[];
  /** Checked out: Ben's share paid and confirmed, Cleo's still owed. */
  ordered: { sessionId: string; cartId: string; orderId: string };
  /** An open cart with lines of Ann and Ben. */
  open: { sessionId: string; cartId: string };
  products: Array<{ _id: string; name: string }>;
}

async function ok<T = unknown>(
  promise: ReturnType<typeof call>,
  what: string,
  status = 200,
): Promise<T> {
  const res = await promise;
  if (res.status !== status) {
    throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  }
  return res.body as T;
}

/** A session of `creator` that the others joined (by code) and were approved into. */
export async function sessionOf(base: string, creator: Person, others: Person[], name: string) {
  const created = await ok<{ session: { _id: string; cartId: string; sessionCode: string } }>(
    call(base, "POST", "/api/sessions", {
      token: creator.token,
      body: { sessionName: name, sessionType: "Family", participants: "3+", passcode: "tulip" },
    }),
    "create session",
    201,
  );
  const { session } = created;
  for (const person of others) {
    await ok(
      call(base, "POST", "/api/sessions/join/code", {
        token: person.token,
        body: { sessionCode: session.sessionCode, passcode: "tulip" },
      }),
      "join",
      202,
    );
    await ok(
      call(base, "POST", `/api/sessions/approve/${session.sessionCode}`, {
        token: creator.token,
        body: { userId: person.userId },
      }),
      "approve",
    );
  }
  return { sessionId: session._id, cartId: session.cartId };
}

export const addLine = (base: string, person: Person, cartId: string, productId: string, n = 1) =>
  ok(
    call(base, "POST", `/api/carts/${cartId}/product`, {
      token: person.token,
      body: { productId, quantity: n },
    }),
    "add line",
  );

/** Signs the household up and makes an order (one share paid, one owed) and an open cart. */
export async function makeHousehold(base: string): Promise<Household> {
  const people: Person[] = [];
  for (const { name, email } of HOUSEHOLD)
    people.push({ name, ...(await signUp(base, name, email)) });
  const [ann, ben, cleo] = people as [Person, Person, Person];
  const { products: all } = await ok<{
    products: Array<{ _id: string; name: string; stock: number }>;
  }>(call(base, "GET", "/api/products?limit=50", { token: ann.token }), "products");
  const products = all.filter((p) => p.stock >= 20).slice(0, 6);
  if (products.length < 6) throw new Error("not enough products in stock");
  const [p1, p2, p3, p4, p5, p6] = products as [(typeof products)[number], ...typeof products];

  const ordered = await sessionOf(base, ann, [ben, cleo], "Weekly shop");
  await addLine(base, ann, ordered.cartId, p1._id, 2);
  await addLine(base, ben, ordered.cartId, p2!._id, 3);
  await addLine(base, cleo, ordered.cartId, p3!._id, 1);
  await addLine(base, ann, ordered.cartId, p4!._id, 1);
  await ok(
    call(base, "PATCH", `/api/carts/${ordered.cartId}/quantity`, {
      token: cleo.token,
      body: { productId: p3!._id, change: 1 },
    }),
    "quantity",
  );
  await ok(
    call(base, "DELETE", `/api/carts/${ordered.cartId}/product/${p4!._id}`, { token: ann.token }),
    "remove line",
  );
  const { order } = await ok<{ order: { _id: string } }>(
    call(base, "POST", `/api/sessions/${ordered.sessionId}/checkout`, { token: ann.token }),
    "checkout",
    201,
  );
  await ok(call(base, "POST", `/api/orders/${order._id}/paid`, { token: ben.token }), "paid");
  await ok(
    call(base, "POST", `/api/orders/${order._id}/confirm/${ben.userId}`, { token: ann.token }),
    "confirm",
  );

  const open = await sessionOf(base, ann, [ben], "Next week");
  await addLine(base, ann, open.cartId, p5!._id, 2);
  await addLine(base, ben, open.cartId, p6!._id, 4);
  return {
    people,
    ordered: { ...ordered, orderId: order._id },
    open,
    products: products.map(({ _id, name }) => ({ _id, name })),
  };
}

/** Every activity entry of a session, oldest first (paged by seq). */
export async function allActivity(base: string, token: string, sessionId: string) {
  const entries: Array<{ seq: number; type: string; [key: string]: unknown }> = [];
  for (;;) {
    const after = entries.at(-1)?.seq ?? 0;
    const page = await ok<{ events: typeof entries }>(
      call(base, "GET", `/api/sessions/${sessionId}/activity?after=${after}&limit=100`, { token }),
      "activity",
    );
    entries.push(...page.events);
    if (page.events.length < 100) return entries;
  }
}

/** What each person reads: the two carts, the orders and the order, balances, activity. */
export async function readFigures(base: string, household: Household) {
  const [ann] = household.people as [Person];
  const get = (url: string, token: string) => ok(call(base, "GET", url, { token }), url);
  const perPerson: Record<string, unknown> = {};
  for (const person of household.people) {
    perPerson[person.name] = {
      orders: await get("/api/orders", person.token),
      order: await get(`/api/orders/${household.ordered.orderId}`, person.token),
      balances: await get("/api/balances", person.token),
    };
  }
  return {
    carts: {
      ordered: await get(`/api/carts/${household.ordered.cartId}`, ann.token),
      open: await get(`/api/carts/${household.open.cartId}`, ann.token),
    },
    activity: {
      ordered: await allActivity(base, ann.token, household.ordered.sessionId),
      open: await allActivity(base, ann.token, household.open.sessionId),
    },
    people: perPerson,
  };
}

/** Signs in again with the password (a code through the dev outbox): a new token. */
export async function signIn(
  base: string,
  person: { name: string; email: string; userId: string },
  password: string,
): Promise<Person> {
  const start = await ok<{ userId: string }>(
    call(base, "POST", "/api/auth/login", { body: { email: person.email, password } }),
    "login",
  );
  const code = await mailboxCode(base, person.email);
  const verified = await ok<{ token: string }>(
    call(base, "POST", "/api/auth/verify-otp", { body: { userId: start.userId, code } }),
    "verify",
  );
  return { ...person, token: verified.token };
}

/** Absolute URLs carry the server's own origin (its port): the same figures on another server. */
export const sameOrigin = (value: unknown): unknown =>
  JSON.parse(JSON.stringify(value).replace(/http:\/\/localhost:\d+/g, "ORIGIN"));
