/**
 * Quiet hours hold every push and mail the server sends on its own until they end, on PGlite and
 * PostgreSQL, with pg-boss's TestClock (the app's clock follows it, and the queue's jobs wait for
 * it): the checkout mail of an automatic checkout inside Ben's quiet hours, its push, a notice,
 * an invite to his account; a reminder held past its deadline is not sent at all; what Ben asked
 * for that moment (a sign-in code) is never held, and the app's own list never is.
 */
import { TestClock } from "pg-boss";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { crew, drain, keptMails, MINUTE, until } from "../deadlines-support.ts";
import { createTestApp, latestCode, PASSWORD, type TestApp } from "../helpers.ts";
import { startPushService } from "../push-service.ts";

/** Thursday 10 December 2026, 20:55 in Berlin (CET, UTC+1). */
const START = Date.parse("2026-12-10T19:55:00Z");
/** Ben's quiet hours there, 21:00 to 23:30, end at 22:30Z. */
const QUIET = { from: "21:00", to: "23:30", timeZone: "Europe/Berlin" };
const QUIET_ENDS = Date.parse("2026-12-10T22:30:00Z");
/** The clock only moves forward (pg-boss's timers stay where a backward jump leaves them). */
const DAY = 24 * 60 * MINUTE;

let t: TestApp;
let clock: TestClock;
let push: Awaited<ReturnType<typeof startPushService>>;
const mails = keptMails(() => t);

beforeAll(async () => {
  push = await startPushService();
  clock = new TestClock(START);
  t = await createTestApp({
    queueClock: clock,
    mailer: mails.mailer,
    env: { PUSH_SERVICE_ORIGINS: push.origin },
  });
});
afterAll(async () => {
  await t?.close();
  await push?.close();
});

/**
 * Moves the clock to `ms` once no job is running: a job held across a jump of hours would look
 * expired to the queue and run a second time.
 */
async function jump(ms: number) {
  await t.app.idle();
  await clock.setTime(ms);
}

const iso = (ms: number) => new Date(ms).toISOString();
const to = (email: string) => mails.sent.filter((m) => m.to === email);

type Crew = Awaited<ReturnType<typeof crew>>;

/** Ben keeps quiet hours (every kind by push and mail) and has a phone that takes pushes. */
async function benIsQuiet(f: Crew) {
  const every = { inApp: true, push: true, email: true };
  const prefs = await f.as.Ben("PUT", "/api/users/me/notification-preferences", {
    kinds: { changes: every, reminder: every, checkout: every, payment: every, membership: every },
    quietHours: QUIET,
  });
  expect(prefs.statusCode, prefs.body).toBe(200);
  const { publicKey } = (await t.app.inject({ method: "GET", url: "/api/push/public-key" })).json();
  const phone = await push.subscribe(publicKey);
  const { clientHash: _hash, ...json } = phone;
  expect((await f.as.Ben("POST", "/api/push/subscriptions", json)).statusCode).toBe(201);
  return phone;
}

describe("quiet hours", () => {
  it("hold the checkout mail and push of an automatic checkout until they end, then send exactly one", async () => {
    const f = await crew(t);
    const phone = await benIsQuiet(f);
    // The cart checks itself out at 21:25 in Berlin, inside Ben's quiet hours.
    const closesAt = Date.parse("2026-12-10T20:25:00Z");
    const set = await f.as.Ann("PUT", `/api/sessions/${f.sessionId}/deadline`, {
      closesAt: iso(closesAt),
      remindAt: [],
      autoCheckout: true,
    });
    expect(set.statusCode, set.body).toBe(200);
    const checkoutMails = (email: string) =>
      to(email).filter((m) => m.subject.startsWith("Your share of CRT-"));

    await jump(closesAt);
    await until(clock, () => expect(checkoutMails(f.people.Ann.email)).toHaveLength(1));
    await drain(clock);
    // Ann keeps no quiet hours: hers went. Ben's waits; the app's list tells him at once.
    expect(checkoutMails(f.people.Ben.email)).toEqual([]);
    expect(push.messages(phone)).toEqual([]);
    const bell = (await f.as.Ben("GET", "/api/notifications")).json().notifications;
    expect(bell.filter((n: { kind: string }) => n.kind === "checkout")).toHaveLength(1);
    const order = (await f.as.Ben("GET", "/api/orders")).json().orders[0];
    expect(order.split.find((s: { name: string }) => s.name === "Ben").mail).toBe("pending");

    // A moment before 23:30 in Berlin: still nothing.
    await jump(QUIET_ENDS - 10_000);
    await drain(clock);
    expect(checkoutMails(f.people.Ben.email)).toEqual([]);
    expect(push.messages(phone)).toEqual([]);

    // At 23:30 the held mail and push go, once each.
    await jump(QUIET_ENDS);
    await until(clock, () => {
      expect(checkoutMails(f.people.Ben.email)).toHaveLength(1);
      expect(push.messages(phone)).toHaveLength(1);
    });
    await drain(clock);
    expect(checkoutMails(f.people.Ben.email)).toHaveLength(1);
    expect(push.messages(phone)).toHaveLength(1);
    expect(JSON.parse(push.messages(phone)[0]!)).toMatchObject({ url: `/orders/${order._id}` });
  });

  it("hold notices and invites to an account, never a sign-in code; a reminder held past its deadline is not sent", async () => {
    // The next evening.
    const start = START + DAY;
    const quietEnds = QUIET_ENDS + DAY;
    await jump(start);
    const f = await crew(t);
    const phone = await benIsQuiet(f);
    // 21:10 in Berlin: quiet for Ben.
    await jump(start + 15 * MINUTE);

    // A deadline at 21:30 whose 15-minute reminder is due at once: the bell has it now, and its
    // push and mail wait for 23:30, by when the cart has closed: they are not sent at all.
    const closesAt = start + 35 * MINUTE;
    const set = await f.as.Ann("PUT", `/api/sessions/${f.sessionId}/deadline`, {
      closesAt: iso(closesAt),
      remindAt: [30],
    });
    expect(set.json().session.deadline, set.body).toMatchObject({
      remindedOnSetAt: iso(clock.now()),
    });
    // Sam gets an invite from Ann to a session of hers: Sam has no quiet hours.
    const invited = await f.as.Ann("POST", "/api/sessions/invite", {
      sessionCode: f.code,
      emailOrUsername: f.people.Sam.email,
      role: "viewer",
    });
    expect(invited.statusCode, invited.body).toBe(201);
    // Ben signs in: his code is what he asked for now, never held.
    const login = await t.app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { email: f.people.Ben.email, password: PASSWORD },
    });
    expect(login.statusCode, login.body).toBe(200);
    expect(await latestCode(t.database, f.people.Ben.email)).toMatch(/^\d{6}$/);

    await until(clock, async () => {
      const bell = (await f.as.Ben("GET", "/api/notifications")).json().notifications;
      expect(bell.filter((n: { kind: string }) => n.kind === "reminder")).toHaveLength(1);
      expect(to(f.people.Sam.email).filter((m) => m.subject.includes("invited you"))).toHaveLength(
        1,
      );
    });
    await drain(clock);
    const benMails = () => to(f.people.Ben.email).filter((m) => !m.text.includes("Your code"));
    expect(benMails()).toEqual([]);
    expect(push.messages(phone)).toEqual([]);

    // An invite of Ben to another session of Ann's: its mail waits too.
    const other = await f.as.Ann("POST", "/api/sessions", {
      sessionName: "Saturday market",
      sessionType: "Friends",
      participants: "3+",
    });
    const invite = await f.as.Ann("POST", "/api/sessions/invite", {
      sessionCode: other.json().session.sessionCode,
      emailOrUsername: f.people.Ben.email,
      role: "participant",
    });
    expect(invite.statusCode, invite.body).toBe(201);
    await drain(clock);
    expect(benMails()).toEqual([]);

    // 23:30: the invite's mail and its notice go, by mail and push; the reminder, whose
    // deadline passed at 21:30, not.
    await jump(quietEnds);
    await until(clock, () => expect(benMails()).toHaveLength(2));
    await drain(clock);
    expect(
      benMails()
        .map((m) => m.subject)
        .sort(),
    ).toEqual(["Ann invited you to “Saturday market” on Cartner", "You're invited"]);
    const pushed = push.messages(phone).map((m) => JSON.parse(m) as { title: string });
    expect(pushed.map((m) => m.title)).toEqual(["You're invited"]);
  });
});
