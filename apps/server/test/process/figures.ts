/**
 * A household's data made through the API, and the figures people read back (carts, orders, My
 * Orders, balances, the settle plan, activity). The backup test runs both on today's server; the
 * upgrade fixtures ran them on earlier releases (make-fixture.ts), so each step that needs a
 * later feature runs only where the server's OpenAPI document lists it (`featuresOf`). Every
 * release since checkout (migration 0009) answers the rest alike.
 */
import { call, mailboxCode, PASSWORD, signUp } from "./server-process.ts";

export const HOUSEHOLD = [
  { name: "Ann", email: "ann.upgrade@example.com" },
  { name: "Ben", email: "ben.upgrade@example.com" },
  { name: "Cleo", email: "cleo.upgrade@example.com" },
  { name: "Dan", email: "dan.upgrade@example.com" },
] as const;

export interface Person {
  name: string;
  email: string;
  userId: string;
  token: string;
  /** Deleted their account (where the release could): nobody reads as them any more. */
  deleted?: boolean;
}

export interface Placed {
  name: string;
  sessionId: string;
  cartId: string;
  orderId: string;
}

export interface Household {
  people: Person[];
  /**
   * Checked out, oldest first. "Weekly shop" (Ann pays the shop; split by adder, one line shared
   * by Ben, Cleo and Dan): Ben's share paid and confirmed, Cleo's paid and not confirmed, Dan's
   * owed, then his account deleted. "Party" (Ben pays, Ann 100.00 of it where several may pay;
   * equal split, fees equal): Cleo's share paid and confirmed, then a line not delivered (she has
   * a credit); Ann's owed, then what is owed between her and Ben paid by a transfer. "Dinner"
   * (Cleo pays; weights 100/50/100/100, fees on the creator): Ann's share paid and not confirmed,
   * Ben's paid in cash, Dan's written off after his account was deleted. Each later step only
   * where the release had it; before, the share stays as it was.
   */
  orders: Placed[];
  /** An open cart with lines of Ann and Ben. */
  open: { sessionId: string; cartId: string };
  products: Array<{ _id: string; name: string }>;
}

/** What a server can do beyond checkout, read from its OpenAPI document. */
export interface Features {
  activity: boolean;
  accountDeletion: boolean;
  /** The payee settles a share as paid in cash or written off (a body on confirm). */
  cashAndWriteOff: boolean;
  adjustments: boolean;
  /** Several people paid the shop (PUT /orders/:id/payers). */
  severalPayers: boolean;
  transfers: boolean;
  settlePlan: boolean;
}

export async function featuresOf(base: string): Promise<Features> {
  const doc = (await ok(call(base, "GET", "/api/docs/json"), "OpenAPI")) as {
    paths: Record<string, Record<string, { requestBody?: unknown }>>;
  };
  const op = (method: string, path: string) => doc.paths[path]?.[method];
  return {
    activity: !!op("get", "/api/sessions/{id}/activity"),
    accountDeletion: !!op("delete", "/api/users/me"),
    cashAndWriteOff: !!op("post", "/api/orders/{id}/confirm/{userId}")?.requestBody,
    adjustments: !!op("post", "/api/orders/{id}/adjustments"),
    severalPayers: !!op("put", "/api/orders/{id}/payers"),
    transfers: !!op("post", "/api/balances/transfers"),
    settlePlan: !!op("get", "/api/balances/settle-plan"),
  };
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
  ok<{ cart: { products: Array<{ _id: string; productId: { _id: string } }> } }>(
    call(base, "POST", `/api/carts/${cartId}/product`, {
      token: person.token,
      body: { productId, quantity: n },
    }),
    "add line",
  );

type Product = { _id: string; name: string };

/** Checks the session's cart out (its creator): the order. */
async function checkout(base: string, creator: Person, sessionId: string) {
  const { order } = await ok<{ order: { _id: string; total: number } }>(
    call(base, "POST", `/api/sessions/${sessionId}/checkout`, { token: creator.token }),
    "checkout",
    201,
  );
  return order;
}

const markPaid = (base: string, person: Person, orderId: string) =>
  ok(call(base, "POST", `/api/orders/${orderId}/paid`, { token: person.token }), "paid");

/** The payee settles a share: confirms the transfer (no body, as every release), cash or write-off. */
const settle = (
  base: string,
  payee: Person,
  orderId: string,
  of: Person,
  how?: "cash" | "written_off",
) =>
  ok(
    call(base, "POST", `/api/orders/${orderId}/confirm/${of.userId}`, {
      token: payee.token,
      ...(how ? { body: { how } } : {}),
    }),
    `settle ${how ?? "transfer"}`,
  );

/** Ann pays the shop; by adder; Ben's line shared with Cleo and Dan; a quantity change, a removal. */
async function weeklyShop(base: string, people: Person[], [p1, p2, p3, p4, p5, p6]: Product[]) {
  const [ann, ben, cleo, dan] = people as [Person, Person, Person, Person];
  const s = await sessionOf(base, ann, [ben, cleo, dan], "Weekly shop");
  await addLine(base, ann, s.cartId, p1!._id, 2);
  await addLine(base, ben, s.cartId, p2!._id, 3);
  await addLine(base, cleo, s.cartId, p3!._id, 1);
  await addLine(base, ann, s.cartId, p4!._id, 1);
  await addLine(base, dan, s.cartId, p5!._id, 1);
  const { cart } = await addLine(base, ben, s.cartId, p6!._id, 1);
  const shared = cart.products.find((l) => l.productId._id === p6!._id)!;
  await ok(
    call(base, "PUT", `/api/carts/${s.cartId}/lines/${shared._id}/shared-with`, {
      token: ben.token,
      body: { userIds: [ben.userId, cleo.userId, dan.userId] },
    }),
    "share a line",
  );
  await ok(
    call(base, "PATCH", `/api/carts/${s.cartId}/quantity`, {
      token: cleo.token,
      body: { productId: p3!._id, change: 1 },
    }),
    "quantity",
  );
  await ok(
    call(base, "DELETE", `/api/carts/${s.cartId}/product/${p4!._id}`, { token: ann.token }),
    "remove line",
  );
  const { _id: orderId } = await checkout(base, ann, s.sessionId);
  await markPaid(base, ben, orderId);
  await settle(base, ann, orderId, ben);
  await markPaid(base, cleo, orderId);
  return { name: "Weekly shop", ...s, orderId };
}

/**
 * Ben pays the shop (where the release has several payers, Ann pays 100.00 of it); every line
 * split equally among Ann, Ben and Cleo, fees equally too.
 */
async function party(base: string, people: Person[], [p1, p2, p3]: Product[], can: Features) {
  const [ann, ben, cleo] = people as [Person, Person, Person];
  const s = await sessionOf(base, ben, [ann, cleo], "Party");
  await ok(
    call(base, "PUT", `/api/sessions/${s.sessionId}/split-policy`, {
      token: ben.token,
      body: { mode: "equal", weights: {}, fees: "equal" },
    }),
    "split policy",
  );
  await addLine(base, ann, s.cartId, p1!._id, 1);
  await addLine(base, ben, s.cartId, p3!._id, 2);
  await addLine(base, cleo, s.cartId, p2!._id, 1);
  const order = await checkout(base, ben, s.sessionId);
  if (can.severalPayers) {
    const payers = [
      { userId: ben.userId, amount: Math.round(order.total * 100 - 10_000) / 100 },
      { userId: ann.userId, amount: 100 },
    ];
    await ok(
      call(base, "PUT", `/api/orders/${order._id}/payers`, { token: ben.token, body: { payers } }),
      "payers",
    );
  }
  await markPaid(base, cleo, order._id);
  await settle(base, ben, order._id, cleo);
  return { name: "Party", ...s, orderId: order._id };
}

/** Cleo pays the shop; lines split by weight (Ben 50, the others 100), every fee on Cleo. */
async function dinner(base: string, people: Person[], [, , , p4, p5]: Product[]) {
  const [ann, ben, cleo, dan] = people as [Person, Person, Person, Person];
  const s = await sessionOf(base, cleo, [ann, ben, dan], "Dinner");
  await ok(
    call(base, "PUT", `/api/sessions/${s.sessionId}/split-policy`, {
      token: cleo.token,
      body: {
        mode: "weights",
        weights: { [ann.userId]: 100, [ben.userId]: 50, [cleo.userId]: 100, [dan.userId]: 100 },
        fees: "creator",
      },
    }),
    "split policy",
  );
  await addLine(base, cleo, s.cartId, p4!._id, 1);
  await addLine(base, ann, s.cartId, p5!._id, 2);
  const { _id: orderId } = await checkout(base, cleo, s.sessionId);
  await markPaid(base, ann, orderId);
  return { name: "Dinner", ...s, orderId };
}

/** Deletes the account, acknowledging unsettled shares where the release asks to. */
async function deleteAccount(base: string, person: Person) {
  const url = "/api/users/me";
  const first = await call(base, "DELETE", url, {
    token: person.token,
    body: { password: PASSWORD },
  });
  if (first.status === 409 && first.body?.code === "UNSETTLED_SHARES") {
    await ok(
      call(base, "DELETE", url, {
        token: person.token,
        body: { password: PASSWORD, acknowledgeUnsettled: true },
      }),
      "delete account",
      204,
    );
  } else if (first.status !== 204) {
    throw new Error(`delete account: ${first.status} ${JSON.stringify(first.body)}`);
  }
  person.deleted = true;
}

/** Signs the household up and makes its orders (see Household) and an open cart. */
export async function makeHousehold(base: string): Promise<Household> {
  const can = await featuresOf(base);
  const people: Person[] = [];
  for (const { name, email } of HOUSEHOLD)
    people.push({ name, ...(await signUp(base, name, email)) });
  const [ann, ben, cleo, dan] = people as [Person, Person, Person, Person];
  const { products: all } = await ok<{
    products: Array<{ _id: string; name: string; stock: number }>;
  }>(call(base, "GET", "/api/products?limit=50", { token: ann.token }), "products");
  const products = all.filter((p) => p.stock >= 20).slice(0, 6);
  if (products.length < 6) throw new Error("not enough products in stock");

  const weekly = await weeklyShop(base, people, products);
  const partyOrder = await party(base, people, products, can);
  const dinnerOrder = await dinner(base, people, products);
  if (can.adjustments) {
    // After Cleo's share was confirmed: the order's first line was not delivered.
    await ok(
      call(base, "POST", `/api/orders/${partyOrder.orderId}/adjustments`, {
        token: ben.token,
        body: { kind: "missing", lineIndex: 0, note: "not delivered" },
      }),
      "adjustment",
      201,
    );
  }
  if (can.transfers) {
    // Whoever of Ann and Ben owes the other on balance (the Party order) pays it all.
    const { balances } = await ok<{ balances: Array<{ user: { _id: string }; amount: number }> }>(
      call(base, "GET", "/api/balances", { token: ann.token }),
      "balances",
    );
    const net = balances.find((b) => b.user._id === ben.userId)!.amount;
    const [from, to] = net < 0 ? [ann, ben] : [ben, ann];
    await ok(
      call(base, "POST", "/api/balances/transfers", {
        token: from.token,
        body: { to: to.userId, amount: Math.abs(net) },
      }),
      "transfer",
      201,
    );
  }
  if (can.cashAndWriteOff) await settle(base, cleo, dinnerOrder.orderId, ben, "cash");
  if (can.accountDeletion) await deleteAccount(base, dan);
  if (can.cashAndWriteOff && dan.deleted) {
    await settle(base, cleo, dinnerOrder.orderId, dan, "written_off");
  }

  const open = await sessionOf(base, ann, [ben], "Next week");
  await addLine(base, ann, open.cartId, products[4]!._id, 2);
  await addLine(base, ben, open.cartId, products[5]!._id, 4);
  return {
    people,
    orders: [weekly, partyOrder, dinnerOrder],
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

/**
 * What each person still here reads: every cart (as Ann, a member of each session), My Orders,
 * each order page of theirs, balances and the settle plan, and each session's activity; the last
 * two where the server has them.
 */
export async function readFigures(base: string, household: Household) {
  const can = await featuresOf(base);
  const [ann] = household.people as [Person];
  const get = (url: string, token: string) => ok(call(base, "GET", url, { token }), url);
  const sessions = [...household.orders, { name: "Next week", ...household.open }];
  const carts: Record<string, unknown> = {};
  const activity: Record<string, unknown> = {};
  for (const s of sessions) {
    carts[s.name] = await get(`/api/carts/${s.cartId}`, ann.token);
    if (can.activity) activity[s.name] = await allActivity(base, ann.token, s.sessionId);
  }
  const people: Record<string, Record<string, unknown>> = {};
  for (const person of household.people.filter((p) => !p.deleted)) {
    const myOrders = (await get("/api/orders", person.token)) as { orders: Array<{ _id: string }> };
    const pages: Record<string, unknown> = {};
    for (const placed of household.orders) {
      if (myOrders.orders.some((o) => o._id === placed.orderId)) {
        pages[placed.name] = await get(`/api/orders/${placed.orderId}`, person.token);
      }
    }
    people[person.name] = {
      orders: myOrders,
      order: pages,
      balances: await get("/api/balances", person.token),
      ...(can.settlePlan
        ? { settlePlan: await get("/api/balances/settle-plan", person.token) }
        : {}),
    };
  }
  return { carts, ...(can.activity ? { activity } : {}), people };
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
