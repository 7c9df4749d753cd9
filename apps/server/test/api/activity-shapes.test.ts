/**
 * Every activity entry the server writes has one of the contract's shapes (`ActivityEntrySchema`,
 * strict: a renamed, missing or extra detail fails): each kind of change that words its entry
 * differently, read back through GET /api/sessions/:id/activity (PGlite and PostgreSQL). The
 * activity log test walks every write route; this one walks the variants of their details.
 */
import { ActivityEntrySchema, type Activity } from "@cartner/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createTestApp,
  PASSWORD,
  sessionWithEveryRole,
  type Client,
  type TestApp,
} from "../helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

/** Calls a route that must succeed. */
async function ok(as: Client, ...args: Parameters<Client>) {
  const res = await as(...args);
  expect(res.statusCode, `${args[0]} ${args[1]}: ${res.body}`).toBeLessThan(300);
  return res;
}

/** The session's whole log, each entry parsed strictly. */
async function logOf(as: Client, sessionId: string): Promise<Activity[]> {
  const res = await ok(as, "GET", `/api/sessions/${sessionId}/activity?limit=200`);
  const events = res.json().events as unknown[];
  return events.map((event) => {
    const parsed = ActivityEntrySchema.safeParse(event);
    expect(parsed.error, JSON.stringify(event)).toBeUndefined();
    // The read sends each entry as written: parsing keeps every field.
    expect(parsed.data).toEqual(event);
    return parsed.data!;
  });
}

describe("activity entries parse with the contract's union", () => {
  it("for each variant of details the server writes", async () => {
    const f = await sessionWithEveryRole(t);
    const { creator: ann, participant: ben, viewer: vic } = f.people;
    const products = (await f.as.creator("GET", "/api/products?limit=20")).json().products;
    const [milk, bread] = products.filter((p: { stock: number }) => p.stock > 20);
    const sid = f.sessionId;
    const cart = `/api/carts/${f.cartId}`;

    // The session edited: one field, the budget removed, several fields; a member's own budget;
    // a role and a budget together.
    await ok(f.as.creator, "PATCH", `/api/sessions/${sid}`, { sessionName: "Picnic" });
    await ok(f.as.creator, "PATCH", `/api/sessions/${sid}`, { budget: null });
    await ok(f.as.creator, "PATCH", `/api/sessions/${sid}`, {
      sessionType: "Family",
      participants: "2",
      passcode: "",
    });
    await ok(f.as.participant, "PATCH", `/api/sessions/${sid}/members/${ben.userId}`, {
      budget: 30,
    });
    await ok(f.as.creator, "PATCH", `/api/sessions/${sid}/members/${vic.userId}`, {
      role: "participant",
      budget: 20,
    });
    // Cart lines: added, raised, lowered, shared, unshared.
    const added = await ok(f.as.participant, "POST", `${cart}/product`, {
      productId: milk._id,
      quantity: 2,
    });
    const line = added.json().cart.products[0]._id;
    await ok(f.as.participant, "PATCH", `${cart}/quantity`, { productId: milk._id, change: 1 });
    await ok(f.as.participant, "PATCH", `${cart}/quantity`, { productId: milk._id, change: -1 });
    await ok(f.as.participant, "PUT", `${cart}/lines/${line}/shared-with`, {
      userIds: [ann.userId, ben.userId],
    });
    await ok(f.as.participant, "PUT", `${cart}/lines/${line}/shared-with`, { userIds: [] });
    // A line added by name, and a line's note and substitute.
    await ok(f.as.participant, "POST", `${cart}/free-lines`, {
      name: "Candles",
      estimatedPrice: 2,
    });
    await ok(f.as.participant, "PATCH", `${cart}/lines/${line}`, {
      note: "ripe ones",
      substitute: "none",
    });
    await ok(f.as.viewer, "POST", `${cart}/product`, { productId: bread._id, quantity: 1 });
    await ok(f.as.creator, "PUT", `/api/sessions/${sid}/split-policy`, {
      mode: "weights",
      weights: { [ben.userId]: 50 },
      fees: "creator",
    });
    // Vic's budget asks first: her bread waits, one more of it waits, Ann approves it; the next
    // one waits again and Ann declines it with a message.
    await ok(f.as.creator, "PATCH", `/api/sessions/${sid}/members/${vic.userId}`, {
      budget: 0.01,
      budgetMode: "ask",
    });
    const waits = await ok(f.as.viewer, "POST", `${cart}/product`, { productId: milk._id });
    const vicLine = waits
      .json()
      .cart.products.find(
        (l: { productId: { _id: string }; addedBy: { _id: string } }) =>
          l.productId._id === milk._id && l.addedBy._id === vic.userId,
      )._id;
    await ok(f.as.viewer, "PATCH", `${cart}/quantity`, { productId: milk._id, change: 1 });
    await ok(f.as.creator, "POST", `${cart}/lines/${vicLine}/approve`);
    await ok(f.as.viewer, "PATCH", `${cart}/quantity`, { productId: milk._id, change: 1 });
    await ok(f.as.creator, "POST", `${cart}/lines/${vicLine}/decline`, { message: "No more" });
    await ok(f.as.participant, "PUT", `/api/sessions/${sid}/ready`, { ready: true });
    await ok(f.as.participant, "PUT", `/api/sessions/${sid}/ready`, { ready: false });
    // Checked out, then each share settled a different way.
    const order = (await ok(f.as.creator, "POST", `/api/sessions/${sid}/checkout`)).json().order;
    await ok(f.as.participant, "POST", `/api/orders/${order._id}/paid`);
    await ok(f.as.creator, "POST", `/api/orders/${order._id}/confirm/${ben.userId}`, {});
    await ok(f.as.creator, "POST", `/api/orders/${order._id}/confirm/${vic.userId}`, {
      how: "cash",
    });
    // Adjusted on a line and on the whole order, and one change disputed.
    const adjusted = await ok(f.as.creator, "POST", `/api/orders/${order._id}/adjustments`, {
      kind: "refund",
      lineIndex: 0,
      amount: 0.01,
    });
    await ok(f.as.creator, "POST", `/api/orders/${order._id}/adjustments`, {
      kind: "order_fee",
      amount: 1,
    });
    const adjId = adjusted.json().order.adjustments[0]._id;
    await ok(f.as.participant, "POST", `/api/orders/${order._id}/adjustments/${adjId}/dispute`, {
      comment: "No refund came",
    });

    // Deleted accounts: Ben's line leaves a cart not yet checked out, and what Ben still owes
    // Ann is written off when Ann's account goes.
    const g = await sessionWithEveryRole(t);
    await ok(g.as.participant, "POST", `/api/carts/${g.cartId}/product`, {
      productId: bread._id,
      quantity: 1,
    });
    const h = await sessionWithEveryRole(t);
    await ok(h.as.participant, "POST", `/api/carts/${h.cartId}/product`, {
      productId: milk._id,
      quantity: 1,
    });
    await ok(h.as.creator, "POST", `/api/sessions/${h.sessionId}/checkout`);
    await ok(g.as.participant, "DELETE", "/api/users/me", {
      password: PASSWORD,
      acknowledgeUnsettled: true,
    });
    await ok(g.as.creator, "PUT", `/api/sessions/${g.sessionId}/end`);
    await ok(h.as.creator, "DELETE", "/api/users/me", {
      password: PASSWORD,
      acknowledgeUnsettled: true,
    });

    const entries = [
      ...(await logOf(f.as.viewer, sid)),
      ...(await logOf(g.as.viewer, g.sessionId)),
      ...(await logOf(h.as.viewer, h.sessionId)),
    ];
    // Each variant came (and parsed): the details that tell them apart.
    const seen = (type: Activity["type"], has: Record<string, unknown>) =>
      entries.some((e) => e.type === type && expect.objectContaining(has).asymmetricMatch(e));
    const variants: [Activity["type"], Record<string, unknown>][] = [
      ["session.updated", { changed: ["sessionName"], sessionName: "Picnic" }],
      ["session.updated", { changed: ["budget"], budget: null }],
      ["session.updated", { memberId: ben.userId, budget: 30 }],
      ["session.updated", { ready: true }],
      ["session.updated", { ready: false }],
      ["session.updated", { status: "ended" }],
      ["member.role", { memberId: vic.userId, role: "participant", budget: 20 }],
      ["member.joined", { approvedBy: ann.userId }],
      ["member.joined", { via: "invite", role: "viewer" }],
      ["item.quantity", { change: -1 }],
      ["item.shared", { with: [] }],
      ["item.added", { productId: null, product: "Candles" }],
      ["item.edited", { fields: ["note", "substitute"], lineOf: "Ben" }],
      ["split.policy", { mode: "weights", fees: "creator" }],
      ["order.confirmed", { memberId: ben.userId, how: "transfer" }],
      ["order.confirmed", { memberId: vic.userId, how: "cash" }],
      ["order.adjusted", { kind: "refund", adjustmentId: expect.any(String) }],
      ["order.adjusted", { kind: "order_fee" }],
      ["order.disputed", { kind: "refund", comment: "No refund came" }],
      ["item.removed", { reason: "account_deleted" }],
      ["item.added", { product: milk.name, pending: true }],
      ["item.quantity", { change: 1, pending: true }],
      ["item.approved", { lineOf: "Vic", product: milk.name }],
      ["item.declined", { lineOf: "Vic", message: "No more" }],
      ["order.confirmed", { how: "written_off", reason: "account_deleted" }],
    ];
    expect(variants.filter(([type, has]) => !seen(type, has))).toEqual([]);
  });
});
