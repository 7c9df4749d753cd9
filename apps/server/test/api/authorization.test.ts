/**
 * The permissions table, walked route by route: every route of the endpoint table that names a
 * session (by id or code) or a cart is called by each role, and the status must be what the
 * permissions table says (its refusal, or the route's success status). The first tests fail when
 * a served route is missing from the endpoint table, or a role-checked route has no way to call it
 * here. The line rows also prove that cart_write(), the SQL function behind every cart change,
 * agrees with the table for every role and cart action, and sharing a line (its SQL picks the
 * members who may share it) agrees with the contract's rule of who carries a share.
 */
import {
  ACCOUNT_ACTIONS,
  CALLERS,
  LINK_CALLERS,
  ORDER_CALLERS,
  carriesShare,
  endpoints,
  SESSION_ROLES,
  refusal,
  splitEndpointKey,
  type Action,
  type OpenSetting,
  type OrderCaller,
  type SessionCaller as Caller,
  type EndpointKey,
} from "@cartner/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  client,
  createTestApp,
  sessionWithEveryRole,
  signUp,
  uniqueEmail,
  type TestApp,
} from "../helpers.ts";

type Fixture = Awaited<ReturnType<typeof sessionWithEveryRole>> & {
  productId: string;
  /** Each member's own line (creator and participant have one of the product). */
  lineOf: { creator: string; participant: string };
  /** An invite link the creator made. */
  linkId: string;
};

interface Row {
  endpoint: EndpointKey;
  /** Defaults to the endpoint's access; a route serving two actions has a row for each. */
  action?: Action;
  request: (f: Fixture, role: Caller) => { url: string; body?: unknown };
  /** What the caller does first (e.g. removes the line it then puts back). */
  before?: (f: Fixture, role: Caller) => Promise<void>;
  /** Only for routes any user may call ("user"), whose answers depend on state, not role. */
  expected?: Record<Caller, number>;
  /** Callers a service rule answers otherwise than their role would (each with its reason). */
  except?: Partial<Record<Caller, number>>;
  /**
   * The session settings the row's session has open (its creator opened the action to more
   * roles, e.g. checkoutBy "members"), set before the first call; the table's answer is read with
   * them. With `fresh`, each role calls on a session of its own (a success that ends the session,
   * such as a checkout, would otherwise decide the next role's answer).
   */
  open?: OpenSetting[];
  fresh?: true;
}

const ROWS: Row[] = [
  { endpoint: "GET /api/sessions/:id", request: (f) => ({ url: `/api/sessions/${f.sessionId}` }) },
  {
    endpoint: "PATCH /api/sessions/:id",
    request: (f) => ({ url: `/api/sessions/${f.sessionId}`, body: { budget: 42 } }),
  },
  {
    endpoint: "DELETE /api/sessions/:id/leave",
    // The participant has a line: leaving says what becomes of it.
    request: (f) => ({ url: `/api/sessions/${f.sessionId}/leave?lines=remove` }),
  },
  {
    endpoint: "PUT /api/sessions/:id/end",
    request: (f) => ({ url: `/api/sessions/${f.sessionId}/end` }),
  },
  {
    endpoint: "GET /api/sessions/:id/cart",
    request: (f) => ({ url: `/api/sessions/${f.sessionId}/cart` }),
  },
  {
    endpoint: "GET /api/sessions/:id/activity",
    request: (f) => ({ url: `/api/sessions/${f.sessionId}/activity` }),
  },
  {
    endpoint: "GET /api/sessions/:id/summary",
    request: (f) => ({ url: `/api/sessions/${f.sessionId}/summary` }),
  },
  {
    endpoint: "POST /api/sessions/joinrequests",
    request: (f) => ({ url: "/api/sessions/joinrequests", body: { sessionCode: f.code } }),
  },
  {
    endpoint: "POST /api/sessions/approve/:code",
    request: (f) => ({
      url: `/api/sessions/approve/${f.code}`,
      body: { userId: f.people.pending.userId },
    }),
  },
  {
    endpoint: "POST /api/sessions/reject/:code",
    request: (f) => ({
      url: `/api/sessions/reject/${f.code}`,
      body: { userId: f.people.pending.userId },
    }),
  },
  {
    endpoint: "POST /api/sessions/invite",
    request: (f) => ({
      url: "/api/sessions/invite",
      body: { sessionCode: f.code, emailOrUsername: uniqueEmail("invitee"), role: "viewer" },
    }),
  },
  { endpoint: "GET /api/carts/:cartId", request: (f) => ({ url: `/api/carts/${f.cartId}` }) },
  {
    endpoint: "GET /api/carts/:cartId/buy-again",
    request: (f) => ({ url: `/api/carts/${f.cartId}/buy-again` }),
  },
  {
    endpoint: "POST /api/carts/:cartId/product",
    request: (f) => ({
      url: `/api/carts/${f.cartId}/product`,
      body: { productId: f.productId, quantity: 1 },
    }),
  },
  // Own lines: without lineId a line call acts on the caller's own line.
  {
    endpoint: "PATCH /api/carts/:cartId/quantity",
    request: (f) => ({
      url: `/api/carts/${f.cartId}/quantity`,
      body: { productId: f.productId, change: 1 },
    }),
  },
  {
    endpoint: "DELETE /api/carts/:cartId/product/:productId",
    request: (f) => ({ url: `/api/carts/${f.cartId}/product/${f.productId}` }),
  },
  // Someone else's line, named by lineId.
  {
    endpoint: "PATCH /api/carts/:cartId/quantity",
    action: "cart.changeAnyLine",
    request: (f, role) => ({
      url: `/api/carts/${f.cartId}/quantity`,
      body: { productId: f.productId, change: 1, lineId: othersLine(f, role) },
    }),
  },
  {
    endpoint: "DELETE /api/carts/:cartId/product/:productId",
    action: "cart.changeAnyLine",
    request: (f, role) => ({
      url: `/api/carts/${f.cartId}/product/${f.productId}?lineId=${othersLine(f, role)}`,
    }),
  },
  // Undo of one's own removal (creator, participant); the others' refusal comes first.
  {
    endpoint: "POST /api/carts/:cartId/lines/:lineId/restore",
    before: async (f, role) => {
      if (role !== "creator" && role !== "participant") return;
      const removed = await f.as[role](
        "DELETE",
        `/api/carts/${f.cartId}/product/${f.productId}?lineId=${f.lineOf[role]}`,
      );
      expect(removed.statusCode, removed.body).toBe(200);
    },
    request: (f, role) => ({
      url: `/api/carts/${f.cartId}/lines/${role === "participant" ? f.lineOf.participant : f.lineOf.creator}/restore`,
    }),
  },
  {
    endpoint: "DELETE /api/carts/:cartId/clear",
    request: (f) => ({ url: `/api/carts/${f.cartId}/clear` }),
  },
  { endpoint: "DELETE /api/carts/:cartId", request: (f) => ({ url: `/api/carts/${f.cartId}` }) },
  // Split, budgets, readiness.
  {
    endpoint: "PUT /api/sessions/:id/split-policy",
    request: (f) => ({
      url: `/api/sessions/${f.sessionId}/split-policy`,
      body: { mode: "equal", weights: {}, fees: "equal" },
    }),
  },
  {
    endpoint: "PUT /api/sessions/:id/series",
    request: (f) => ({
      url: `/api/sessions/${f.sessionId}/series`,
      body: { rule: "FREQ=WEEKLY;BYDAY=FR;BYHOUR=18;BYMINUTE=0", timeZone: "Europe/Paris" },
    }),
  },
  // One's own budget...
  {
    endpoint: "PATCH /api/sessions/:id/members/:userId",
    request: (f, role) => ({
      url: `/api/sessions/${f.sessionId}/members/${f.people[role].userId}`,
      body: { budget: 25 },
    }),
  },
  // ...and someone else's.
  {
    endpoint: "PATCH /api/sessions/:id/members/:userId",
    action: "session.manageMembers",
    request: (f, role) => ({
      url: `/api/sessions/${f.sessionId}/members/${
        role === "creator" ? f.people.participant.userId : f.people.creator.userId
      }`,
      body: { budget: 30 },
    }),
  },
  {
    endpoint: "PUT /api/sessions/:id/ready",
    request: (f) => ({ url: `/api/sessions/${f.sessionId}/ready`, body: { ready: true } }),
  },
  {
    endpoint: "PUT /api/carts/:cartId/lines/:lineId/shared-with",
    request: (f, role) => ({
      url: `/api/carts/${f.cartId}/lines/${role === "participant" ? f.lineOf.participant : f.lineOf.creator}/shared-with`,
      body: { userIds: [] },
    }),
  },
  {
    endpoint: "PUT /api/carts/:cartId/lines/:lineId/shared-with",
    action: "cart.changeAnyLine",
    request: (f, role) => ({
      url: `/api/carts/${f.cartId}/lines/${othersLine(f, role)}/shared-with`,
      body: { userIds: [] },
    }),
  },
  {
    endpoint: "PUT /api/carts/:cartId/lines/:lineId/hidden-from",
    request: (f, role) => ({
      url: `/api/carts/${f.cartId}/lines/${role === "participant" ? f.lineOf.participant : f.lineOf.creator}/hidden-from`,
      body: { userIds: [] },
    }),
  },
  {
    // Another's line: only who sees every private line (the creator) hides it.
    endpoint: "PUT /api/carts/:cartId/lines/:lineId/hidden-from",
    action: "cart.seePrivate",
    request: (f, role) => ({
      url: `/api/carts/${f.cartId}/lines/${othersLine(f, role)}/hidden-from`,
      body: { userIds: [] },
    }),
  },
  {
    endpoint: "PUT /api/carts/:cartId/lines/:lineId/staple",
    request: (f, role) => ({
      url: `/api/carts/${f.cartId}/lines/${role === "participant" ? f.lineOf.participant : f.lineOf.creator}/staple`,
      body: { staple: true },
    }),
  },
  {
    endpoint: "PUT /api/carts/:cartId/lines/:lineId/staple",
    action: "cart.changeAnyLine",
    request: (f, role) => ({
      url: `/api/carts/${f.cartId}/lines/${othersLine(f, role)}/staple`,
      body: { staple: true },
    }),
  },
  {
    // Any member who pays acknowledges a price on anyone's line.
    endpoint: "POST /api/carts/:cartId/lines/:lineId/acknowledge-price",
    request: (f) => ({
      url: `/api/carts/${f.cartId}/lines/${f.lineOf.creator}/acknowledge-price`,
    }),
  },
  {
    endpoint: "POST /api/carts/:cartId/free-lines",
    request: (f) => ({ url: `/api/carts/${f.cartId}/free-lines`, body: { name: "Candles" } }),
  },
  {
    endpoint: "PATCH /api/carts/:cartId/lines/:lineId",
    request: (f, role) => ({
      url: `/api/carts/${f.cartId}/lines/${role === "participant" ? f.lineOf.participant : f.lineOf.creator}`,
      body: { note: "ripe ones" },
    }),
  },
  {
    endpoint: "PATCH /api/carts/:cartId/lines/:lineId",
    action: "cart.changeAnyLine",
    request: (f, role) => ({
      url: `/api/carts/${f.cartId}/lines/${othersLine(f, role)}`,
      body: { substitute: "none" },
    }),
  },
  // Invitations and members.
  {
    endpoint: "POST /api/sessions/:id/links",
    request: (f) => ({
      url: `/api/sessions/${f.sessionId}/links`,
      body: { role: "viewer", expiresInHours: 1, maxUses: 1 },
    }),
  },
  {
    endpoint: "POST /api/sessions/:id/links",
    request: (f) => ({
      url: `/api/sessions/${f.sessionId}/links`,
      body: { lookOnly: true, expiresInHours: 1 },
    }),
  },
  {
    endpoint: "GET /api/sessions/:id/links",
    request: (f) => ({ url: `/api/sessions/${f.sessionId}/links` }),
  },
  {
    endpoint: "DELETE /api/sessions/:id/links/:linkId",
    request: (f) => ({ url: `/api/sessions/${f.sessionId}/links/${f.linkId}` }),
  },
  {
    endpoint: "DELETE /api/sessions/:id/members/:userId",
    request: (f) => ({ url: `/api/sessions/${f.sessionId}/members/${f.people.viewer.userId}` }),
  },
  {
    endpoint: "POST /api/sessions/:id/transfer",
    request: (f) => ({
      url: `/api/sessions/${f.sessionId}/transfer`,
      body: { userId: f.people.participant.userId },
    }),
  },
  {
    endpoint: "POST /api/sessions/:id/rotate-code",
    request: (f) => ({ url: `/api/sessions/${f.sessionId}/rotate-code` }),
  },
  // The deadline: set or moved by the creator; reopening needs one that has passed.
  {
    endpoint: "PUT /api/sessions/:id/deadline",
    request: (f) => ({
      url: `/api/sessions/${f.sessionId}/deadline`,
      body: { closesAt: new Date(t.clock.now().getTime() + 3_600_000).toISOString() },
    }),
  },
  {
    endpoint: "POST /api/sessions/:id/reopen",
    before: async (f, role) => {
      if (role !== "creator") return;
      const closesAt = new Date(t.clock.now().getTime() + 1_000).toISOString();
      const set = await f.as.creator("PUT", `/api/sessions/${f.sessionId}/deadline`, { closesAt });
      expect(set.statusCode, set.body).toBe(200);
      t.clock.advance(2_000);
    },
    request: (f) => ({
      url: `/api/sessions/${f.sessionId}/reopen`,
      body: { closesAt: new Date(t.clock.now().getTime() + 3_600_000).toISOString() },
    }),
  },
  // The creator checks out (last, so every other role's call found the cart as it was).
  {
    endpoint: "POST /api/sessions/:id/checkout",
    request: (f) => ({ url: `/api/sessions/${f.sessionId}/checkout` }),
  },
  // ...and so do the participants where the session lets its members check out (Couple).
  {
    endpoint: "POST /api/sessions/:id/checkout",
    open: ["checkoutBy"],
    fresh: true,
    request: (f) => ({ url: `/api/sessions/${f.sessionId}/checkout` }),
  },
  {
    endpoint: "PUT /api/sessions/:id/approvers",
    request: (f) => ({
      url: `/api/sessions/${f.sessionId}/approvers`,
      body: { userIds: [f.people.participant.userId] },
    }),
  },
  // Approving or declining a line waiting for approval: the creator, and the approvers named.
  ...(["approve", "decline"] as const).flatMap((decision): Row[] =>
    [undefined, ["approver" as const]].map((open) => ({
      endpoint: `POST /api/carts/:cartId/lines/:lineId/${decision}`,
      fresh: true,
      ...(open ? { open } : {}),
      // The waiting line is the participant's own: an approver does not approve their own line.
      ...(open && decision === "approve" ? { except: { participant: 403 } } : {}),
      before: async (f, role) => {
        if (open && (role === "participant" || role === "viewer")) {
          const named = await f.as.creator("PUT", `/api/sessions/${f.sessionId}/approvers`, {
            userIds: [f.people[role].userId],
          });
          expect(named.statusCode, named.body).toBe(200);
        }
        await benWaits(f);
      },
      request: (f) => ({
        url: `/api/carts/${f.cartId}/lines/${f.lineOf.participant}/${decision}`,
        body: { message: "ok" },
      }),
    })),
  ),
  // Anyone may ask to join; members and pending requesters already are in.
  {
    endpoint: "POST /api/sessions/join/code",
    request: (f) => ({
      url: "/api/sessions/join/code",
      body: { sessionCode: f.code, passcode: "tulip" },
    }),
    expected: { creator: 409, participant: 409, viewer: 409, pending: 409, stranger: 202 },
  },
  // Only the invitee answers an invite; nobody here has a pending one.
  {
    endpoint: "POST /api/sessions/accinvite",
    request: (f) => ({ url: "/api/sessions/accinvite", body: { sessionCode: f.code } }),
    expected: { creator: 404, participant: 404, viewer: 404, pending: 404, stranger: 404 },
  },
  {
    endpoint: "POST /api/sessions/rejinvite",
    request: (f) => ({ url: "/api/sessions/rejinvite", body: { sessionCode: f.code } }),
    expected: { creator: 404, participant: 404, viewer: 404, pending: 404, stranger: 404 },
  },
];

/** Ben's budget asks first and is tiny: one more on his line makes it wait for approval. */
async function benWaits(f: Fixture): Promise<void> {
  const ben = `/api/sessions/${f.sessionId}/members/${f.people.participant.userId}`;
  const set = await f.as.creator("PATCH", ben, { budget: 0.01, budgetMode: "ask" });
  expect(set.statusCode, set.body).toBe(200);
  const more = await f.as.participant("PATCH", `/api/carts/${f.cartId}/quantity`, {
    productId: f.productId,
    change: 1,
  });
  expect(more.statusCode, more.body).toBe(200);
  const line = more
    .json()
    .cart.products.find((l: { _id: string }) => l._id === f.lineOf.participant);
  expect(line.pending).not.toBeNull();
}

/** A line the caller did not add: the participant's for the creator, else the creator's. */
function othersLine(f: Fixture, role: Caller): string {
  return role === "creator" ? f.lineOf.participant : f.lineOf.creator;
}

const successStatus = (key: EndpointKey) =>
  Number(Object.keys(endpoints[key].responses).find((status) => status.startsWith("2")));

/** What the tables say each caller gets. */
function expectedFor(row: Row): Record<Caller, number> {
  if (row.expected) return row.expected;
  const action = row.action ?? (endpoints[row.endpoint].access as Action);
  const byRole = Object.fromEntries(
    CALLERS.map((caller) => [
      caller,
      refusal(caller, action, row.open)?.status ?? successStatus(row.endpoint),
    ]),
  ) as Record<Caller, number>;
  return { ...byRole, ...row.except };
}

/** Roles in an order where no call changes what a later role's call depends on. */
const ORDER: Caller[] = ["stranger", "pending", "viewer", "participant", "creator"];

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

it("serves exactly the routes of the endpoint table", async () => {
  const doc = (await t.app.inject({ method: "GET", url: "/api/docs/json" })).json();
  const served = Object.entries<Record<string, unknown>>(doc.paths).flatMap(([path, operations]) =>
    Object.keys(operations).map(
      (method) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ":$1")}`,
    ),
  );
  expect(served.sort()).toEqual(Object.keys(endpoints).sort());
});

it("has a row for every route the permissions table guards, and for every route naming a session", () => {
  const guarded = (Object.keys(endpoints) as EndpointKey[]).filter((key) => {
    const { access } = endpoints[key];
    const [, path] = splitEndpointKey(key);
    const body = "body" in endpoints[key] ? endpoints[key].body : undefined;
    const namesSession =
      /^\/api\/(sessions|carts)\/.*:/.test(path) ||
      (body instanceof z.ZodObject && "sessionCode" in body.shape);
    // Account actions (the catalog's) name no session: catalog-operator.test.ts walks them.
    const accountWide = (ACCOUNT_ACTIONS as readonly string[]).includes(access);
    return (
      (access !== "public" && access !== "user" && access !== "token" && !accountWide) ||
      namesSession
    );
  });
  expect(guarded.length).toBeGreaterThan(5);
  expect(
    guarded.filter(
      (key) =>
        !ROWS.some((row) => row.endpoint === key) &&
        !ORDER_ROWS.some((row) => row.endpoint === key),
    ),
  ).toEqual([]);
  // A "user" route's answers are not the table's: such a row says what it expects, no other does.
  for (const row of ROWS) {
    expect(row.expected !== undefined, row.endpoint).toBe(
      endpoints[row.endpoint].access === "user",
    );
  }
});

/** Ann's session with every role, a line each for creator and participant, and a link. */
async function fixtureFor(row: Row): Promise<Fixture> {
  const base = await sessionWithEveryRole(t);
  if (row.open?.includes("checkoutBy")) {
    const opened = await base.as.creator("PATCH", `/api/sessions/${base.sessionId}`, {
      checkoutBy: "members",
    });
    expect(opened.statusCode, opened.body).toBe(200);
  }
  const products = (await base.as.creator("GET", "/api/products?limit=1")).json().products;
  const productId = products[0]._id as string;
  const lineOf = {} as Fixture["lineOf"];
  for (const role of ["creator", "participant"] as const) {
    const added = await base.as[role]("POST", `/api/carts/${base.cartId}/product`, {
      productId,
    });
    expect(added.statusCode, added.body).toBe(200);
    const lines: { _id: string; addedBy: { _id: string } }[] = added.json().cart.products;
    lineOf[role] = lines.find((l) => l.addedBy._id === base.people[role].userId)!._id;
  }
  const link = await base.as.creator("POST", `/api/sessions/${base.sessionId}/links`, {
    role: "viewer",
    expiresInHours: 1,
    maxUses: 1,
  });
  return { ...base, productId, lineOf, linkId: link.json().link._id };
}

const rowName = (row: Row) =>
  `${row.endpoint} (${row.action ?? "access"}${row.open ? `, open: ${row.open.join(", ")}` : ""})`;

describe.each(ROWS.map((row) => [rowName(row), row] as const))("%s", (_name, row) => {
  it("answers each role as the permissions table says", async () => {
    const shared = row.fresh ? undefined : await fixtureFor(row);
    const [method] = splitEndpointKey(row.endpoint);
    const got: Partial<Record<Caller, number>> = {};
    for (const role of ORDER) {
      const fixture = shared ?? (await fixtureFor(row));
      await row.before?.(fixture, role);
      const { url, body } = row.request(fixture, role);
      got[role] = (await fixture.as[role](method, url, body)).statusCode;
    }
    expect(got).toEqual(expectedFor(row));
  });
});

it("lets a line be shared by exactly the members who carry a share, as the contract says", async () => {
  const f = await sessionWithEveryRole(t);
  const products = (await f.as.creator("GET", "/api/products?limit=1")).json().products;
  const added = await f.as.creator("POST", `/api/carts/${f.cartId}/product`, {
    productId: products[0]._id,
  });
  const lineId = added.json().cart.products[0]._id as string;
  const got: Partial<Record<string, boolean>> = {};
  const expected: Partial<Record<string, boolean>> = {};
  for (const role of SESSION_ROLES) {
    const res = await f.as.creator("PUT", `/api/carts/${f.cartId}/lines/${lineId}/shared-with`, {
      userIds: [f.people[role].userId],
    });
    expect([200, 400], res.body).toContain(res.statusCode);
    got[role] = res.statusCode === 200;
    expected[role] = carriesShare(role);
  }
  expect(got).toEqual(expected);
});

/**
 * View by link: the caller is the link, not an account. A look-only link that works is `look`;
 * anything else (revoked, expired, a joining link, a token that never was) is a stranger. The
 * account that sends it, if any, changes nothing: every session role gets what the link gets.
 */
describe("GET /api/look/:token (session.viewByLink)", () => {
  it("answers each link, whoever sends it, as the permissions table says", async () => {
    const f = await sessionWithEveryRole(t);
    const make = async (body: object) => {
      const res = await f.as.creator("POST", `/api/sessions/${f.sessionId}/links`, body);
      expect(res.statusCode, res.body).toBe(201);
      return res.json().link as { _id: string; token: string };
    };
    const working = await make({ lookOnly: true, expiresInHours: 2 });
    const revoked = await make({ lookOnly: true, expiresInHours: 2 });
    await f.as.creator("DELETE", `/api/sessions/${f.sessionId}/links/${revoked._id}`);
    const expired = await make({ lookOnly: true, expiresInHours: 1 });
    const joining = await make({ role: "viewer", expiresInHours: 2, maxUses: 5 });
    const links: Record<(typeof LINK_CALLERS)[number], string[]> = {
      look: [working.token],
      stranger: [revoked.token, expired.token, joining.token, "C".repeat(22)],
    };
    const expected = (caller: (typeof LINK_CALLERS)[number]) =>
      refusal(caller, "session.viewByLink")?.status ?? successStatus("GET /api/look/:token");
    // The sessions' roles' own tokens expire with the clock: every call before it moves.
    const asked: [string, string, number][] = [];
    const wanted: [string, string, number][] = [];
    for (const caller of LINK_CALLERS) {
      for (const token of links[caller]) {
        if (token === expired.token) continue;
        const anonymous = await t.app.inject({ method: "GET", url: `/api/look/${token}` });
        asked.push([caller, "nobody", anonymous.statusCode]);
        wanted.push([caller, "nobody", expected(caller)]);
        for (const role of CALLERS) {
          const got = await f.as[role]("GET", `/api/look/${token}`);
          asked.push([caller, role, got.statusCode]);
          wanted.push([caller, role, expected(caller)]);
        }
      }
    }
    t.clock.advance(3_600_000);
    const late = await t.app.inject({ method: "GET", url: `/api/look/${expired.token}` });
    asked.push(["stranger", "nobody", late.statusCode]);
    wanted.push(["stranger", "nobody", expected("stranger")]);
    expect(asked).toEqual(wanted);
  });
});

/**
 * The order's actions, by the caller's part in it: the payee (Ann, the creator), a payer (Cat, a
 * participant who paid part of the shop), a sharer (Ben) and anyone else (Sam; a viewer or
 * pending member without a share is the same stranger).
 */
interface OrderRow {
  endpoint: EndpointKey;
  url: (orderId: string, ben: string, adjId: string) => string;
  /** The body each caller sends (the order's total, and Ann and Ben, at hand). */
  body?: (
    caller: OrderCaller,
    o: { total: number; benToAnn: number; ann: string; ben: string },
  ) => unknown;
  /** Ben has not paid (a paid share would lock what the route changes). */
  unpaid?: true;
}
const ORDER_ROWS: OrderRow[] = [
  { endpoint: "GET /api/orders/:id", url: (id) => `/api/orders/${id}` },
  { endpoint: "GET /api/orders/:id/entries", url: (id) => `/api/orders/${id}/entries` },
  { endpoint: "GET /api/orders/:id/receipt.pdf", url: (id) => `/api/orders/${id}/receipt.pdf` },
  { endpoint: "POST /api/orders/:id/paid", url: (id) => `/api/orders/${id}/paid` },
  {
    endpoint: "POST /api/orders/:id/confirm/:userId",
    url: (id, ben) => `/api/orders/${id}/confirm/${ben}`,
  },
  { endpoint: "POST /api/orders/:id/mail", url: (id) => `/api/orders/${id}/mail` },
  { endpoint: "POST /api/orders/:id/reveal", url: (id) => `/api/orders/${id}/reveal` },
  {
    endpoint: "POST /api/orders/:id/adjustments",
    url: (id) => `/api/orders/${id}/adjustments`,
    body: () => ({ kind: "order_fee", amount: 0.5 }),
  },
  {
    endpoint: "POST /api/orders/:id/adjustments/:adjId/dispute",
    url: (id, _ben, adjId) => `/api/orders/${id}/adjustments/${adjId}/dispute`,
    body: () => ({ comment: "That was delivered" }),
  },
  {
    endpoint: "PUT /api/orders/:id/payers",
    url: (id) => `/api/orders/${id}/payers`,
    body: (_caller, o) => ({ payers: [{ userId: o.ann, amount: o.total }] }),
    unpaid: true,
  },
  // Between two people: Ben owes Ann ("sharer" pays), Ann and Cat are owed by Ben (403), Sam
  // has nothing open with Ann.
  {
    endpoint: "POST /api/balances/transfers",
    url: () => "/api/balances/transfers",
    body: (caller, o) => ({
      to: caller === "sharer" || caller === "stranger" ? o.ann : o.ben,
      amount: o.benToAnn,
    }),
    unpaid: true,
  },
  { endpoint: "GET /api/orders/:id/pay-info", url: (id) => `/api/orders/${id}/pay-info` },
  { endpoint: "GET /api/orders/:id/export.csv", url: (id) => `/api/orders/${id}/export.csv` },
];

it("has a row for every order route the permissions table guards", () => {
  const guarded = (Object.keys(endpoints) as EndpointKey[]).filter((key) =>
    String(endpoints[key].access).startsWith("order."),
  );
  expect(guarded.sort()).toEqual(ORDER_ROWS.map((r) => r.endpoint).sort());
});

describe.each(ORDER_ROWS.map((row) => [row.endpoint, row] as const))("%s", (_name, row) => {
  it("answers the payee, a payer, a sharer and anyone else as the permissions table says", async () => {
    const f = await sessionWithEveryRole(t);
    // Each row's checkout takes three units: a product with that many left (the rows share it).
    const product = (
      (await f.as.creator("GET", "/api/products?limit=50")).json().products as {
        _id: string;
        price: number;
        stock: number;
      }[]
    ).find((p) => p.stock >= 3)!;
    // Cat joins as a participant by an invite, and pays a part of the shop at checkout.
    const cat = await signUp(t, "Cat");
    const asCat = client(t, cat.token);
    await f.as.creator("POST", "/api/sessions/invite", {
      sessionCode: f.code,
      emailOrUsername: cat.email,
      role: "participant",
    });
    expect(
      (await asCat("POST", "/api/sessions/accinvite", { sessionCode: f.code })).statusCode,
    ).toBe(200);
    for (const as of [f.as.creator, f.as.participant, asCat]) {
      await as("POST", `/api/carts/${f.cartId}/product`, { productId: product._id });
    }
    const summary = (await f.as.creator("GET", `/api/sessions/${f.sessionId}/summary`)).json();
    const catPays = Math.round(summary.total * 30) / 100;
    const placed = await f.as.creator("POST", `/api/sessions/${f.sessionId}/checkout`, {
      payers: [
        {
          userId: f.people.creator.userId,
          amount: Math.round((summary.total - catPays) * 100) / 100,
        },
        { userId: cat.userId, amount: catPays },
      ],
    });
    expect(placed.statusCode, placed.body).toBe(201);
    const order = placed.json().order;
    const orderId: string = order._id;
    const ben = f.people.participant.userId;
    const o = {
      total: order.total as number,
      benToAnn: order.parts.find(
        (p: { debtor: string; payer: string }) =>
          p.debtor === ben && p.payer === f.people.creator.userId,
      ).amount as number,
      ann: f.people.creator.userId,
      ben,
    };
    // Ben has paid, so the payee's confirmation is the table's to answer, not the share's state.
    if (!row.unpaid) {
      expect((await f.as.participant("POST", `/api/orders/${orderId}/paid`)).statusCode).toBe(200);
    }
    // An adjustment to dispute that changes no figure (the same price under another name).
    const adjusted = await f.as.creator("POST", `/api/orders/${orderId}/adjustments`, {
      kind: "substituted",
      lineIndex: 0,
      name: "Another brand",
      unitPrice: product.price,
    });
    expect(adjusted.statusCode, adjusted.body).toBe(201);
    const adjId: string = adjusted.json().order.adjustments[0]._id;
    const as: Record<OrderCaller, (typeof f.as)["creator"]> = {
      payee: f.as.creator,
      payer: asCat,
      sharer: f.as.participant,
      stranger: f.as.stranger,
    };
    const [method] = splitEndpointKey(row.endpoint);
    const action = endpoints[row.endpoint].access as Action;
    const got: Partial<Record<OrderCaller, number>> = {};
    const expected: Partial<Record<OrderCaller, number>> = {};
    for (const caller of ORDER_CALLERS) {
      got[caller] = (
        await as[caller](method, row.url(orderId, ben, adjId), row.body?.(caller, o))
      ).statusCode;
      expected[caller] = refusal(caller, action)?.status ?? successStatus(row.endpoint);
    }
    expect(got).toEqual(expected);
    // A session member without a share is a stranger to the order.
    for (const role of ["viewer", "pending"] as const) {
      const body = row.body?.("stranger", o);
      expect((await f.as[role](method, row.url(orderId, ben, adjId), body)).statusCode, role).toBe(
        404,
      );
    }
  });
});
