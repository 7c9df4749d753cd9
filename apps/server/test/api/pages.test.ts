/**
 * Lists that grow with time come a page at a time (PGlite and PostgreSQL): My Orders, Cart
 * History and My Sessions follow their cursors to the same list, newest first, with nothing twice
 * and nothing left out; My Orders' filters (a session's order, the orders still to pay) and bad
 * paging input.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { group } from "../group-support.ts";
import { createTestApp, signUp, client, type Client, type TestApp } from "../helpers.ts";

let t: TestApp;
let ann: Client;
let ben: Client;
let sam: Client;
let benId: string;
/** Three checked-out sessions (oldest first), one ended without checkout, one still active. */
const orderIds: string[] = [];
const sessionIds: string[] = [];
let endedWithoutOrder: string;
let stillActive: string;

beforeAll(async () => {
  t = await createTestApp();
  // One group per session: each order's people are Ann (payee) and Ben.
  const first = await group(t, ["Ann", "Ben"] as const);
  ann = first.as.Ann;
  ben = first.as.Ben;
  benId = first.id("Ben");
  sam = client(t, (await signUp(t, "Sam")).token);
  const product = (
    (await ann("GET", "/api/products?limit=50")).json().products as { _id: string; stock: number }[]
  ).find((p) => p.stock > 10)!;
  for (let i = 0; i < 5; i++) {
    const sessionId =
      i === 0
        ? first.session._id
        : (
            await ann("POST", "/api/sessions", {
              sessionName: `Week ${i + 1}`,
              sessionType: "Friends",
              participants: "3+",
            })
          ).json().session._id;
    if (i > 0) {
      const invite = await ann("POST", "/api/sessions/invite", {
        sessionCode: (await ann("GET", `/api/sessions/${sessionId}`)).json().session.sessionCode,
        emailOrUsername: first.people.Ben.email,
        role: "participant",
      });
      expect(invite.statusCode, invite.body).toBe(201);
      const accepted = await ben("POST", "/api/sessions/accinvite", {
        sessionCode: (await ann("GET", `/api/sessions/${sessionId}`)).json().session.sessionCode,
      });
      expect(accepted.statusCode, accepted.body).toBe(200);
    }
    sessionIds.push(sessionId);
    const cartId = (await ben("GET", `/api/sessions/${sessionId}/cart`)).json().cart._id;
    const added = await ben("POST", `/api/carts/${cartId}/product`, {
      productId: product._id,
      quantity: 1,
    });
    expect(added.statusCode, added.body).toBe(200);
    if (i < 3) {
      const res = await ann("POST", `/api/sessions/${sessionId}/checkout`);
      expect(res.statusCode, res.body).toBe(201);
      orderIds.push(res.json().order._id);
    } else if (i === 3) {
      const res = await ann("PUT", `/api/sessions/${sessionId}/end`);
      expect(res.statusCode, res.body).toBe(200);
      endedWithoutOrder = sessionId;
    } else {
      stillActive = sessionId;
    }
  }
});
afterAll(async () => t.close());

/** Follows `url`'s cursors with pages of `limit`, returning the ids in order and the pages' sizes. */
async function walk(as: Client, url: string, key: string, limit: number) {
  const ids: string[] = [];
  const sizes: number[] = [];
  let cursor: string | null = null;
  do {
    const sep = url.includes("?") ? "&" : "?";
    const res = await as("GET", `${url}${sep}limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    const items = body[key] as { _id: string }[];
    ids.push(...items.map((item) => item._id));
    sizes.push(items.length);
    cursor = body.nextCursor;
    expect(sizes.length).toBeLessThan(20);
  } while (cursor);
  return { ids, sizes };
}

describe("paged lists", () => {
  it("My Orders pages to the whole list, newest first, each order once", async () => {
    const whole = (await ann("GET", "/api/orders?limit=100")).json();
    expect(whole.nextCursor).toBeNull();
    expect(whole.orders.map((o: { _id: string }) => o._id)).toEqual([...orderIds].reverse());
    const paged = await walk(ann, "/api/orders", "orders", 2);
    expect(paged.ids).toEqual([...orderIds].reverse());
    expect(paged.sizes).toEqual([2, 1]);
    // Ben, with a share in each, reads the same orders.
    expect((await walk(ben, "/api/orders", "orders", 1)).ids).toEqual([...orderIds].reverse());
    // A stranger has none.
    expect((await sam("GET", "/api/orders")).json()).toEqual({ orders: [], nextCursor: null });
  });

  it("Cart History and My Sessions page to their whole lists", async () => {
    const history = (await ann("GET", "/api/carts/history?limit=100")).json();
    const ended = history.carts.map((c: { sessionId: { _id: string } }) => c.sessionId._id);
    expect(new Set(ended)).toEqual(new Set([...sessionIds.slice(0, 3), endedWithoutOrder]));
    const pagedHistory = await walk(ann, "/api/carts/history", "carts", 3);
    expect(pagedHistory.ids).toEqual(history.carts.map((c: { _id: string }) => c._id));
    expect(pagedHistory.sizes).toEqual([3, 1]);

    const sessions = (await ben("GET", "/api/sessions/my?limit=100")).json();
    expect(sessions.sessions.map((s: { _id: string }) => s._id).sort()).toEqual(
      [...sessionIds].sort(),
    );
    const pagedSessions = await walk(ben, "/api/sessions/my", "sessions", 2);
    expect(pagedSessions.ids).toEqual(sessions.sessions.map((s: { _id: string }) => s._id));
    expect(pagedSessions.sizes).toEqual([2, 2, 1]);
    expect((await sam("GET", "/api/sessions/my")).json().sessions).toEqual([]);
    expect((await sam("GET", "/api/carts/history")).json().carts).toEqual([]);
  });

  it("answers the order a session became, to its people only", async () => {
    const one = (await ben("GET", `/api/orders?sessionId=${sessionIds[1]}`)).json();
    expect(one.orders.map((o: { _id: string }) => o._id)).toEqual([orderIds[1]]);
    const two = (
      await ann("GET", `/api/orders?sessionId=${sessionIds[0]}&sessionId=${sessionIds[2]}`)
    ).json();
    expect(two.orders.map((o: { _id: string }) => o._id)).toEqual([orderIds[2], orderIds[0]]);
    for (const sessionId of [endedWithoutOrder, stillActive]) {
      expect((await ann("GET", `/api/orders?sessionId=${sessionId}`)).json().orders).toEqual([]);
    }
    expect((await sam("GET", `/api/orders?sessionId=${sessionIds[1]}`)).json().orders).toEqual([]);
  });

  it("toPay keeps the orders where the reader's share is still unpaid", async () => {
    const toPay = async (as: Client) =>
      ((await as("GET", "/api/orders?toPay=true")).json().orders as { _id: string }[]).map(
        (o) => o._id,
      );
    expect(await toPay(ben)).toEqual([...orderIds].reverse());
    // The payee has nothing to pay on their own orders.
    expect(await toPay(ann)).toEqual([]);
    // Said paid (waiting for Ann), and settled in cash: neither is still to pay.
    expect((await ben("POST", `/api/orders/${orderIds[0]}/paid`)).statusCode).toBe(200);
    const cash = await ann("POST", `/api/orders/${orderIds[1]}/confirm/${benId}`, { how: "cash" });
    expect(cash.statusCode, cash.body).toBe(200);
    expect(await toPay(ben)).toEqual([orderIds[2]]);
    // Without the filter, every order is still listed.
    expect((await ben("GET", "/api/orders?toPay=false")).json().orders).toHaveLength(3);
  });

  it("refuses bad paging input, naming the field", async () => {
    for (const [query, field] of [
      ["limit=0", "limit"],
      ["limit=101", "limit"],
      ["limit=two", "limit"],
      ["cursor=not-an-id", "cursor"],
      ["toPay=maybe", "toPay"],
      ["sessionId=42", "sessionId"],
      ["colour=blue", "colour"],
    ] as const) {
      const res = await ann("GET", `/api/orders?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.body, query).toContain(field);
    }
    for (const url of ["/api/carts/history?limit=0", "/api/sessions/my?cursor=x"]) {
      const res = await ann("GET", url);
      expect(res.statusCode, url).toBe(400);
    }
  });
});
