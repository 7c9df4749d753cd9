/**
 * Mail that reaches people away from the app, received by a real SMTP server (smtp-server in this
 * process), on PGlite and PostgreSQL: the checkout mail with the member's own share and a link
 * into the app, retried with backoff after the mail server refused it; a deadline's reminder with
 * the member's share so far; and the digest of changes by others, at most one an hour per session.
 * Time moves with pg-boss's TestClock.
 */
import crypto from "node:crypto";
import { and, eq } from "drizzle-orm";
import { TestClock } from "pg-boss";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { orderShares } from "../../src/db/schema.ts";
import { createDevOutbox, createSmtpMailer } from "../../src/features/mail/mailer.ts";
import type { Notification } from "../../src/features/push/index.ts";
import { createTestApp, filledSession as filledSessionOf, type TestApp } from "../helpers.ts";
import { MailSink, subjectOf, textOf } from "../mail-sink.ts";

const PUBLIC_URL = "https://cartner.example";
const MINUTE = 60_000;
const sink = new MailSink();
let t: TestApp;
let clock: TestClock;

beforeAll(async () => {
  await sink.start();
  clock = new TestClock(Date.now());
  // Every mail goes over SMTP to the sink; a copy also lands in the dev outbox, where signUp()
  // reads its sign-up code.
  const smtp = createSmtpMailer(`smtp://127.0.0.1:${sink.port}`, "Cartner <no-reply@cartner.test>");
  const silent = { info: () => {} } as unknown as Parameters<typeof createDevOutbox>[1];
  t = await createTestApp({
    queueClock: clock,
    env: { PUBLIC_URL },
    mailer: {
      async send(mail) {
        await smtp.send(mail);
        await createDevOutbox(t.database.db, silent).send(mail);
      },
      close: () => smtp.close(),
    },
  });
});
afterAll(async () => {
  await t?.close();
  await sink.stop();
});

const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
/** What this address received, less its sign-up code. */
const mailsTo = (email: string) =>
  sink.received.filter((m) => m.to.includes(email) && !textOf(m.raw).includes("Your code:"));

/** Lets the queue's time pass: jobs now due run, and this waits for them. */
async function passTime(ms: number) {
  await clock.setTime(clock.now() + ms);
  await t.app.idle();
}

/** Ann's session with Ben (participant) and a line each in its cart. */
const filledSession = () => filledSessionOf(t);

type Fixture = Awaited<ReturnType<typeof filledSession>>;
const toBen = (f: Fixture) => ({
  id: f.people.participant.userId,
  name: "Ben",
  email: f.people.participant.email,
});
function change(f: Fixture, title: string, body = ""): Notification {
  return {
    _id: crypto.randomUUID(),
    kind: "changes",
    sessionId: f.sessionId,
    title,
    body,
    url: `/cart/${f.sessionId}`,
    createdAt: new Date(clock.now()).toISOString(),
    readAt: null,
    approval: null,
  };
}

describe("the checkout mail", () => {
  it("reaches each sharer with their own share and the order's link", async () => {
    const f = await filledSession();
    const res = await f.as.creator("POST", `/api/sessions/${f.sessionId}/checkout`);
    expect(res.statusCode, res.body).toBe(201);
    const { order } = res.json();
    await t.app.idle();

    const ben = order.split.find((s: { name: string }) => s.name === "Ben");
    const [mail, ...more] = mailsTo(f.people.participant.email);
    expect(more).toEqual([]);
    expect(subjectOf(mail!.raw)).toBe(`Your share of ${order.number}: Weekend groceries`);
    const text = textOf(mail!.raw);
    expect(text).toContain(`Your share: ${usd.format(ben.total)}`);
    expect(text).toContain("Pay Ann your share");
    // The link opens the order in the app, and that order is Ben's to read.
    const link = /The order and its receipt: (\S+)/.exec(text)?.[1];
    expect(link).toBe(`${PUBLIC_URL}/orders/${order._id}`);
    const read = await f.as.participant(
      "GET",
      `/api/orders/${new URL(link!).pathname.split("/")[2]}`,
    );
    expect(read.statusCode).toBe(200);
    expect(mailsTo(f.people.creator.email)).toHaveLength(1);
    expect(
      (await f.as.creator("GET", `/api/orders/${order._id}`))
        .json()
        .order.split.map((s: { mail: string }) => s.mail),
    ).toEqual(["sent", "sent"]);
  });

  it("is retried with backoff after the mail server refused it: the payee sees it failed, then sent", async () => {
    const f = await filledSession();
    sink.refuseOnce.add(f.people.participant.email);
    const { order } = (await f.as.creator("POST", `/api/sessions/${f.sessionId}/checkout`)).json();
    await t.app.idle();
    const mailOf = async () =>
      (
        await t.database.db
          .select({ mail: orderShares.mail })
          .from(orderShares)
          .where(
            and(
              eq(orderShares.orderId, order._id),
              eq(orderShares.userId, f.people.participant.userId),
            ),
          )
      )[0]?.mail;
    expect(await mailOf()).toBe("failed");
    expect(mailsTo(f.people.participant.email)).toEqual([]);

    // Not before its backoff (the first retry comes 30 to 60 s later)...
    await passTime(25_000);
    expect(await mailOf()).toBe("failed");
    // ...then it goes, once.
    await passTime(36_000);
    expect(await mailOf()).toBe("sent");
    expect(mailsTo(f.people.participant.email)).toHaveLength(1);
    expect(textOf(mailsTo(f.people.participant.email)[0]!.raw)).toContain(
      `${PUBLIC_URL}/orders/${order._id}`,
    );
  });
});

describe("notices", () => {
  it("a deadline's reminder comes with the member's share so far and a link to the cart", async () => {
    const f = await filledSession();
    const closesAt = new Date(clock.now() + 3 * 60 * MINUTE).toISOString();
    const set = await f.as.creator("PUT", `/api/sessions/${f.sessionId}/deadline`, {
      closesAt,
      remindAt: [60],
    });
    expect(set.statusCode, set.body).toBe(200);
    const summary = (await f.as.participant("GET", `/api/sessions/${f.sessionId}/summary`)).json();
    const benShare = summary.split.find(
      (s: { userId: string }) => s.userId === f.people.participant.userId,
    );
    await passTime(2 * 60 * MINUTE);
    await passTime(MINUTE);
    const [mail] = mailsTo(f.people.participant.email);
    expect(subjectOf(mail!.raw)).toBe("Weekend groceries: the cart closes in 1 hour");
    const text = textOf(mail!.raw);
    expect(text).toContain("The cart closes in 1 hour, at");
    expect(text).toContain(`Your share so far: ${usd.format(benShare.total)}`);
    expect(text).toContain(`Open the cart: ${PUBLIC_URL}/cart/${f.sessionId}`);
  });
});

describe("the digest of changes", () => {
  it("holds every change of an hour in one mail per session, never more than one an hour", async () => {
    const f = await filledSession();
    const ben = toBen(f);
    const other = await filledSession();
    const deliver = (n: Notification, user = ben) =>
      t.app.channels.email.deliver({ user, notification: n });

    await deliver(change(f, "Ann added 2 × Apples"));
    await passTime(10 * MINUTE);
    await deliver(change(f, "Ann changed the budget", "From $150 to $120"));
    await passTime(20 * MINUTE);
    await deliver(change(f, "Vic joined"));
    // Ben is in the other session too: its changes have a digest of their own.
    await deliver(change(other, "Ann removed Bread"), toBen(other));
    await passTime(29 * MINUTE);
    expect(mailsTo(ben.email)).toEqual([]);

    // An hour after the first change: one mail, all three changes, in order.
    await passTime(2 * MINUTE);
    const [digest, ...rest] = mailsTo(ben.email);
    expect(rest).toEqual([]);
    expect(subjectOf(digest!.raw)).toBe("3 changes in Weekend groceries");
    const text = textOf(digest!.raw);
    const lines = text.split("\n").filter((line) => line.startsWith("- "));
    expect(lines).toEqual([
      "- Ann added 2 × Apples",
      "- Ann changed the budget: From $150 to $120",
      "- Vic joined",
    ]);
    expect(text).toMatch(/Your share so far: \$[\d,.]+/);
    expect(text).toContain(`Open the cart: ${PUBLIC_URL}/cart/${f.sessionId}`);

    // A change right after the digest waits for the next hour.
    await deliver(change(f, "Ann added Milk"));
    await passTime(30 * MINUTE);
    expect(mailsTo(ben.email)).toHaveLength(1);
    // The other session's digest went at its own hour, to the other session's Ben.
    expect(mailsTo(toBen(other).email)).toHaveLength(1);
    await passTime(31 * MINUTE);
    const mails = mailsTo(ben.email);
    expect(mails).toHaveLength(2);
    expect(subjectOf(mails[1]!.raw)).toBe("1 change in Weekend groceries");
    expect(textOf(mails[1]!.raw)).toContain("- Ann added Milk");

    // Nothing more waits: no third mail.
    await passTime(2 * 60 * MINUTE);
    expect(mailsTo(ben.email)).toHaveLength(2);
  });
});
