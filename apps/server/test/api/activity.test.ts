/**
 * The activity log: every write route of sessions and carts adds exactly one entry, in
 * commit order, with its actor; the log pages, refuses bad queries and strangers, and nothing can
 * change or delete an entry (PGlite and PostgreSQL).
 */
import {
  ActivityEntrySchema,
  endpoints,
  splitEndpointKey,
  type EndpointKey,
} from "@cartner/contract";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  client,
  createTestApp,
  sessionWithEveryRole,
  signUp,
  type Client,
  type TestApp,
} from "../helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

type Entry = { seq: number; type: string; actor: { name: string }; [key: string]: unknown };

/** Write routes that change no member's view of the session, so they log nothing (and why). */
const EXEMPT: Partial<Record<EndpointKey, string>> = {
  "POST /api/sessions": "creates the session: its log starts empty",
  "POST /api/sessions/join/code": "a join request is not a member yet",
  "POST /api/sessions/joinrequests": "a read (SPEC's POST that lists the join requests)",
  "POST /api/sessions/reject/:code": "a refused request never was a member",
  "POST /api/sessions/invite": "an invite is not a member yet (accepting it is logged)",
  "POST /api/sessions/rejinvite": "a declined invite never was a member",
  "POST /api/sessions/:id/links": "a link is not a member yet (joining with it is logged)",
  "DELETE /api/sessions/:id/links/:linkId": "revoking a link changes no membership",
  "POST /api/carts/:cartId/lines/:lineId/acknowledge-price":
    "acknowledging a changed price moves no amount (the split already uses it)",
  "PUT /api/carts/:cartId/lines/:lineId/hidden-from":
    "hiding a present would name whom it is for: the line's own entries are hidden instead (private-lines.test.ts)",
};

describe("the activity log", () => {
  it("gets exactly one entry per write, in order, with its actor, from every write route", async () => {
    const f = await sessionWithEveryRole(t);
    const products = (await f.as.creator("GET", "/api/products?limit=20")).json().products;
    const [milk, bread] = products.filter((p: { stock: number }) => p.stock > 20);
    const walked = new Set<EndpointKey>();
    const log = async (): Promise<Entry[]> =>
      (await f.as.creator("GET", `/api/sessions/${f.sessionId}/activity?limit=200`)).json().events;
    // The fixture's own changes: Ben approved, Vic's invite accepted.
    const start = await log();
    expect(start.map((e) => [e.type, e.actor.name])).toEqual([
      ["member.joined", "Ben"],
      ["member.joined", "Vic"],
    ]);
    let seen = start.length;

    /** Calls one route and checks the log grew by exactly the expected entry. */
    async function step(
      key: EndpointKey,
      call: () => ReturnType<Client>,
      type: string,
      actor: string,
    ) {
      const res = await call();
      expect(res.statusCode, `${key}: ${res.body}`).toBeLessThan(300);
      const events = await log();
      expect(events.length, `${key} adds one entry`).toBe(seen + 1);
      const last = events.at(-1)!;
      expect([last.type, last.actor.name], key).toEqual([type, actor]);
      if (seen > 0) expect(last.seq).toBeGreaterThan(events.at(-2)!.seq);
      seen += 1;
      walked.add(key);
      return res;
    }

    const sid = f.sessionId;
    const cart = `/api/carts/${f.cartId}`;
    await step(
      "PATCH /api/sessions/:id",
      () => f.as.creator("PATCH", `/api/sessions/${sid}`, { budget: 120 }),
      "session.updated",
      "Ann",
    );
    const added = await step(
      "POST /api/carts/:cartId/product",
      () => f.as.participant("POST", `${cart}/product`, { productId: milk._id, quantity: 2 }),
      "item.added",
      "Ben",
    );
    const benLine = added.json().cart.products[0]._id;
    await step(
      "PATCH /api/carts/:cartId/quantity",
      () => f.as.participant("PATCH", `${cart}/quantity`, { productId: milk._id, change: 1 }),
      "item.quantity",
      "Ben",
    );
    await step(
      "PUT /api/carts/:cartId/lines/:lineId/shared-with",
      () =>
        f.as.participant("PUT", `${cart}/lines/${benLine}/shared-with`, {
          userIds: [f.people.creator.userId, f.people.participant.userId],
        }),
      "item.shared",
      "Ben",
    );
    await step(
      "PUT /api/carts/:cartId/lines/:lineId/staple",
      () => f.as.participant("PUT", `${cart}/lines/${benLine}/staple`, { staple: true }),
      "item.staple",
      "Ben",
    );
    const free = await step(
      "POST /api/carts/:cartId/free-lines",
      () => f.as.participant("POST", `${cart}/free-lines`, { name: "Candles", quantity: 1 }),
      "item.added",
      "Ben",
    );
    const freeLine = free.json().cart.products.find((l: { free: boolean }) => l.free)._id as string;
    await step(
      "PATCH /api/carts/:cartId/lines/:lineId",
      () => f.as.participant("PATCH", `${cart}/lines/${freeLine}`, { note: "the tall ones" }),
      "item.edited",
      "Ben",
    );
    await step(
      "PUT /api/sessions/:id/series",
      () =>
        f.as.creator("PUT", `/api/sessions/${sid}/series`, {
          rule: "FREQ=WEEKLY;BYDAY=SA;BYHOUR=10;BYMINUTE=0",
          timeZone: "Europe/Paris",
        }),
      "series.updated",
      "Ann",
    );
    // Ended again, so the checkout below starts no next session (whose entry would come here too).
    await step(
      "PUT /api/sessions/:id/series",
      () => f.as.creator("PUT", `/api/sessions/${sid}/series`, null),
      "series.updated",
      "Ann",
    );
    await step(
      "PUT /api/sessions/:id/split-policy",
      () =>
        f.as.creator("PUT", `/api/sessions/${sid}/split-policy`, {
          mode: "equal",
          weights: {},
          fees: "equal",
        }),
      "split.policy",
      "Ann",
    );
    await step(
      "PUT /api/sessions/:id/approvers",
      () =>
        f.as.creator("PUT", `/api/sessions/${sid}/approvers`, {
          userIds: [f.people.participant.userId],
        }),
      "session.updated",
      "Ann",
    );
    await step(
      "PATCH /api/sessions/:id/members/:userId",
      () =>
        f.as.creator("PATCH", `/api/sessions/${sid}/members/${f.people.viewer.userId}`, {
          role: "participant",
        }),
      "member.role",
      "Ann",
    );
    await step(
      "PUT /api/sessions/:id/ready",
      () => f.as.participant("PUT", `/api/sessions/${sid}/ready`, { ready: true }),
      "session.updated",
      "Ben",
    );
    await step(
      "POST /api/sessions/approve/:code",
      () =>
        f.as.creator("POST", `/api/sessions/approve/${f.code}`, {
          userId: f.people.pending.userId,
        }),
      "member.joined",
      "Pat",
    );
    const kim = await signUp(t, "Kim");
    const kimAs = client(t, kim.token);
    await f.as.creator("POST", "/api/sessions/invite", {
      sessionCode: f.code,
      emailOrUsername: kim.email,
      role: "viewer",
    });
    await step(
      "POST /api/sessions/accinvite",
      () => kimAs("POST", "/api/sessions/accinvite", { sessionCode: f.code }),
      "member.joined",
      "Kim",
    );
    const link = (
      await f.as.creator("POST", `/api/sessions/${sid}/links`, {
        role: "viewer",
        expiresInHours: 1,
        maxUses: 1,
      })
    ).json().link;
    const lou = await signUp(t, "Lou");
    await step(
      "POST /api/invite/:token/accept",
      () => client(t, lou.token)("POST", `/api/invite/${link.token}/accept`),
      "member.joined",
      "Lou",
    );
    await step(
      "DELETE /api/sessions/:id/members/:userId",
      () => f.as.creator("DELETE", `/api/sessions/${sid}/members/${lou.userId}`),
      "member.removed",
      "Ann",
    );
    await step(
      "DELETE /api/sessions/:id/leave",
      () => kimAs("DELETE", `/api/sessions/${sid}/leave`),
      "member.left",
      "Kim",
    );
    await step(
      "POST /api/sessions/:id/rotate-code",
      () => f.as.creator("POST", `/api/sessions/${sid}/rotate-code`),
      "session.updated",
      "Ann",
    );
    // A deadline ten minutes ahead; eleven minutes later the creator reopens the closed cart.
    // (Its job at the old time runs in real time, ten minutes away: no entry of its own here.)
    const inMinutes = (n: number) => new Date(t.clock.now().getTime() + n * 60_000).toISOString();
    await step(
      "PUT /api/sessions/:id/deadline",
      () => f.as.creator("PUT", `/api/sessions/${sid}/deadline`, { closesAt: inMinutes(10) }),
      "deadline.set",
      "Ann",
    );
    t.clock.advance(11 * 60_000);
    await step(
      "POST /api/sessions/:id/reopen",
      () => f.as.creator("POST", `/api/sessions/${sid}/reopen`, { closesAt: inMinutes(60) }),
      "deadline.reopened",
      "Ann",
    );
    await step(
      "DELETE /api/carts/:cartId/product/:productId",
      () => f.as.participant("DELETE", `${cart}/product/${milk._id}`),
      "item.removed",
      "Ben",
    );
    await step(
      "POST /api/carts/:cartId/lines/:lineId/restore",
      () => f.as.participant("POST", `${cart}/lines/${benLine}/restore`),
      "item.restored",
      "Ben",
    );
    await f.as.participant("DELETE", `${cart}/product/${milk._id}`);
    seen += 1;
    await f.as.participant("POST", `${cart}/product`, { productId: bread._id });
    seen += 1;
    await step(
      "DELETE /api/carts/:cartId/clear",
      () => f.as.creator("DELETE", `${cart}/clear`),
      "cart.cleared",
      "Ann",
    );
    await f.as.participant("POST", `${cart}/product`, { productId: bread._id });
    seen += 1;
    // Ben's budget asks first and is tiny: his milk waits for approval; Ann approves it, and
    // declines one more of it.
    await step(
      "PATCH /api/sessions/:id/members/:userId",
      () =>
        f.as.creator("PATCH", `/api/sessions/${sid}/members/${f.people.participant.userId}`, {
          budget: 0.01,
          budgetMode: "ask",
        }),
      "session.updated",
      "Ann",
    );
    const asked = await step(
      "POST /api/carts/:cartId/product",
      () => f.as.participant("POST", `${cart}/product`, { productId: milk._id }),
      "item.added",
      "Ben",
    );
    const waiting = asked
      .json()
      .cart.products.find((l: { productId: { _id: string } }) => l.productId._id === milk._id)._id;
    await step(
      "POST /api/carts/:cartId/lines/:lineId/approve",
      () => f.as.creator("POST", `${cart}/lines/${waiting}/approve`, {}),
      "item.approved",
      "Ann",
    );
    await step(
      "PATCH /api/carts/:cartId/quantity",
      () => f.as.participant("PATCH", `${cart}/quantity`, { productId: milk._id, change: 1 }),
      "item.quantity",
      "Ben",
    );
    await step(
      "POST /api/carts/:cartId/lines/:lineId/decline",
      () => f.as.creator("POST", `${cart}/lines/${waiting}/decline`, { message: "One is plenty" }),
      "item.declined",
      "Ann",
    );
    await step(
      "POST /api/sessions/:id/transfer",
      () =>
        f.as.creator("POST", `/api/sessions/${sid}/transfer`, {
          userId: f.people.participant.userId,
        }),
      "member.role",
      "Ann",
    );
    // Ben runs it now; Ann is a participant with nothing in the cart.
    const placed = await step(
      "POST /api/sessions/:id/checkout",
      () => f.as.participant("POST", `/api/sessions/${sid}/checkout`),
      "order.placed",
      "Ben",
    );
    const order = placed.json().order;
    const payer = order.split.find((s: { userId: string }) => s.userId !== order.payee._id);
    if (payer) {
      const asPayer = payer.userId === f.people.creator.userId ? f.as.creator : f.as.viewer;
      await step(
        "POST /api/orders/:id/paid",
        () => asPayer("POST", `/api/orders/${order._id}/paid`),
        "order.paid",
        payer.name,
      );
      await step(
        "POST /api/orders/:id/confirm/:userId",
        () => f.as.participant("POST", `/api/orders/${order._id}/confirm/${payer.userId}`),
        "order.confirmed",
        "Ben",
      );
    }
    // Ending and deleting a cart: on a second session.
    const g = await sessionWithEveryRole(t);
    await g.as.creator("PUT", `/api/sessions/${g.sessionId}/end`);
    const h = await sessionWithEveryRole(t);
    await h.as.creator("DELETE", `/api/carts/${h.cartId}`);
    for (const [x, key] of [
      [g, "PUT /api/sessions/:id/end"],
      [h, "DELETE /api/carts/:cartId"],
    ] as const) {
      const events = (await x.as.viewer("GET", `/api/sessions/${x.sessionId}/activity`)).json()
        .events as Entry[];
      // After the fixture's two members joining: one entry, the end.
      expect(events.slice(2).map((e) => [e.type, e.actor.name, e.status])).toEqual([
        ["session.updated", "Ann", "ended"],
      ]);
      walked.add(key);
    }

    // Every write route of sessions and carts was walked, or is exempt for a stated reason.
    const writes = (Object.keys(endpoints) as EndpointKey[]).filter((key) => {
      const [method, path] = splitEndpointKey(key);
      return method !== "GET" && /^\/api\/(sessions|carts)\//.test(`${path}/`);
    });
    expect(writes.filter((key) => !walked.has(key) && !EXEMPT[key])).toEqual([]);

    // Ended and checked out, the log stays; the removed member's entry keeps her name.
    const all = await log();
    // Each entry has one of the contract's shapes (activity-shapes.test.ts walks their variants).
    for (const e of all) {
      expect(ActivityEntrySchema.safeParse(e).error, JSON.stringify(e)).toBeUndefined();
    }
    expect(all.find((e) => e.type === "member.joined" && e.actor.name === "Lou")).toBeTruthy();
    expect(all.find((e) => e.type === "member.removed")).toMatchObject({ member: "Lou" });
  });

  it("pages with after and limit, and refuses bad queries and non-members", async () => {
    const f = await sessionWithEveryRole(t);
    for (const budget of [1, 2, 3]) {
      await f.as.creator("PATCH", `/api/sessions/${f.sessionId}`, { budget });
    }
    const url = `/api/sessions/${f.sessionId}/activity`;
    // Two entries from the fixture (members joining), then the three budgets.
    const first = (await f.as.viewer("GET", `${url}?limit=3`)).json();
    expect(first.events.map((e: Entry) => e.type)).toEqual([
      "member.joined",
      "member.joined",
      "session.updated",
    ]);
    const second = (await f.as.viewer("GET", `${url}?after=${first.nextSeq}&limit=3`)).json();
    expect(second.events.map((e: Entry) => e.budget)).toEqual([2, 3]);
    const none = (await f.as.viewer("GET", `${url}?after=${second.nextSeq}`)).json();
    expect(none).toEqual({ events: [], nextSeq: second.nextSeq });
    for (const q of ["after=-1", "limit=0", "limit=1000", "after=abc", "limit=2.5", "x=1"]) {
      expect((await f.as.viewer("GET", `${url}?${q}`)).statusCode, q).toBe(400);
    }
    expect((await f.as.stranger("GET", url)).statusCode).toBe(404);
    expect((await f.as.pending("GET", url)).statusCode).toBe(404);
  });

  it("is append-only: the database refuses to change or delete an entry", async () => {
    const f = await sessionWithEveryRole(t);
    await f.as.creator("PATCH", `/api/sessions/${f.sessionId}`, { budget: 5 });
    const refusal = (query: ReturnType<typeof sql>) =>
      t.database.db.execute(query).then(
        () => "changed",
        (error: Error & { cause?: unknown }) => String(error.cause ?? error),
      );
    expect(await refusal(sql`update activity set actor_name = 'Mallory'`)).toMatch(/append-only/);
    expect(await refusal(sql`delete from activity`)).toMatch(/append-only/);
  });
});
