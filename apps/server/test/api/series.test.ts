/**
 * Recurring sessions through the API, with the job queue's clock moved by the test: a series'
 * next session starts after a checkout or at the next occurrence, once, with the members, roles,
 * budgets, split policy, deadline rule and staple lines (at the day's price; what cannot be carried is named);
 * ending the series stops it; who may set a series or mark a staple; bad rules change nothing.
 */
import { ActivityEntrySchema, type Session } from "@cartner/contract";
import { sql } from "drizzle-orm";
import { TestClock } from "pg-boss";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  client,
  createTestApp,
  sessionWithEveryRole,
  type Client,
  type TestApp,
} from "../helpers.ts";
import { listenForLive, signedIn, type Peer } from "../live-peers.ts";

const DAY = 24 * 3600 * 1000;
const WEEKLY_FRIDAY = "FREQ=WEEKLY;INTERVAL=1;BYDAY=FR;BYHOUR=18;BYMINUTE=0";

let t: TestApp;
let queueClock: TestClock;
let base: string;
let products: { _id: string; name: string; price: number; stock: number }[];

beforeAll(async () => {
  queueClock = new TestClock(Date.now());
  t = await createTestApp({ queueClock });
  base = await listenForLive(t);
  const f = await sessionWithEveryRole(t);
  products = (await f.as.creator("GET", "/api/products")).json().products;
  products = products.filter((p) => p.stock >= 10);
});
afterAll(async () => t.close());

type World = Awaited<ReturnType<typeof sessionWithEveryRole>>;

async function addLine(f: World, who: "creator" | "participant", productId: string, quantity = 1) {
  const res = await f.as[who]("POST", `/api/carts/${f.cartId}/product`, { productId, quantity });
  expect(res.statusCode, res.body).toBe(200);
  const lines: { _id: string; productId: { _id: string }; addedBy: { _id: string } }[] =
    res.json().cart.products;
  return lines.find((l) => l.productId._id === productId && l.addedBy._id === f.people[who].userId)!
    ._id;
}

async function setSeries(f: World, body: unknown) {
  return f.as.creator("PUT", `/api/sessions/${f.sessionId}/series`, body);
}

async function sessionOf(f: World, id: string, who: keyof World["as"] = "participant") {
  const res = await f.as[who]("GET", `/api/sessions/${id}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().session as Session;
}

/** Moves the queue's clock on until `check` passes (the job runs about a second after its time). */
async function until<T>(check: () => Promise<T>): Promise<T> {
  return vi.waitFor(
    async () => {
      await queueClock.tick(1_000);
      return check();
    },
    { timeout: 20_000, interval: 50 },
  );
}

/** After a jump in time the access tokens have expired: each person renews theirs. */
async function renewTokens(f: World): Promise<void> {
  for (const role of Object.keys(f.people) as (keyof World["people"])[]) {
    const res = await f.as[role]("POST", "/api/auth/refresh-token");
    expect(res.statusCode, res.body).toBe(200);
    f.people[role].token = res.json().token;
    (f.as as Record<string, Client>)[role] = client(t, res.json().token);
  }
}

async function followerOf(f: World, sessionId = f.sessionId): Promise<string> {
  return until(async () => {
    const next = (await sessionOf(f, sessionId, "creator")).nextSessionId;
    expect(next).not.toBeNull();
    return next!;
  });
}

async function activityOf(f: World, sessionId: string) {
  const res = await f.as.creator("GET", `/api/sessions/${sessionId}/activity?limit=200`);
  return res.json().events.map((e: unknown) => ActivityEntrySchema.parse(e));
}

const setPrice = (productId: string, cents: number) =>
  t.database.db.execute(sql`update products set price_cents = ${cents} where id = ${productId}`);
const setStock = (productId: string, stock: number) =>
  t.database.db.execute(sql`update products set stock = ${stock} where id = ${productId}`);

describe("a weekly series", () => {
  let peer: Peer;
  afterAll(() => peer?.socket.close());

  it("starts its next session after checkout: members, roles, budgets, policy, deadline, staples at today's price", async () => {
    const f = await sessionWithEveryRole(t);
    const [kept, dropped, plain] = products.slice(0, 3) as [
      (typeof products)[0],
      (typeof products)[0],
      (typeof products)[0],
    ];
    const keptLine = await addLine(f, "participant", kept._id, 2);
    const droppedLine = await addLine(f, "creator", dropped._id);
    await addLine(f, "creator", plain._id);
    const policy = {
      mode: "weights",
      weights: { [f.people.participant.userId]: 40 },
      fees: "equal",
    };
    expect(
      (await f.as.creator("PUT", `/api/sessions/${f.sessionId}/split-policy`, policy)).statusCode,
    ).toBe(200);
    const budget = await f.as.participant(
      "PATCH",
      `/api/sessions/${f.sessionId}/members/${f.people.participant.userId}`,
      { budget: 80 },
    );
    expect(budget.statusCode, budget.body).toBe(200);

    const set = await setSeries(f, { rule: WEEKLY_FRIDAY, timeZone: "Europe/Paris" });
    expect(set.statusCode, set.body).toBe(200);
    const series = set.json().session.series;
    expect(series).toMatchObject({ rule: WEEKLY_FRIDAY, timeZone: "Europe/Paris" });
    const nextAt = new Date(series.nextAt);
    expect(nextAt.getTime()).toBeGreaterThan(queueClock.now());
    expect(nextAt.getTime() - queueClock.now()).toBeLessThanOrEqual(7 * DAY);
    // Friday, 18:00 in Paris.
    const paris = new Intl.DateTimeFormat("en-GB", {
      timeZone: "Europe/Paris",
      weekday: "short",
      hour: "2-digit",
      minute: "2-digit",
    }).format(nextAt);
    expect(paris).toBe("Fri 18:00");

    // The adder marks their own line; the creator marks one of theirs.
    const marked = await f.as.participant(
      "PUT",
      `/api/carts/${f.cartId}/lines/${keptLine}/staple`,
      { staple: true },
    );
    expect(marked.statusCode, marked.body).toBe(200);
    expect(
      marked.json().cart.products.find((l: { _id: string }) => l._id === keptLine).staple,
    ).toBe(true);
    expect(
      (
        await f.as.creator("PUT", `/api/carts/${f.cartId}/lines/${droppedLine}/staple`, {
          staple: true,
        })
      ).statusCode,
    ).toBe(200);

    // The cart closes six hours before the next start (Friday, 12:00 in Paris).
    const HOUR = 3600 * 1000;
    const deadline = await f.as.creator("PUT", `/api/sessions/${f.sessionId}/deadline`, {
      closesAt: new Date(nextAt.getTime() - 6 * HOUR).toISOString(),
      remindAt: [120],
      autoCheckout: true,
    });
    expect(deadline.statusCode, deadline.body).toBe(200);

    peer = await signedIn(base, f.people.participant.token);
    const placed = await f.as.creator("POST", `/api/sessions/${f.sessionId}/checkout`);
    expect(placed.statusCode, placed.body).toBe(201);
    // Today's catalog: a new price for one staple, none left of the other.
    await setPrice(kept._id, Math.round(kept.price * 100) + 150);
    await setStock(dropped._id, 0);

    const nextId = await followerOf(f);
    const next = await sessionOf(f, nextId);
    expect(next).toMatchObject({
      sessionName: "Weekend groceries",
      status: "active",
      budget: 150,
      splitPolicy: policy,
      previousSessionId: f.sessionId,
      nextSessionId: null,
      series: {
        rule: WEEKLY_FRIDAY,
        timeZone: "Europe/Paris",
        nextAt: new Date(nextAt.getTime() + 7 * DAY).toISOString(),
      },
    });
    // The deadline rule comes along: a week later (no daylight saving change between).
    expect(next.deadline).toEqual({
      closesAt: new Date(nextAt.getTime() + 7 * DAY - 6 * HOUR).toISOString(),
      remindAt: [120],
      autoCheckout: true,
      locked: false,
      remindersAhead: [120],
      remindedOnSetAt: null,
    });
    expect(next.sessionCode).not.toBe(f.code);
    expect(next.cartId).not.toBe(f.cartId);
    const members = Object.fromEntries(
      (await sessionOf(f, nextId, "creator")).invitedUsers.map((m) => [m.name, [m.role, m.budget]]),
    );
    // The pending requester is not carried.
    expect(members).toEqual({
      Ann: ["creator", null],
      Ben: ["participant", 80],
      Vic: ["viewer", null],
    });

    const cart = (await f.as.participant("GET", `/api/carts/${next.cartId}`)).json().cart;
    expect(cart.products).toHaveLength(1);
    expect(cart.products[0]).toMatchObject({
      productId: { _id: kept._id, price: kept.price + 1.5 },
      quantity: 2,
      addedBy: { _id: f.people.participant.userId },
      staple: true,
    });

    const started = (await activityOf(f, nextId)).find(
      (e: { type: string }) => e.type === "series.started",
    );
    expect(started).toMatchObject({
      fromSessionId: f.sessionId,
      dropped: [{ name: dropped.name, reason: "out_of_stock" }],
    });

    // The old session is history: ended, its series moved on, pointing to the next one.
    const old = await sessionOf(f, f.sessionId);
    expect(old).toMatchObject({ status: "ended", series: null, nextSessionId: nextId });
    expect(await activityOf(f, f.sessionId)).toContainEqual(
      expect.objectContaining({ type: "series.continued", sessionId: nextId }),
    );
    const told = await peer.next((m) => m.type === "session.started");
    expect(told).toMatchObject({ sessionId: nextId, fromSessionId: f.sessionId });

    // The occurrence's own job, later, finds the series gone from the old session: nothing more.
    await queueClock.setTime(nextAt.getTime() + 1_000);
    await queueClock.tick(1_000);
    await new Promise((r) => setTimeout(r, 1_500));
    const followers = await t.database.rows<{ n: number }>(
      sql`select count(*)::int as n from sessions where previous_session_id = ${f.sessionId}`,
    );
    expect(followers[0]!.n).toBe(1);
    const afterNext = await t.database.rows<{ n: number }>(
      sql`select count(*)::int as n from sessions where previous_session_id = ${nextId}`,
    );
    expect(afterNext[0]!.n).toBe(0);
  });

  it("starts at the next occurrence when nobody checked out; the open one stays as it is", async () => {
    const f = await sessionWithEveryRole(t);
    const product = products[3]!;
    const line = await addLine(f, "participant", product._id);
    await f.as.participant("PUT", `/api/carts/${f.cartId}/lines/${line}/staple`, { staple: true });
    // A removed member is not carried.
    const removed = await f.as.creator(
      "DELETE",
      `/api/sessions/${f.sessionId}/members/${f.people.viewer.userId}`,
    );
    expect(removed.statusCode, removed.body).toBe(200);
    const set = await setSeries(f, {
      rule: "FREQ=DAILY;INTERVAL=2;BYHOUR=7;BYMINUTE=30",
      timeZone: "America/New_York",
    });
    expect(set.statusCode, set.body).toBe(200);
    const nextAt = Date.parse(set.json().session.series.nextAt);

    await queueClock.setTime(nextAt - 60_000);
    await queueClock.tick(1_000);
    await new Promise((r) => setTimeout(r, 1_200));
    await renewTokens(f);
    expect((await sessionOf(f, f.sessionId)).nextSessionId).toBeNull();

    await queueClock.setTime(nextAt);
    await renewTokens(f);
    const nextId = await followerOf(f);
    const old = await sessionOf(f, f.sessionId);
    expect(old).toMatchObject({ status: "active", series: null, nextSessionId: nextId });
    expect(old.cart.itemCount).toBe(1);
    const next = await sessionOf(f, nextId);
    expect(next.series?.nextAt).toBe(new Date(nextAt + 2 * DAY).toISOString());
    expect(next.invitedUsers.map((m) => m.name).sort()).toEqual(["Ann", "Ben"]);
    expect(next.cart.itemCount).toBe(1);
  });

  it("keeps a private staple hidden from whom it was, in the next session too", async () => {
    const f = await sessionWithEveryRole(t);
    const product = products[4]!;
    const line = await addLine(f, "participant", product._id);
    const lineUrl = `/api/carts/${f.cartId}/lines/${line}`;
    const marked = await f.as.participant("PUT", `${lineUrl}/staple`, { staple: true });
    expect(marked.statusCode, marked.body).toBe(200);
    const hid = await f.as.participant("PUT", `${lineUrl}/hidden-from`, {
      userIds: [f.people.viewer.userId],
    });
    expect(hid.statusCode, hid.body).toBe(200);
    // Another private staple that cannot be carried (none left): the new log, which the viewer
    // reads, does not name it.
    const gone = products[5]!;
    const goneUrl = `/api/carts/${f.cartId}/lines/${await addLine(f, "participant", gone._id)}`;
    await f.as.participant("PUT", `${goneUrl}/staple`, { staple: true });
    const hidGone = await f.as.participant("PUT", `${goneUrl}/hidden-from`, {
      userIds: [f.people.viewer.userId],
    });
    expect(hidGone.statusCode, hidGone.body).toBe(200);
    await setStock(gone._id, 0);
    const set = await setSeries(f, {
      rule: "FREQ=DAILY;INTERVAL=1;BYHOUR=7;BYMINUTE=30",
      timeZone: "Europe/Paris",
    });
    expect(set.statusCode, set.body).toBe(200);
    await queueClock.setTime(Date.parse(set.json().session.series.nextAt));
    await renewTokens(f);
    const nextId = await followerOf(f);
    const next = await sessionOf(f, nextId, "creator");
    const cart = (who: "creator" | "viewer") =>
      f.as[who]("GET", `/api/carts/${next.cart._id}`).then((r) => r.json().cart);
    const seen = await cart("creator");
    expect(seen.products).toHaveLength(1);
    expect(seen.products[0].hiddenFrom).toEqual([f.people.viewer.userId]);
    const viewer = await cart("viewer");
    expect(viewer.products).toEqual([]);
    expect(viewer.privateCount).toBe(1);
    expect(viewer.totalPrice).toBe(seen.totalPrice);
    await setStock(gone._id, gone.stock);
    const log = await f.as.viewer("GET", `/api/sessions/${nextId}/activity`);
    expect(log.statusCode, log.body).toBe(200);
    expect(log.body).not.toContain(gone.name);
    expect(log.body).not.toContain(product.name);
  });

  it("stops when the creator ends the series", async () => {
    const f = await sessionWithEveryRole(t);
    const set = await setSeries(f, { rule: "FREQ=DAILY;BYHOUR=6;BYMINUTE=0", timeZone: "UTC" });
    expect(set.statusCode, set.body).toBe(200);
    const nextAt = Date.parse(set.json().session.series.nextAt);
    const ended = await setSeries(f, null);
    expect(ended.statusCode, ended.body).toBe(200);
    expect(ended.json().session.series).toBeNull();
    const entries = await activityOf(f, f.sessionId);
    expect(
      entries.filter((e: { type: string }) => e.type === "series.updated").at(-1),
    ).toMatchObject({
      ended: true,
    });

    await queueClock.setTime(nextAt + 1_000);
    for (let i = 0; i < 3; i++) {
      await queueClock.tick(1_000);
      await new Promise((r) => setTimeout(r, 500));
    }
    await renewTokens(f);
    expect(await sessionOf(f, f.sessionId)).toMatchObject({ nextSessionId: null, series: null });
  });
});

describe("a rule without a time of day", () => {
  /** The hour and minute of `iso` on the wall clock of `timeZone`. */
  const clock = (iso: string, timeZone: string) => {
    const [hour, minute] = new Intl.DateTimeFormat("en-GB", {
      timeZone,
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    })
      .format(new Date(iso))
      .split(":")
      .map(Number);
    return { hour: hour!, minute: minute! };
  };

  it("keeps the session's time of day in the rule's zone, and the answer's rule states it", async () => {
    const f = await sessionWithEveryRole(t);
    const { createdAt } = await sessionOf(f, f.sessionId, "creator");
    const created = clock(createdAt, "Asia/Kolkata");
    const set = await setSeries(f, {
      rule: "RRULE:FREQ=WEEKLY;BYDAY=TU",
      timeZone: "Asia/Kolkata",
    });
    expect(set.statusCode, set.body).toBe(200);
    const series = set.json().session.series;
    expect(series.rule).toBe(
      `FREQ=WEEKLY;INTERVAL=1;BYDAY=TU;BYHOUR=${created.hour};BYMINUTE=${created.minute}`,
    );
    expect(clock(series.nextAt, "Asia/Kolkata")).toEqual(created);
    expect(
      new Date(series.nextAt).toLocaleDateString("en-US", {
        weekday: "long",
        timeZone: "Asia/Kolkata",
      }),
    ).toBe("Tuesday");

    // A session that repeats already keeps its series' time: Friday 18:00 in Paris stays 18:00,
    // and so does a rule giving only its minute.
    expect((await setSeries(f, { rule: WEEKLY_FRIDAY, timeZone: "Europe/Paris" })).statusCode).toBe(
      200,
    );
    const daily = await setSeries(f, { rule: "FREQ=DAILY;INTERVAL=2", timeZone: "Europe/Paris" });
    expect(daily.statusCode, daily.body).toBe(200);
    expect(daily.json().session.series.rule).toBe("FREQ=DAILY;INTERVAL=2;BYHOUR=18;BYMINUTE=0");
    const minute = await setSeries(f, { rule: "FREQ=DAILY;BYMINUTE=30", timeZone: "Europe/Paris" });
    expect(minute.json().session.series.rule).toBe("FREQ=DAILY;INTERVAL=1;BYHOUR=18;BYMINUTE=30");
    const entries = await activityOf(f, f.sessionId);
    expect(
      entries.filter((e: { type: string }) => e.type === "series.updated").at(-1),
    ).toMatchObject({
      rule: "FREQ=DAILY;INTERVAL=1;BYHOUR=18;BYMINUTE=30",
      timeZone: "Europe/Paris",
    });
  });
});

describe("who may set a series or mark a staple", () => {
  it("the creator sets the series; others are refused as the permissions table says", async () => {
    const f = await sessionWithEveryRole(t);
    const body = { rule: WEEKLY_FRIDAY, timeZone: "Europe/Paris" };
    const url = `/api/sessions/${f.sessionId}/series`;
    expect((await f.as.participant("PUT", url, body)).statusCode).toBe(403);
    expect((await f.as.viewer("PUT", url, body)).statusCode).toBe(403);
    expect((await f.as.pending("PUT", url, body)).statusCode).toBe(404);
    expect((await f.as.stranger("PUT", url, body)).statusCode).toBe(404);
    expect((await sessionOf(f, f.sessionId)).series).toBeNull();
  });

  it("a line's adder or the creator marks it a staple", async () => {
    const f = await sessionWithEveryRole(t);
    const mine = await addLine(f, "creator", products[4]!._id);
    const bens = await addLine(f, "participant", products[5]!._id);
    const put = (who: keyof World["as"], line: string) =>
      f.as[who]("PUT", `/api/carts/${f.cartId}/lines/${line}/staple`, { staple: true });
    expect((await put("participant", mine)).statusCode).toBe(403);
    expect((await put("viewer", bens)).statusCode).toBe(403);
    expect((await put("stranger", bens)).statusCode).toBe(404);
    expect((await put("pending", bens)).statusCode).toBe(404);
    expect((await put("participant", bens)).statusCode).toBe(200);
    expect((await put("creator", mine)).statusCode).toBe(200);
    const entries = (await activityOf(f, f.sessionId)).filter(
      (e: { type: string }) => e.type === "item.staple",
    );
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({ staple: true, lineOf: "Ben" });
  });
});

describe("bad series bodies are refused, naming the field, and change nothing", () => {
  const ROWS: [string, unknown, string][] = [
    [
      "every 0 days",
      { rule: "FREQ=DAILY;INTERVAL=0;BYHOUR=9;BYMINUTE=0", timeZone: "UTC" },
      "rule",
    ],
    [
      "every 53 weeks",
      { rule: "FREQ=WEEKLY;INTERVAL=53;BYDAY=MO;BYHOUR=9;BYMINUTE=0", timeZone: "UTC" },
      "rule",
    ],
    [
      "10,000 occurrences",
      { rule: "FREQ=DAILY;COUNT=10000;BYHOUR=9;BYMINUTE=0", timeZone: "UTC" },
      "rule",
    ],
    ["monthly", { rule: "FREQ=MONTHLY;BYHOUR=9;BYMINUTE=0", timeZone: "UTC" }, "rule"],
    ["hourly", { rule: "FREQ=HOURLY", timeZone: "UTC" }, "rule"],
    ["a 25th hour", { rule: "FREQ=DAILY;BYHOUR=25", timeZone: "UTC" }, "rule"],
    [
      "weekly without a weekday",
      { rule: "FREQ=WEEKLY;BYHOUR=9;BYMINUTE=0", timeZone: "UTC" },
      "rule",
    ],
    [
      "a bad weekday",
      { rule: "FREQ=WEEKLY;BYDAY=XX;BYHOUR=9;BYMINUTE=0", timeZone: "UTC" },
      "rule",
    ],
    [
      "an unknown part",
      { rule: "FREQ=DAILY;BYHOUR=9;BYMINUTE=0;BYSETPOS=1", timeZone: "UTC" },
      "rule",
    ],
    ["not a rule", { rule: "every friday", timeZone: "UTC" }, "rule"],
    [
      "an unknown zone",
      { rule: "FREQ=DAILY;BYHOUR=9;BYMINUTE=0", timeZone: "Mars/Olympus" },
      "timeZone",
    ],
    ["no zone", { rule: "FREQ=DAILY;BYHOUR=9;BYMINUTE=0" }, "timeZone"],
  ];

  let f: World;
  beforeAll(async () => {
    f = await sessionWithEveryRole(t);
  });

  it.each(ROWS)("%s", async (_, body, field) => {
    const res = await setSeries(f, body);
    expect(res.statusCode, res.body).toBe(400);
    expect(Object.keys(res.json().fields ?? {})).toContain(field);
    expect((await sessionOf(f, f.sessionId)).series).toBeNull();
    expect(
      (await activityOf(f, f.sessionId)).filter((e: { type: string }) =>
        e.type.startsWith("series"),
      ),
    ).toEqual([]);
  });

  it("refuses a staple that is not a boolean", async () => {
    const line = await addLine(f, "creator", products[6]!._id);
    const res = await f.as.creator("PUT", `/api/carts/${f.cartId}/lines/${line}/staple`, {
      staple: "yes",
    });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().fields ?? {})).toContain("staple");
  });
});
