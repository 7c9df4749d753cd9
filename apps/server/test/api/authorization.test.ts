/**
 * DESIGN section 4, the roles table, walked route by route: every route that names a session (by
 * id or code) or a cart is called by each role, and the status must match the table. The first
 * test fails when a route that names a session or cart has no row here.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, sessionWithEveryRole, uniqueEmail, type TestApp } from "../helpers.ts";

type Role = "creator" | "participant" | "viewer" | "pending" | "stranger";
type Fixture = Awaited<ReturnType<typeof sessionWithEveryRole>> & { productId: string };
type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

interface Row {
  request: (f: Fixture) => { url: string; body?: unknown };
  expected: Record<Role, number>;
}

/** `METHOD /openapi/path` → how to call it, and what each role gets. */
const TABLE: Record<string, Row> = {
  "GET /api/sessions/{id}": {
    request: (f) => ({ url: `/api/sessions/${f.sessionId}` }),
    expected: { creator: 200, participant: 200, viewer: 200, pending: 404, stranger: 404 },
  },
  "PATCH /api/sessions/{id}": {
    request: (f) => ({ url: `/api/sessions/${f.sessionId}`, body: { budget: 42 } }),
    expected: { creator: 200, participant: 403, viewer: 403, pending: 404, stranger: 404 },
  },
  "DELETE /api/sessions/{id}/leave": {
    request: (f) => ({ url: `/api/sessions/${f.sessionId}/leave` }),
    expected: { creator: 409, participant: 200, viewer: 200, pending: 200, stranger: 404 },
  },
  "PUT /api/sessions/{id}/end": {
    request: (f) => ({ url: `/api/sessions/${f.sessionId}/end` }),
    expected: { creator: 200, participant: 403, viewer: 403, pending: 404, stranger: 404 },
  },
  "POST /api/sessions/joinrequests": {
    request: (f) => ({ url: "/api/sessions/joinrequests", body: { sessionCode: f.code } }),
    expected: { creator: 200, participant: 403, viewer: 403, pending: 404, stranger: 404 },
  },
  "POST /api/sessions/approve/{code}": {
    request: (f) => ({
      url: `/api/sessions/approve/${f.code}`,
      body: { userId: f.people.pending.userId },
    }),
    expected: { creator: 200, participant: 403, viewer: 403, pending: 404, stranger: 404 },
  },
  "POST /api/sessions/reject/{code}": {
    request: (f) => ({
      url: `/api/sessions/reject/${f.code}`,
      body: { userId: f.people.pending.userId },
    }),
    expected: { creator: 200, participant: 403, viewer: 403, pending: 404, stranger: 404 },
  },
  "POST /api/sessions/invite": {
    request: (f) => ({
      url: "/api/sessions/invite",
      body: { sessionCode: f.code, emailOrUsername: uniqueEmail("invitee"), role: "viewer" },
    }),
    expected: { creator: 201, participant: 403, viewer: 403, pending: 404, stranger: 404 },
  },
  "GET /api/sessions/{id}/cart": {
    request: (f) => ({ url: `/api/sessions/${f.sessionId}/cart` }),
    expected: { creator: 200, participant: 200, viewer: 200, pending: 404, stranger: 404 },
  },
  "GET /api/sessions/{id}/summary": {
    request: (f) => ({ url: `/api/sessions/${f.sessionId}/summary` }),
    expected: { creator: 200, participant: 200, viewer: 200, pending: 404, stranger: 404 },
  },
  "GET /api/carts/{cartId}": {
    request: (f) => ({ url: `/api/carts/${f.cartId}` }),
    expected: { creator: 200, participant: 200, viewer: 200, pending: 404, stranger: 404 },
  },
  "POST /api/carts/{cartId}/product": {
    request: (f) => ({
      url: `/api/carts/${f.cartId}/product`,
      body: { productId: f.productId, quantity: 1 },
    }),
    expected: { creator: 200, participant: 200, viewer: 403, pending: 404, stranger: 404 },
  },
  // Own lines (creator and participant each have one of this product).
  "PATCH /api/carts/{cartId}/quantity": {
    request: (f) => ({
      url: `/api/carts/${f.cartId}/quantity`,
      body: { productId: f.productId, change: 1 },
    }),
    expected: { creator: 200, participant: 200, viewer: 403, pending: 404, stranger: 404 },
  },
  "DELETE /api/carts/{cartId}/product/{productId}": {
    request: (f) => ({ url: `/api/carts/${f.cartId}/product/${f.productId}` }),
    expected: { creator: 200, participant: 200, viewer: 403, pending: 404, stranger: 404 },
  },
  "DELETE /api/carts/{cartId}/clear": {
    request: (f) => ({ url: `/api/carts/${f.cartId}/clear` }),
    expected: { creator: 200, participant: 403, viewer: 403, pending: 404, stranger: 404 },
  },
  "DELETE /api/carts/{cartId}": {
    request: (f) => ({ url: `/api/carts/${f.cartId}` }),
    expected: { creator: 200, participant: 403, viewer: 403, pending: 404, stranger: 404 },
  },
  // Anyone may ask to join; members and pending requesters already are in.
  "POST /api/sessions/join/code": {
    request: (f) => ({
      url: "/api/sessions/join/code",
      body: { sessionCode: f.code, passcode: "tulip" },
    }),
    expected: { creator: 409, participant: 409, viewer: 409, pending: 409, stranger: 202 },
  },
  // Only the invitee answers an invite; nobody here has a pending one.
  "POST /api/sessions/accinvite": {
    request: (f) => ({ url: "/api/sessions/accinvite", body: { sessionCode: f.code } }),
    expected: { creator: 404, participant: 404, viewer: 404, pending: 404, stranger: 404 },
  },
  "POST /api/sessions/rejinvite": {
    request: (f) => ({ url: "/api/sessions/rejinvite", body: { sessionCode: f.code } }),
    expected: { creator: 404, participant: 404, viewer: 404, pending: 404, stranger: 404 },
  },
};

/** Roles in an order where no call changes what a later role's call depends on. */
const ORDER: Role[] = ["stranger", "pending", "viewer", "participant", "creator"];

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

it("has a row for every route that names a session or a cart", async () => {
  const doc = (await t.app.inject({ method: "GET", url: "/api/docs/json" })).json();
  const naming: string[] = [];
  for (const [path, operations] of Object.entries<
    Record<
      string,
      { requestBody?: { content?: Record<string, { schema?: { properties?: object } }> } }
    >
  >(doc.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const bodyKeys = Object.keys(
        operation.requestBody?.content?.["application/json"]?.schema?.properties ?? {},
      );
      const namesOne =
        /^\/api\/(sessions|carts)\/.*\{[^}]+\}/.test(path) ||
        bodyKeys.includes("sessionCode") ||
        bodyKeys.includes("cartId");
      if (namesOne) naming.push(`${method.toUpperCase()} ${path}`);
    }
  }
  expect(naming.length).toBeGreaterThan(5);
  expect(naming.filter((route) => !TABLE[route])).toEqual([]);
});

describe.each(Object.entries(TABLE))("%s", (route, row) => {
  it("answers each role as the roles table says", async () => {
    const base = await sessionWithEveryRole(t);
    const products = (await base.as.creator("GET", "/api/products?limit=1")).json().products;
    const fixture: Fixture = { ...base, productId: products[0]._id };
    for (const role of ["creator", "participant"] as const) {
      const added = await base.as[role]("POST", `/api/carts/${base.cartId}/product`, {
        productId: fixture.productId,
      });
      expect(added.statusCode, added.body).toBe(200);
    }
    const method = route.split(" ")[0] as Method;
    const got: Partial<Record<Role, number>> = {};
    for (const role of ORDER) {
      const { url, body } = row.request(fixture);
      got[role] = (await fixture.as[role](method, url, body)).statusCode;
    }
    expect(got).toEqual(row.expected);
  });
});
