/**
 * The session write path (features/sessions/lifecycle/write.ts), walked over the endpoint table: every write
 * route about a session is called once through the real app, and must leave exactly one activity
 * entry and move the session's version exactly once, or say here why it does not. Cart line
 * writes (cart_write() in SQL) count too. Routes about no session (auth, profile, account) are
 * the ones this table does not list; the last test fails when a route of a session is missing.
 */
import { endpoints, splitEndpointKey, type EndpointKey } from "@cartner/contract";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { executeRows } from "../../src/db/client.ts";
import { createTestApp, sessionWithEveryRole, type TestApp } from "../helpers.ts";

type Fixture = Awaited<ReturnType<typeof sessionWithEveryRole>> & {
  productId: string;
  /** The creator's and the participant's own lines. */
  lineOf: { creator: string; participant: string };
};

interface Row {
  /** Sets up what the call needs (a link, an invite, an order) and answers it to `call`. */
  before?: (f: Fixture) => Promise<unknown>;
  call: (f: Fixture, prepared: unknown) => ReturnType<Fixture["as"]["creator"]>;
  /** Why the route writes no activity entry (absent: exactly one). */
  noEntry?: string;
  /** Why the route leaves the session's version as it was (absent: it moves exactly once). */
  sameVersion?: string;
}

const A_READ = "a read that the protocol sends as POST";
/** An instant this many minutes ahead by the app's clock. */
const inMinutes = (n: number) => new Date(t.clock.now().getTime() + n * 60_000).toISOString();
const LINK = { role: "viewer", expiresInHours: 1, maxUses: 1 };

/**
 * The participant's budget asks first and is already spent: another product they add waits for
 * approval. Answers the waiting line's id.
 */
async function waitingLine(f: Fixture): Promise<string> {
  const member = `/api/sessions/${f.sessionId}/members/${f.people.participant.userId}`;
  const set = await f.as.creator("PATCH", member, { budget: 0.01, budgetMode: "ask" });
  expect(set.statusCode, set.body).toBe(200);
  const products = (await f.as.creator("GET", "/api/products?limit=2")).json().products as {
    _id: string;
  }[];
  const other = products.find((p) => p._id !== f.productId)!;
  const added = await f.as.participant("POST", `/api/carts/${f.cartId}/product`, {
    productId: other._id,
  });
  expect(added.statusCode, added.body).toBe(200);
  const lines: { _id: string; pending: unknown; productId: { _id: string } }[] =
    added.json().cart.products;
  const waiting = lines.find((l) => l.productId._id === other._id && l.pending !== null);
  expect(waiting, "the participant's line waits").toBeDefined();
  return waiting!._id;
}

const ROWS: Partial<Record<EndpointKey, Row>> = {
  "PATCH /api/sessions/:id": {
    call: (f) => f.as.creator("PATCH", `/api/sessions/${f.sessionId}`, { budget: 99 }),
  },
  "PUT /api/sessions/:id/split-policy": {
    call: (f) =>
      f.as.creator("PUT", `/api/sessions/${f.sessionId}/split-policy`, {
        mode: "equal",
        weights: {},
        fees: "creator",
      }),
  },
  "PUT /api/sessions/:id/approvers": {
    call: (f) =>
      f.as.creator("PUT", `/api/sessions/${f.sessionId}/approvers`, {
        userIds: [f.people.participant.userId],
      }),
  },
  "PUT /api/sessions/:id/series": {
    call: (f) =>
      f.as.creator("PUT", `/api/sessions/${f.sessionId}/series`, {
        rule: "FREQ=DAILY;INTERVAL=2;BYHOUR=9;BYMINUTE=0",
        timeZone: "UTC",
      }),
  },
  "PATCH /api/sessions/:id/members/:userId": {
    call: (f) =>
      f.as.creator("PATCH", `/api/sessions/${f.sessionId}/members/${f.people.viewer.userId}`, {
        budget: 12,
      }),
  },
  "PUT /api/sessions/:id/ready": {
    call: (f) => f.as.participant("PUT", `/api/sessions/${f.sessionId}/ready`, { ready: true }),
  },
  "POST /api/sessions/:id/links": {
    call: (f) => f.as.creator("POST", `/api/sessions/${f.sessionId}/links`, LINK),
    noEntry: "a link is not a member yet (joining with it is logged)",
    sameVersion: "no member's view of the session shows links",
  },
  "DELETE /api/sessions/:id/links/:linkId": {
    before: async (f) => (await makeLink(f))._id,
    call: (f, linkId) => f.as.creator("DELETE", `/api/sessions/${f.sessionId}/links/${linkId}`),
    noEntry: "revoking a link changes no membership",
    sameVersion: "no member's view of the session shows links",
  },
  "DELETE /api/sessions/:id/members/:userId": {
    call: (f) =>
      f.as.creator("DELETE", `/api/sessions/${f.sessionId}/members/${f.people.viewer.userId}`),
  },
  "POST /api/sessions/:id/transfer": {
    call: (f) =>
      f.as.creator("POST", `/api/sessions/${f.sessionId}/transfer`, {
        userId: f.people.participant.userId,
      }),
  },
  "POST /api/sessions/:id/rotate-code": {
    call: (f) => f.as.creator("POST", `/api/sessions/${f.sessionId}/rotate-code`),
  },
  "DELETE /api/sessions/:id/leave": {
    call: (f) => f.as.viewer("DELETE", `/api/sessions/${f.sessionId}/leave`),
  },
  "PUT /api/sessions/:id/end": {
    call: (f) => f.as.creator("PUT", `/api/sessions/${f.sessionId}/end`),
  },
  "PUT /api/sessions/:id/deadline": {
    call: (f) =>
      f.as.creator("PUT", `/api/sessions/${f.sessionId}/deadline`, { closesAt: inMinutes(60) }),
  },
  "POST /api/sessions/:id/reopen": {
    // A deadline ten minutes ahead, and eleven minutes later (its job, in real time, is far off).
    before: async (f) => {
      const set = await f.as.creator("PUT", `/api/sessions/${f.sessionId}/deadline`, {
        closesAt: inMinutes(10),
      });
      expect(set.statusCode, set.body).toBe(200);
      t.clock.advance(11 * 60_000);
    },
    call: (f) =>
      f.as.creator("POST", `/api/sessions/${f.sessionId}/reopen`, { closesAt: inMinutes(60) }),
  },
  "POST /api/sessions/join/code": {
    call: (f) =>
      f.as.stranger("POST", "/api/sessions/join/code", { sessionCode: f.code, passcode: "tulip" }),
    noEntry: "a join request is not a member yet (approving it is logged)",
  },
  "POST /api/sessions/joinrequests": {
    call: (f) => f.as.creator("POST", "/api/sessions/joinrequests", { sessionCode: f.code }),
    noEntry: A_READ,
    sameVersion: A_READ,
  },
  "POST /api/sessions/approve/:code": {
    call: (f) =>
      f.as.creator("POST", `/api/sessions/approve/${f.code}`, { userId: f.people.pending.userId }),
  },
  "POST /api/sessions/reject/:code": {
    call: (f) =>
      f.as.creator("POST", `/api/sessions/reject/${f.code}`, { userId: f.people.pending.userId }),
    noEntry: "a refused request never was a member",
  },
  "POST /api/sessions/invite": {
    call: (f) =>
      f.as.creator("POST", "/api/sessions/invite", {
        sessionCode: f.code,
        emailOrUsername: f.people.stranger.email,
        role: "viewer",
      }),
    noEntry: "an invite is not a member yet (accepting it is logged)",
    sameVersion: "no member's view of the session shows invites",
  },
  "POST /api/sessions/accinvite": {
    before: (f) => invite(f),
    call: (f) => f.as.stranger("POST", "/api/sessions/accinvite", { sessionCode: f.code }),
  },
  "POST /api/sessions/rejinvite": {
    before: (f) => invite(f),
    call: (f) => f.as.stranger("POST", "/api/sessions/rejinvite", { sessionCode: f.code }),
    noEntry: "a declined invite never was a member",
  },
  "POST /api/invite/:token/accept": {
    before: async (f) => (await makeLink(f)).token,
    call: (f, token) => f.as.stranger("POST", `/api/invite/${token}/accept`),
  },
  "POST /api/carts/:cartId/product": {
    call: (f) => f.as.creator("POST", `/api/carts/${f.cartId}/product`, { productId: f.productId }),
  },
  "PATCH /api/carts/:cartId/quantity": {
    call: (f) =>
      f.as.creator("PATCH", `/api/carts/${f.cartId}/quantity`, {
        productId: f.productId,
        change: 1,
      }),
  },
  "DELETE /api/carts/:cartId/product/:productId": {
    call: (f) => f.as.creator("DELETE", `/api/carts/${f.cartId}/product/${f.productId}`),
  },
  "DELETE /api/carts/:cartId/clear": {
    call: (f) => f.as.creator("DELETE", `/api/carts/${f.cartId}/clear`),
  },
  "PUT /api/carts/:cartId/lines/:lineId/shared-with": {
    call: (f) =>
      f.as.creator("PUT", `/api/carts/${f.cartId}/lines/${f.lineOf.creator}/shared-with`, {
        userIds: [f.people.creator.userId, f.people.participant.userId],
      }),
  },
  "PUT /api/carts/:cartId/lines/:lineId/hidden-from": {
    call: (f) =>
      f.as.creator("PUT", `/api/carts/${f.cartId}/lines/${f.lineOf.creator}/hidden-from`, {
        userIds: [f.people.viewer.userId],
      }),
    noEntry: "an entry about hiding a line would itself tell whom the line is for",
  },
  "POST /api/carts/:cartId/lines/:lineId/approve": {
    before: waitingLine,
    call: (f, lineId) => f.as.creator("POST", `/api/carts/${f.cartId}/lines/${lineId}/approve`),
  },
  "POST /api/carts/:cartId/lines/:lineId/decline": {
    before: waitingLine,
    call: (f, lineId) => f.as.creator("POST", `/api/carts/${f.cartId}/lines/${lineId}/decline`),
  },
  "PUT /api/carts/:cartId/lines/:lineId/staple": {
    call: (f) =>
      f.as.participant("PUT", `/api/carts/${f.cartId}/lines/${f.lineOf.participant}/staple`, {
        staple: true,
      }),
  },
  "POST /api/carts/:cartId/free-lines": {
    call: (f) => f.as.participant("POST", `/api/carts/${f.cartId}/free-lines`, { name: "Candles" }),
  },
  "PATCH /api/carts/:cartId/lines/:lineId": {
    call: (f) =>
      f.as.creator("PATCH", `/api/carts/${f.cartId}/lines/${f.lineOf.participant}`, {
        note: "ripe ones",
        substitute: "similar",
      }),
  },
  "POST /api/carts/:cartId/lines/:lineId/acknowledge-price": {
    // The line's product changed its price since the line was added.
    before: (f) =>
      t.database.db.execute(
        sql`update products set price_cents = price_cents + 1
            where id = (select product_id from cart_lines where id = ${f.lineOf.creator})`,
      ),
    call: (f) =>
      f.as.participant(
        "POST",
        `/api/carts/${f.cartId}/lines/${f.lineOf.creator}/acknowledge-price`,
      ),
    noEntry: "acknowledging a changed price moves no amount (the split already uses it)",
  },
  "POST /api/carts/:cartId/lines/:lineId/restore": {
    before: (f) => f.as.creator("DELETE", `/api/carts/${f.cartId}/product/${f.productId}`),
    call: (f) => f.as.creator("POST", `/api/carts/${f.cartId}/lines/${f.lineOf.creator}/restore`),
  },
  "DELETE /api/carts/:cartId": {
    call: (f) => f.as.creator("DELETE", `/api/carts/${f.cartId}`),
  },
  "POST /api/sessions/:id/checkout": {
    call: (f) => f.as.creator("POST", `/api/sessions/${f.sessionId}/checkout`),
  },
  "POST /api/orders/:id/paid": {
    before: (f) => checkout(f),
    call: (f, orderId) => f.as.participant("POST", `/api/orders/${orderId}/paid`),
    sameVersion: "settling up changes the order, not the ended session",
  },
  "POST /api/orders/:id/confirm/:userId": {
    before: (f) => checkout(f),
    call: (f, orderId) =>
      f.as.creator("POST", `/api/orders/${orderId}/confirm/${f.people.participant.userId}`, {
        how: "cash",
      }),
    sameVersion: "settling up changes the order, not the ended session",
  },
  "PUT /api/orders/:id/payers": {
    before: (f) => checkout(f),
    call: async (f, orderId) => {
      const { order } = (await f.as.creator("GET", `/api/orders/${orderId}`)).json();
      return f.as.creator("PUT", `/api/orders/${orderId}/payers`, {
        payers: [{ userId: f.people.participant.userId, amount: order.total }],
      });
    },
    sameVersion: "settling up changes the order, not the ended session",
  },
  "POST /api/orders/:id/adjustments": {
    before: (f) => checkout(f),
    call: (f, orderId) =>
      f.as.creator("POST", `/api/orders/${orderId}/adjustments`, {
        kind: "order_fee",
        amount: 0.5,
      }),
    sameVersion: "an adjustment changes the order, not the ended session",
  },
  "POST /api/orders/:id/adjustments/:adjId/dispute": {
    before: async (f) => {
      const orderId = await checkout(f);
      const res = await f.as.creator("POST", `/api/orders/${orderId}/adjustments`, {
        kind: "order_fee",
        amount: 0.5,
      });
      expect(res.statusCode, res.body).toBe(201);
      return { orderId, adjId: res.json().order.adjustments[0]._id as string };
    },
    call: (f, prepared) => {
      const { orderId, adjId } = prepared as { orderId: string; adjId: string };
      return f.as.participant("POST", `/api/orders/${orderId}/adjustments/${adjId}/dispute`, {
        comment: "That was delivered",
      });
    },
    sameVersion: "a dispute changes the order, not the ended session",
  },
  "POST /api/orders/:id/reveal": {
    before: async (f) => {
      const url = `/api/carts/${f.cartId}/lines/${f.lineOf.creator}/hidden-from`;
      const hid = await f.as.creator("PUT", url, { userIds: [f.people.participant.userId] });
      expect(hid.statusCode, hid.body).toBe(200);
      return checkout(f);
    },
    call: (f, orderId) => f.as.creator("POST", `/api/orders/${orderId}/reveal`),
  },
  "POST /api/orders/:id/mail": {
    before: (f) => checkout(f),
    call: (f, orderId) => f.as.creator("POST", `/api/orders/${orderId}/mail`),
    noEntry: "sends failed mails again: nothing in the session changes",
    sameVersion: "sends failed mails again: nothing in the session changes",
  },
};

/** Routes that create the session they are about: there is nothing before them to compare. */
const CREATES = { "POST /api/sessions": "creates the session: its log starts empty" };

async function makeLink(f: Fixture): Promise<{ _id: string; token: string }> {
  const res = await f.as.creator("POST", `/api/sessions/${f.sessionId}/links`, LINK);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().link;
}

async function invite(f: Fixture) {
  const res = await f.as.creator("POST", "/api/sessions/invite", {
    sessionCode: f.code,
    emailOrUsername: f.people.stranger.email,
    role: "viewer",
  });
  expect(res.statusCode, res.body).toBe(201);
}

async function checkout(f: Fixture): Promise<string> {
  const placed = await f.as.creator("POST", `/api/sessions/${f.sessionId}/checkout`);
  expect(placed.statusCode, placed.body).toBe(201);
  return placed.json().order._id;
}

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

/** The session's activity entries and version, read from the database. */
async function stateOf(sessionId: string) {
  const [row] = await executeRows<{ entries: number; version: number }>(
    t.database.db,
    sql`select (select count(*)::int from activity where session_id = ${sessionId}) as entries,
      version from sessions where id = ${sessionId}`,
  );
  return row!;
}

async function fixture(): Promise<Fixture> {
  const base = await sessionWithEveryRole(t);
  const [product] = (await base.as.creator("GET", "/api/products?limit=1")).json().products;
  const lineOf = {} as Fixture["lineOf"];
  for (const role of ["creator", "participant"] as const) {
    const added = await base.as[role]("POST", `/api/carts/${base.cartId}/product`, {
      productId: product._id,
    });
    expect(added.statusCode, added.body).toBe(200);
    const lines: { _id: string; addedBy: { _id: string } }[] = added.json().cart.products;
    lineOf[role] = lines.find((l) => l.addedBy._id === base.people[role].userId)!._id;
  }
  return { ...base, productId: product._id, lineOf };
}

describe.each(Object.entries(ROWS) as [EndpointKey, Row][])("%s", (key, row) => {
  const expected = `${row.noEntry ? 0 : 1} entry, ${row.sameVersion ? 0 : 1} version step`;
  it(`leaves ${expected}`, async () => {
    const f = await fixture();
    const prepared = await row.before?.(f);
    const before = await stateOf(f.sessionId);
    const res = await row.call(f, prepared);
    expect(res.statusCode, res.body).toBeLessThan(300);
    const after = await stateOf(f.sessionId);
    expect({
      entries: after.entries - before.entries,
      versionSteps: after.version - before.version,
    }).toEqual({ entries: row.noEntry ? 0 : 1, versionSteps: row.sameVersion ? 0 : 1 });
  });
});

it("has a row for every write route about a session", () => {
  const aboutSessions = (Object.keys(endpoints) as EndpointKey[]).filter((key) => {
    const [method, path] = splitEndpointKey(key);
    return method !== "GET" && /^\/api\/(sessions|carts|orders|invite)\//.test(`${path}/`);
  });
  expect(aboutSessions.length).toBeGreaterThan(20);
  expect(aboutSessions.filter((key) => !ROWS[key] && !(key in CREATES))).toEqual([]);
});
