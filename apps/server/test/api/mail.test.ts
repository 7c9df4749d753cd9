import net from "node:net";
import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { otpCodes, users } from "../../src/db/schema.ts";
import { createTestApp, PASSWORD, uniqueEmail, type TestApp } from "../helpers.ts";
import { MailSink } from "../mail-sink.ts";

let t: TestApp;
beforeAll(async () => {
  // A port nothing listens on: the SMTP server is down.
  const probe = net.createServer();
  await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
  const port = (probe.address() as net.AddressInfo).port;
  await new Promise((r) => probe.close(r));
  t = await createTestApp({ env: { SMTP_URL: `smtp://127.0.0.1:${port}` } });
});
afterAll(async () => t.close());

it("says clearly that the code could not be sent, and lets the user try again at once", async () => {
  const email = uniqueEmail("smtp");
  const first = await t.app.inject({
    method: "POST",
    url: "/api/auth/register",
    payload: { name: "Ann", email, password: PASSWORD },
  });
  expect(first.statusCode).toBe(503);
  expect(first.json()).toMatchObject({
    code: "MAIL_FAILED",
    message: expect.stringMatching(/could not send/),
  });
  const [user] = await t.database.db.select().from(users).where(eq(users.email, email));
  const [codes] = await t.database.db
    .select({ n: count() })
    .from(otpCodes)
    .where(eq(otpCodes.userId, user!.id));
  expect(codes!.n).toBe(0);

  // No 60 s wait was started by the failed send: retrying reaches the mail server again.
  const retry = await t.app.inject({
    method: "POST",
    url: "/api/auth/register",
    payload: { name: "Ann", email, password: PASSWORD },
  });
  expect(retry.statusCode).toBe(503);
});

it("has no dev mailbox when SMTP is configured", async () => {
  expect((await t.app.inject({ method: "GET", url: "/dev/mailbox" })).statusCode).toBe(404);
});

it("has no dev mailbox in production", async () => {
  const prod = await createTestApp({
    env: { NODE_ENV: "production", JWT_SECRET: "p".repeat(40), SMTP_URL: "smtp://127.0.0.1:1" },
  });
  expect((await prod.app.inject({ method: "GET", url: "/dev/mailbox" })).statusCode).toBe(404);
  await prod.close();
});

describe("a mail server that goes down and comes back", () => {
  let app: TestApp;
  const sink = new MailSink();
  beforeAll(async () => {
    await sink.start();
    app = await createTestApp({ env: { SMTP_URL: `smtp://127.0.0.1:${sink.port}` } });
  });
  afterAll(async () => {
    await app?.close();
    await sink.stop();
  });

  const post = (url: string, payload: object) =>
    app.app.inject({ method: "POST", url: `/api/auth${url}`, payload });
  const mailFailed = {
    code: "MAIL_FAILED",
    message: expect.stringMatching(/could not send your code/),
    requestId: expect.any(String),
  };

  it("answers 503 MAIL_FAILED to register, login and resend while it is down, then delivers again", async () => {
    // While it is up: a verified account (to sign in later) and a register whose code went out.
    const known = uniqueEmail("known");
    const first = await post("/register", { name: "Kim", email: known, password: PASSWORD });
    expect(first.statusCode).toBe(201);
    const kimCode = sink.codeFor(known);
    expect(kimCode).toMatch(/^\d{6}$/);
    expect(
      (await post("/verify-otp", { userId: first.json().userId, code: kimCode })).statusCode,
    ).toBe(200);
    const waiting = uniqueEmail("waiting");
    const pending = await post("/register", { name: "Wes", email: waiting, password: PASSWORD });
    expect(pending.statusCode).toBe(201);
    const delivered = sink.codeFor(waiting);
    expect(delivered).toMatch(/^\d{6}$/);

    await sink.stop();
    const fresh = uniqueEmail("fresh");
    const register = await post("/register", { name: "Fay", email: fresh, password: PASSWORD });
    expect(register.statusCode).toBe(503);
    expect(register.json()).toEqual(mailFailed);
    const login = await post("/login", { email: known, password: PASSWORD });
    expect(login.statusCode).toBe(503);
    expect(login.json()).toEqual(mailFailed);
    // Past the 60 s resend wait, resending also reaches the (still dead) mail server.
    app.clock.advance(61_000);
    const resendDown = await post("/resend-otp", { userId: pending.json().userId });
    expect(resendDown.statusCode).toBe(503);
    expect(resendDown.json()).toEqual(mailFailed);

    await sink.start(); // same port
    const before = sink.received.length;
    const resend = await post("/resend-otp", { userId: pending.json().userId });
    expect(resend.statusCode).toBe(200);
    const resent = sink.codeFor(waiting);
    expect(sink.received.length).toBe(before + 1);
    expect(resent).toMatch(/^\d{6}$/);
    const verified = await post("/verify-otp", { userId: pending.json().userId, code: resent });
    expect(verified.statusCode).toBe(200);
    expect(verified.json().purpose).toBe("register");

    // Register and login, refused during the outage, work again at once (no 60 s wait left).
    const again = await post("/register", { name: "Fay", email: fresh, password: PASSWORD });
    expect(again.statusCode).toBe(201);
    expect(
      (await post("/verify-otp", { userId: again.json().userId, code: sink.codeFor(fresh) }))
        .statusCode,
    ).toBe(200);
    const signIn = await post("/login", { email: known, password: PASSWORD });
    expect(signIn.statusCode).toBe(200);
    const loggedIn = await post("/verify-otp", {
      userId: signIn.json().userId,
      code: sink.codeFor(known),
    });
    expect(loggedIn.statusCode).toBe(200);
    expect(loggedIn.json().purpose).toBe("login");
  });

  it("keeps the code already in the inbox usable when a resend fails", async () => {
    const email = uniqueEmail("inbox");
    const reg = await post("/register", { name: "Ida", email, password: PASSWORD });
    expect(reg.statusCode).toBe(201);
    const code = sink.codeFor(email);
    expect(code).toMatch(/^\d{6}$/);
    await sink.stop();
    app.clock.advance(61_000);
    try {
      expect((await post("/resend-otp", { userId: reg.json().userId })).statusCode).toBe(503);
    } finally {
      await sink.start();
    }
    // The failed resend sent nothing, so it must not have killed the code the user already has.
    const verified = await post("/verify-otp", { userId: reg.json().userId, code });
    expect(verified.statusCode, verified.body).toBe(200);
  });
});
