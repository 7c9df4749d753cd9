/**
 * Session deadlines through the API, on PGlite and PostgreSQL,
 * with pg-boss's TestClock: the app's clock follows it and the queue's wake-ups wait for it, so a
 * test sets a deadline hours ahead and jumps there without sleeping. Setting, moving, clearing and
 * reopening (creator only, logged, live); bad input; the lock at the deadline to the millisecond
 * and writes racing it; reminders to exactly the members not done, once; the automatic checkout;
 * a deadline passed while no server ran. Two instances on one database: deadlines-two-instances.
 */
import { ActivityEntrySchema, type Activity } from "@cartner/contract";
import { count, eq, sql } from "drizzle-orm";
import { TestClock } from "pg-boss";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../src/app.ts";
import { deadlineReminders, orders, sessionDeadlines } from "../../src/db/schema.ts";
import {
  crew,
  drain,
  HOUR,
  keptMails,
  MINUTE,
  until,
  type DeadlineClient,
} from "../deadlines-support.ts";
import { createTestApp, testConfig, type TestApp } from "../helpers.ts";
import { listenForLive, settle, signedIn } from "../live-peers.ts";

let t: TestApp;
let clock: TestClock;
const mails = keptMails(() => t);

beforeAll(async () => {
  clock = new TestClock(Date.now());
  t = await createTestApp({ queueClock: clock, mailer: mails.mailer });
});
afterAll(async () => t.close());

const now = () => clock.now();
const iso = (ms: number) => new Date(ms).toISOString();

async function activity(as: DeadlineClient, sessionId: string): Promise<Activity[]> {
  const res = await as("GET", `/api/sessions/${sessionId}/activity?limit=200`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().events;
}
const ofType = (events: Activity[], type: string) => events.filter((e) => e.type === type);

/** How many orders the session's cart became. */
async function ordersPlaced(sessionId: string): Promise<number> {
  const [placed] = await t.database.db
    .select({ n: count() })
    .from(orders)
    .where(eq(orders.sessionId, sessionId));
  return placed!.n;
}

async function setDeadline(as: DeadlineClient, sessionId: string, body: unknown) {
  const res = await as("PUT", `/api/sessions/${sessionId}/deadline`, body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().session;
}

const remindersTo = (sessionName: string) =>
  mails.sent.filter((m) => m.subject.startsWith(`${sessionName}: the cart closes in`));

describe("setting a deadline", () => {
  it("sets, moves and clears it (creator only); each change is logged and heard live", async () => {
    const f = await crew(t);
    const base = await listenForLive(t);
    const ben = await signedIn(base, f.people.Ben.token);
    const closesAt = iso(now() + 26 * HOUR);

    // Anyone else is refused as the permissions table says.
    const body = { closesAt };
    expect((await f.as.Ben("PUT", `/api/sessions/${f.sessionId}/deadline`, body)).statusCode).toBe(
      403,
    );
    expect((await f.as.Vic("PUT", `/api/sessions/${f.sessionId}/deadline`, body)).statusCode).toBe(
      403,
    );
    expect((await f.as.Pat("PUT", `/api/sessions/${f.sessionId}/deadline`, body)).statusCode).toBe(
      404,
    );
    expect((await f.as.Sam("PUT", `/api/sessions/${f.sessionId}/deadline`, body)).statusCode).toBe(
      404,
    );
    expect((await f.as.Ben("POST", `/api/sessions/${f.sessionId}/reopen`, body)).statusCode).toBe(
      403,
    );

    const before = (await f.as.Ann("GET", `/api/sessions/${f.sessionId}`)).json().session;
    expect(before.deadline).toBeNull();
    const session = await setDeadline(f.as.Ann, f.sessionId, body);
    // The defaults: 24 h and 1 h before, checked out by hand.
    expect(session.deadline).toEqual({
      closesAt,
      remindAt: [1440, 60],
      autoCheckout: false,
      locked: false,
      remindersAhead: [1440, 60],
      remindedOnSetAt: null,
    });
    expect(session.version).toBe(before.version + 1);
    await ben.next((m) => m.type === "session.updated" && m.version === session.version);
    await ben.next((m) => m.type === "cart.updated" && m.version === session.version);
    // Every member reads it, on the session and on its cart.
    const seen = (await f.as.Vic("GET", `/api/sessions/${f.sessionId}`)).json().session;
    expect(seen.deadline.closesAt).toBe(closesAt);
    const cart = (await f.as.Ben("GET", `/api/carts/${f.cartId}`)).json().cart;
    expect(cart.sessionId.deadline).toEqual(session.deadline);

    // Moving it keeps what the move does not name; an offset is read as the instant it names.
    const later = new Date(now() + 30 * HOUR);
    const withOffset = `${iso(later.getTime() + 2 * HOUR).slice(0, 19)}+02:00`;
    const moved = await setDeadline(f.as.Ann, f.sessionId, {
      closesAt: withOffset,
      remindAt: [15, 2880, 15],
    });
    // The 48-hour reminder's time has gone: one reminder went at once, the 15-minute one is ahead.
    expect(moved.deadline).toEqual({
      closesAt: iso(Math.floor(later.getTime() / 1000) * 1000),
      remindAt: [2880, 15],
      autoCheckout: false,
      locked: false,
      remindersAhead: [15],
      remindedOnSetAt: expect.any(String),
    });
    const auto = await setDeadline(f.as.Ann, f.sessionId, {
      closesAt: withOffset,
      autoCheckout: true,
    });
    expect(auto.deadline.remindAt).toEqual([2880, 15]);
    expect(auto.deadline.autoCheckout).toBe(true);

    const cleared = await setDeadline(f.as.Ann, f.sessionId, null);
    expect(cleared.deadline).toBeNull();
    await ben.next((m) => m.type === "session.updated" && m.version === cleared.version);
    // Clearing again changes nothing.
    const again = await setDeadline(f.as.Ann, f.sessionId, null);
    expect(again.version).toBe(cleared.version);

    const log = await activity(f.as.Ben, f.sessionId);
    for (const e of log) ActivityEntrySchema.parse(e);
    expect(
      ofType(log, "deadline.set").map((e) => e.type === "deadline.set" && e.previousClosesAt),
    ).toEqual([null, closesAt, moved.deadline.closesAt]);
    expect(ofType(log, "deadline.cleared")).toHaveLength(1);
    expect(ofType(log, "deadline.set")[0]!.actor.name).toBe("Ann");
    ben.socket.close();
  });

  it("refuses bad input with 400 naming the field, and stores nothing", async () => {
    const f = await crew(t);
    const url = `/api/sessions/${f.sessionId}/deadline`;
    const future = iso(now() + 2 * HOUR);
    const cases: [unknown, string][] = [
      [{ closesAt: iso(now() - MINUTE) }, "closesAt"],
      [{ closesAt: iso(now()) }, "closesAt"],
      [{ closesAt: iso(now() + 400 * 24 * HOUR) }, "closesAt"],
      [{ closesAt: "tomorrow at six" }, "closesAt"],
      [{ closesAt: "2026-11-27T18:00" }, "closesAt"],
      [{ closesAt: 1795000000000 }, "closesAt"],
      [{}, "closesAt"],
      [{ closesAt: future, remindAt: [0] }, "remindAt.0"],
      [{ closesAt: future, remindAt: [60, 10081] }, "remindAt.1"],
      [{ closesAt: future, remindAt: [1.5] }, "remindAt.0"],
      [{ closesAt: future, remindAt: [1, 2, 3, 4, 5, 6] }, "remindAt"],
      [{ closesAt: future, remindAt: "60" }, "remindAt"],
      [{ closesAt: future, autoCheckout: "yes" }, "autoCheckout"],
      [{ closesAt: future, timeZone: "Europe/Vienna" }, "timeZone"],
    ];
    for (const [body, field] of cases) {
      const res = await f.as.Ann("PUT", url, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.keys(res.json().fields ?? {}), JSON.stringify(body)).toContain(field);
    }
    const reopen = await f.as.Ann("POST", `/api/sessions/${f.sessionId}/reopen`, {
      closesAt: future,
      remindAt: [60],
    });
    expect(reopen.statusCode).toBe(400);
    expect(Object.keys(reopen.json().fields)).toContain("remindAt");

    const [stored] = await t.database.db
      .select({ n: count() })
      .from(sessionDeadlines)
      .where(eq(sessionDeadlines.sessionId, f.sessionId));
    expect(stored!.n).toBe(0);
    expect(ofType(await activity(f.as.Ann, f.sessionId), "deadline.set")).toEqual([]);
  });
});

describe("the lock at the deadline", () => {
  it("lands at closesAt to the millisecond; the creator reopens it", async () => {
    const f = await crew(t);
    const [a, b] = f.products;
    const closesAt = now() + 10 * MINUTE;
    await setDeadline(f.as.Ann, f.sessionId, { closesAt: iso(closesAt), remindAt: [] });
    const add = (who: DeadlineClient) =>
      who("POST", `/api/carts/${f.cartId}/product`, { productId: b!._id });

    await clock.setTime(closesAt - 1);
    expect((await add(f.as.Ben)).statusCode).toBe(200);
    await clock.setTime(closesAt);
    // Before any job ran: the cart's SQL compares each write's own time with the deadline.
    const refused = await add(f.as.Ben);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: "CART_LOCKED",
      message: expect.stringMatching(/^The cart closed at \d\d:\d\d \(UTC\) on /),
    });
    const cart = `/api/carts/${f.cartId}`;
    const line = (await f.as.Ann("GET", cart)).json().cart.products[0];
    for (const [who, method, url, body] of [
      [f.as.Ann, "PATCH", `${cart}/quantity`, { productId: a!._id, change: 1 }],
      [f.as.Ann, "PATCH", `${cart}/quantity`, { productId: a!._id, change: -1 }],
      [f.as.Ben, "DELETE", `${cart}/product/${b!._id}`, undefined],
      [f.as.Ann, "DELETE", `${cart}/clear`, undefined],
      [
        f.as.Ann,
        "PUT",
        `${cart}/lines/${line._id}/shared-with`,
        { userIds: [f.people.Ann.userId, f.people.Ben.userId] },
      ],
    ] as const) {
      const res = await who(method, url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(409);
      expect(res.json().code).toBe("CART_LOCKED");
    }
    const session = (await f.as.Cat("GET", `/api/sessions/${f.sessionId}`)).json().session;
    expect(session.deadline.locked).toBe(true);
    expect((await f.as.Ben("GET", cart)).json().cart.sessionId.deadline.locked).toBe(true);

    // The job at closesAt writes the lock's entry once (as the creator's), and it goes live.
    await until(clock, async () => {
      expect(ofType(await activity(f.as.Ann, f.sessionId), "deadline.locked")).toHaveLength(1);
    });
    await drain(clock);
    const log = await activity(f.as.Ann, f.sessionId);
    const locked = ofType(log, "deadline.locked");
    expect(locked).toHaveLength(1);
    expect(locked[0]).toMatchObject({
      actor: { name: "Ann" },
      closesAt: iso(closesAt),
      autoCheckout: false,
    });
    // A write sent a moment before the deadline that reaches the cart after the lock's entry is
    // refused too (cart_write() with its own time, as a batch would run it), so none follows it.
    const [late] = await t.database.rows<{ verdict: string }>(
      sql`select verdict from cart_write('add', ${f.cartId}::uuid, ${f.people.Ben.userId}::uuid,
        ${b!._id}::uuid, null, 1, null, null, 99, ${iso(closesAt - 1000)}::timestamptz)`,
    );
    expect(late!.verdict).toBe("locked");
    // No order: the creator checks out by hand (or reopens).
    expect(await ordersPlaced(f.sessionId)).toBe(0);

    // Reopen: only a closed cart, only to a future time; then writes land again.
    const url = `/api/sessions/${f.sessionId}/reopen`;
    expect((await f.as.Ann("POST", url, { closesAt: iso(now() - 1000) })).statusCode).toBe(400);
    const reopenAt = iso(now() + HOUR);
    const reopened = await f.as.Ann("POST", url, { closesAt: reopenAt });
    expect(reopened.statusCode, reopened.body).toBe(200);
    expect(reopened.json().session.deadline).toMatchObject({ closesAt: reopenAt, locked: false });
    expect((await add(f.as.Ben)).statusCode).toBe(200);
    const notClosed = await f.as.Ann("POST", url, { closesAt: iso(now() + 2 * HOUR) });
    expect(notClosed.statusCode).toBe(409);
    expect(ofType(await activity(f.as.Ann, f.sessionId), "deadline.reopened")).toMatchObject([
      { closesAt: reopenAt, previousClosesAt: iso(closesAt) },
    ]);
  });

  it("lets a write racing the lock land before it or refuses it, never after", async () => {
    const f = await crew(t);
    const product = f.products[2]!;
    const closesAt = now() + 5 * MINUTE;
    await setDeadline(f.as.Ann, f.sessionId, { closesAt: iso(closesAt), remindAt: [] });
    // Writes go out one after another while the clock runs across the deadline in 40 ms steps;
    // the lock's job runs at its next poll, among writes still on their way.
    await clock.setTime(closesAt - 1200);
    const writers = [f.as.Ann, f.as.Ben, f.as.Cat];
    const writes = [];
    for (let i = 0; i < 60; i++) {
      writes.push(
        writers[i % 3]!("POST", `/api/carts/${f.cartId}/product`, { productId: product._id }),
      );
      await clock.tick(40);
    }
    const answers = await Promise.all(writes);
    await until(clock, async () => {
      expect(ofType(await activity(f.as.Ann, f.sessionId), "deadline.locked")).toHaveLength(1);
    });
    const landed = answers.filter((a) => a.statusCode === 200);
    const refused = answers.filter((a) => a.statusCode !== 200);
    expect(landed.length).toBeGreaterThan(0);
    expect(refused.length).toBeGreaterThan(0);
    for (const a of refused) expect(a.json().code, a.body).toBe("CART_LOCKED");
    const log = await activity(f.as.Ann, f.sessionId);
    const lockSeq = ofType(log, "deadline.locked")[0]!.seq;
    const added = log.filter((e) => e.type === "item.added" && e.productId === product._id);
    expect(added).toHaveLength(landed.length);
    for (const e of added) expect(e.seq).toBeLessThan(lockSeq);
    expect(log.filter((e) => e.seq > lockSeq && e.type.startsWith("item."))).toEqual([]);
    const cart = (await f.as.Ann("GET", `/api/carts/${f.cartId}`)).json().cart;
    const quantity = cart.products
      .filter((l: { productId: { _id: string } }) => l.productId._id === product._id)
      .reduce((sum: number, l: { quantity: number }) => sum + l.quantity, 0);
    expect(quantity).toBe(landed.length);
  });
});

describe("reminders", () => {
  it("go to exactly the members not done, once each, and again after a move", async () => {
    const f = await crew(t);
    const name = "Friday shop";
    const sent = () => remindersTo(name).filter((m) => m.text.includes(f.sessionId));
    const to = () =>
      sent()
        .map((m) => m.to)
        .sort();
    // Ben is done; Ann and Cat are not. Vic views, Pat waits, Dan left, Eve was removed.
    expect(
      (await f.as.Ben("PUT", `/api/sessions/${f.sessionId}/ready`, { ready: true })).statusCode,
    ).toBe(200);
    const closesAt = now() + 3 * HOUR;
    await setDeadline(f.as.Ann, f.sessionId, { closesAt: iso(closesAt), remindAt: [60, 15] });

    await clock.setTime(closesAt - 60 * MINUTE - 1000);
    await drain(clock, 2);
    expect(sent()).toEqual([]);
    await until(clock, () => {
      expect(to()).toEqual([f.people.Ann.email, f.people.Cat.email].sort());
    });
    await drain(clock);
    expect(sent()).toHaveLength(2);
    const ann = sent().find((m) => m.to === f.people.Ann.email)!;
    const annShare = (await f.as.Ann("GET", `/api/carts/${f.cartId}`))
      .json()
      .cart.split.find((s: { userId: string }) => s.userId === f.people.Ann.userId).total;
    expect(ann.text).toContain("closes in 1 hour, at");
    expect(ann.text).toContain(`Your share so far: $${annShare.toFixed(2)}`);
    expect(ann.text).toContain(`/cart/${f.sessionId}`);
    expect(sent().find((m) => m.to === f.people.Cat.email)!.text).toContain(
      "Your share so far: $0.00",
    );
    // The same reminder is in Ann's notifications, linking the cart; Ben (done) has none.
    const reminders = async (as: DeadlineClient) =>
      (await as("GET", "/api/notifications"))
        .json()
        .notifications.filter((n: { kind: string }) => n.kind === "reminder");
    expect(await reminders(f.as.Ann)).toMatchObject([
      { title: `${name}: the cart closes in 1 hour`, url: `/cart/${f.sessionId}`, readAt: null },
    ]);
    expect(await reminders(f.as.Ben)).toEqual([]);

    // Cat marks herself done: the 15-minute reminder goes to Ann alone.
    expect(
      (await f.as.Cat("PUT", `/api/sessions/${f.sessionId}/ready`, { ready: true })).statusCode,
    ).toBe(200);
    await clock.setTime(closesAt - 15 * MINUTE);
    await until(clock, () => expect(sent()).toHaveLength(3));
    await drain(clock);
    expect(sent().at(-1)!.to).toBe(f.people.Ann.email);
    expect(sent().at(-1)!.subject).toBe(`${name}: the cart closes in 15 minutes`);
    const rows = await t.database.db
      .select()
      .from(deadlineReminders)
      .where(eq(deadlineReminders.sessionId, f.sessionId));
    expect(rows.map((r) => [r.minutesBefore, r.sent, r.recipients]).sort()).toEqual([
      [15, true, 1],
      [60, true, 2],
    ]);

    // Moving the deadline starts its reminders over.
    const movedTo = now() + 2 * HOUR;
    await setDeadline(f.as.Ann, f.sessionId, { closesAt: iso(movedTo) });
    await clock.setTime(movedTo - 60 * MINUTE);
    await until(clock, () => expect(sent()).toHaveLength(4));
    await drain(clock);
    expect(sent()).toHaveLength(4);
    expect(sent().at(-1)!.to).toBe(f.people.Ann.email);
  });

  it("sends one reminder at once when reminders' times have gone as the deadline is set or moved, and says which are still to come", async () => {
    const f = await crew(t);
    const sent = () => remindersTo("Friday shop").filter((m) => m.text.includes(f.sessionId));
    const notDone = [f.people.Ann.email, f.people.Ben.email, f.people.Cat.email].sort();
    const recipients = (list: typeof mails.sent) => list.map((m) => m.to).sort();

    // Six minutes ahead with the 15-minute reminder: it goes now, saying how long is really left.
    const soon = now() + 6 * MINUTE;
    const set = await setDeadline(f.as.Ann, f.sessionId, {
      closesAt: iso(soon),
      remindAt: [15],
    });
    expect(set.deadline).toMatchObject({ remindersAhead: [], remindedOnSetAt: iso(now()) });
    await until(clock, () => expect(recipients(sent())).toEqual(notDone));
    await drain(clock);
    expect(recipients(sent())).toEqual(notDone);
    for (const m of sent()) expect(m.subject).toBe("Friday shop: the cart closes in 6 minutes");

    // Moved two hours ahead with three reminders, the 24-hour one already gone: one reminder
    // (never one per reminder passed), and the two still to come are said.
    const closesAt = now() + 2 * HOUR;
    const moved = await setDeadline(f.as.Ann, f.sessionId, {
      closesAt: iso(closesAt),
      remindAt: [1440, 2880, 60, 30],
    });
    expect(moved.deadline).toMatchObject({
      remindAt: [2880, 1440, 60, 30],
      remindersAhead: [60, 30],
      remindedOnSetAt: iso(now()),
    });
    await until(clock, () => expect(sent()).toHaveLength(6));
    await drain(clock);
    expect(sent()).toHaveLength(6);
    for (const m of sent().slice(3)) {
      expect(m.subject).toBe("Friday shop: the cart closes in 2 hours");
    }
    const read = (await f.as.Ben("GET", `/api/sessions/${f.sessionId}`)).json().session;
    expect(read.deadline).toMatchObject({ remindersAhead: [60, 30] });

    // No worker ran at the 60-minute mark (the clock jumps past it): only one goes, the nearest.
    await clock.setTime(closesAt - 20 * MINUTE);
    await until(clock, () => expect(sent()).toHaveLength(9));
    await drain(clock);
    expect(sent()).toHaveLength(9);
    for (const m of sent().slice(6)) {
      expect(m.subject).toBe("Friday shop: the cart closes in 20 minutes");
    }
    const ahead = (await f.as.Ann("GET", `/api/sessions/${f.sessionId}`)).json().session;
    expect(ahead.deadline).toMatchObject({ remindersAhead: [] });

    // A move with every reminder still ahead sends nothing now and says so.
    const later = await setDeadline(f.as.Ann, f.sessionId, {
      closesAt: iso(now() + 5 * HOUR),
      remindAt: [60],
    });
    expect(later.deadline).toMatchObject({ remindersAhead: [60], remindedOnSetAt: null });
    await drain(clock);
    expect(sent()).toHaveLength(9);
  });
});

describe("automatic checkout", () => {
  it("places the creator's order at the deadline, once", async () => {
    const f = await crew(t);
    const closesAt = now() + 30 * MINUTE;
    await setDeadline(f.as.Ann, f.sessionId, {
      closesAt: iso(closesAt),
      remindAt: [],
      autoCheckout: true,
    });
    await clock.setTime(closesAt);
    await until(clock, async () => {
      expect(await ordersPlaced(f.sessionId)).toBe(1);
    });
    await drain(clock);
    const mine = (await f.as.Ben("GET", "/api/orders")).json().orders;
    const order = mine.find((o: { sessionId: string }) => o.sessionId === f.sessionId);
    expect(order.placedBy.name).toBe("Ann");
    const log = await activity(f.as.Ann, f.sessionId);
    for (const e of log) ActivityEntrySchema.parse(e);
    const types = log.map((e) => e.type);
    expect(types.filter((type) => type === "deadline.locked" || type === "order.placed")).toEqual([
      "deadline.locked",
      "order.placed",
    ]);
    expect(ofType(log, "order.placed")).toMatchObject([
      { automatic: true, actor: { name: "Ann" } },
    ]);
    expect((await f.as.Ann("GET", `/api/sessions/${f.sessionId}`)).json().session.status).toBe(
      "ended",
    );
  });

  it("skips an empty cart, once, and leaves it closed for the creator", async () => {
    const f = await crew(t);
    expect((await f.as.Ann("DELETE", `/api/carts/${f.cartId}/clear`)).statusCode).toBe(200);
    const closesAt = now() + 30 * MINUTE;
    await setDeadline(f.as.Ann, f.sessionId, {
      closesAt: iso(closesAt),
      remindAt: [],
      autoCheckout: true,
    });
    await clock.setTime(closesAt + 1000);
    await until(clock, async () => {
      expect(
        ofType(await activity(f.as.Ann, f.sessionId), "deadline.checkout_skipped"),
      ).toHaveLength(1);
    });
    await drain(clock);
    const log = await activity(f.as.Ann, f.sessionId);
    expect(ofType(log, "deadline.checkout_skipped")).toHaveLength(1);
    expect(ofType(log, "deadline.locked")).toHaveLength(1);
    const session = (await f.as.Ann("GET", `/api/sessions/${f.sessionId}`)).json().session;
    expect(session.status).toBe("active");
    expect(session.deadline.locked).toBe(true);
  });

  it("checks out a cart holding a private line (for the creator), keeping the line private", async () => {
    const f = await crew(t);
    const cart = (await f.as.Ann("GET", `/api/carts/${f.cartId}`)).json().cart as {
      products: { _id: string; addedBy: { name: string }; productId: { name: string } }[];
    };
    const anns = cart.products.find((l) => l.addedBy.name === "Ann")!;
    const hidden = await f.as.Ann("PUT", `/api/carts/${f.cartId}/lines/${anns._id}/hidden-from`, {
      userIds: [f.people.Ben.userId],
    });
    expect(hidden.statusCode, hidden.body).toBe(200);
    const closesAt = now() + 30 * MINUTE;
    await setDeadline(f.as.Ann, f.sessionId, {
      closesAt: iso(closesAt),
      remindAt: [],
      autoCheckout: true,
    });
    await clock.setTime(closesAt + 1000);
    await until(clock, async () => {
      expect(await ordersPlaced(f.sessionId)).toBe(1);
    });
    await drain(clock);
    const log = await activity(f.as.Ann, f.sessionId);
    expect(ofType(log, "deadline.checkout_skipped")).toEqual([]);
    expect(ofType(log, "order.placed")).toMatchObject([{ automatic: true }]);
    const mine = (await f.as.Ben("GET", "/api/orders")).json().orders as {
      sessionId: string;
      privateCount: number;
      lines: { name: string }[];
    }[];
    const order = mine.find((o) => o.sessionId === f.sessionId)!;
    expect(order.privateCount).toBe(1);
    expect(order.lines.map((l) => l.name)).not.toContain(anns.productId.name);
  });

  it("does not check out a cart reopened or moved before its job ran", async () => {
    const f = await crew(t);
    const closesAt = now() + 30 * MINUTE;
    await setDeadline(f.as.Ann, f.sessionId, {
      closesAt: iso(closesAt),
      remindAt: [],
      autoCheckout: true,
    });
    // Moved a minute before: the job at the old time finds nothing due.
    await clock.setTime(closesAt - MINUTE);
    await setDeadline(f.as.Ann, f.sessionId, { closesAt: iso(closesAt + HOUR) });
    await clock.setTime(closesAt + 1000);
    await drain(clock);
    const log = await activity(f.as.Ann, f.sessionId);
    expect(ofType(log, "deadline.locked")).toEqual([]);
    expect(ofType(log, "order.placed")).toEqual([]);
  });
});

describe("a deadline that passed while no server ran", () => {
  it("locks and checks out on the next start, once", async () => {
    const f = await crew(t);
    const closesAt = now() + 10 * MINUTE;
    await setDeadline(f.as.Ann, f.sessionId, {
      closesAt: iso(closesAt),
      remindAt: [],
      autoCheckout: true,
    });
    // Its jobs are lost (as if the deadline came from an older release), and the time passes.
    await t.database.db.execute(
      sql`delete from jobs.job where name = 'deadline.due' and data->>'sessionId' = ${f.sessionId}`,
    );
    await clock.setTime(closesAt + HOUR);
    await drain(clock);
    expect(ofType(await activity(f.as.Ann, f.sessionId), "deadline.locked")).toEqual([]);

    // A second app on the same database starts: its sweep finds the deadline.
    const second = await buildApp(testConfig(), {
      database: { ...t.database, close: async () => {} },
      queueClock: clock,
      mailer: mails.mailer,
    });
    await second.ready();
    try {
      await until(clock, async () => {
        expect(await ordersPlaced(f.sessionId)).toBe(1);
      });
      await drain(clock);
      const log = await activity(f.as.Ann, f.sessionId);
      expect(ofType(log, "deadline.locked")).toHaveLength(1);
      expect(ofType(log, "order.placed")).toHaveLength(1);
    } finally {
      await second.close();
    }
    await settle();
  });
});
