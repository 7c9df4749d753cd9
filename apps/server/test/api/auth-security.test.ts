/**
 * A refused re-registration changes nothing, an accepted one applies only
 * with its own code; wrong codes against no live code do not count, and the hourly cap is per
 * account and client address, so nobody can lock someone else out. A password reset request,
 * which anyone can make, neither delays nor replaces a sign-in code.
 */
import {
  OTP_MAX_ATTEMPTS,
  OTP_MAX_FAILURES_PER_HOUR,
  OTP_RESEND_INTERVAL_MS,
} from "@cartner/contract";
import { desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devMails } from "../../src/db/schema.ts";
import {
  createTestApp,
  latestCode,
  PASSWORD,
  signUp,
  uniqueEmail,
  type TestApp,
} from "../helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const post = (url: string, payload: object, remoteAddress = "127.0.0.1") =>
  t.app.inject({ method: "POST", url, payload, remoteAddress });
const login = (email: string, remoteAddress?: string) =>
  post("/api/auth/login", { email, password: PASSWORD }, remoteAddress);
const verify = (userId: string, code: string, remoteAddress?: string) =>
  post("/api/auth/verify-otp", { userId, code }, remoteAddress);
const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0");

describe("registering an unverified email again", () => {
  it("within 60 s is refused (429) and changes nothing: the first code signs up the first details", async () => {
    const email = uniqueEmail("victim");
    const first = await post("/api/auth/register", { name: "Vera", email, password: PASSWORD });
    expect(first.statusCode).toBe(201);
    const code = await latestCode(t.database, email);
    const again = await post("/api/auth/register", {
      name: "Mallory",
      email,
      password: "mallory-owns-this-1",
    });
    expect(again.statusCode).toBe(429);
    const done = await verify(first.json().userId, code);
    expect(done.statusCode).toBe(200);
    expect(done.json().user.name).toBe("Vera");
    const login = await post("/api/auth/login", { email, password: PASSWORD });
    expect(login.statusCode).toBe(200);
    expect(
      (await post("/api/auth/login", { email, password: "mallory-owns-this-1" })).statusCode,
    ).toBe(401);
  });

  it("later sends a new code that carries the new details; the first code no longer works", async () => {
    const email = uniqueEmail("twice");
    const first = await post("/api/auth/register", { name: "Vera", email, password: PASSWORD });
    const userId = first.json().userId as string;
    const firstCode = await latestCode(t.database, email);
    t.clock.advance(OTP_RESEND_INTERVAL_MS + 1_000);
    const again = await post("/api/auth/register", {
      name: "Mallory",
      email,
      password: "mallory-owns-this-1",
    });
    expect(again.statusCode).toBe(201);
    expect(again.json().userId).toBe(userId);
    expect(again.json().message).toMatch(/replaces the one we sent earlier/);
    const [mail] = await t.database.db
      .select()
      .from(devMails)
      .where(eq(devMails.recipient, email))
      .orderBy(desc(devMails.createdAt))
      .limit(1);
    expect(mail!.text).toMatch(/replaces the one we sent earlier, which no longer works/);

    expect((await verify(userId, firstCode)).statusCode).toBe(400);
    const done = await verify(userId, await latestCode(t.database, email));
    expect(done.statusCode).toBe(200);
    expect(done.json().user.name).toBe("Mallory");
    expect(
      (await post("/api/auth/login", { email, password: "mallory-owns-this-1" })).statusCode,
    ).toBe(200);
  });
});

describe("wrong codes", () => {
  it("for an account with no live code do not count: ten of them lock nobody out", async () => {
    const ann = await signUp(t, "Ann");
    for (let i = 0; i < OTP_MAX_FAILURES_PER_HOUR; i++) {
      expect((await verify(ann.userId, "000000", "10.9.0.1")).statusCode).toBe(400);
    }
    t.clock.advance(OTP_RESEND_INTERVAL_MS + 1_000);
    expect(
      (await post("/api/auth/login", { email: ann.email, password: PASSWORD })).statusCode,
    ).toBe(200);
    const code = await latestCode(t.database, ann.email);
    expect((await verify(ann.userId, code, "10.9.0.1")).statusCode).toBe(200);
  });

  it(`kill a code after ${OTP_MAX_ATTEMPTS} tries; the cap is per address, so the owner still gets in`, async () => {
    const ann = await signUp(t, "Ann");
    t.clock.advance(OTP_RESEND_INTERVAL_MS + 1_000);
    for (let round = 0; round < 2; round++) {
      await post("/api/auth/login", { email: ann.email, password: PASSWORD });
      const code = await latestCode(t.database, ann.email);
      for (let i = 0; i < OTP_MAX_ATTEMPTS; i++) {
        expect((await verify(ann.userId, wrong(code), "10.9.0.2")).statusCode).toBeLessThan(500);
      }
      // The code is dead, even when right.
      expect((await verify(ann.userId, code, "10.9.1.1")).statusCode).toBe(400);
      t.clock.advance(OTP_RESEND_INTERVAL_MS + 1_000);
    }
    // Ten failures from the guessing address: that address is refused for the hour...
    await post("/api/auth/login", { email: ann.email, password: PASSWORD });
    const code = await latestCode(t.database, ann.email);
    const locked = await verify(ann.userId, code, "10.9.0.2");
    expect(locked.statusCode).toBe(429);
    // ...while the owner, elsewhere, signs in with the code in their inbox.
    expect((await verify(ann.userId, code, "10.9.1.1")).statusCode).toBe(200);
  });
});

describe("a password reset request", () => {
  /** Asks for a reset code from elsewhere and waits for it (it is mailed after the answer). */
  async function forgot(email: string) {
    const res = await post("/api/auth/forgot-password", { email }, "10.8.0.1");
    expect(res.statusCode).toBe(200);
    await t.app.idle();
  }
  const mails = (email: string) =>
    t.database.db
      .select()
      .from(devMails)
      .where(eq(devMails.recipient, email))
      .orderBy(desc(devMails.createdAt));

  it("does not delay the next sign-in: the right password sends a sign-in code at once", async () => {
    const ann = await signUp(t, "Ann");
    t.clock.advance(OTP_RESEND_INTERVAL_MS + 1_000);
    await forgot(ann.email);
    expect((await mails(ann.email))[0]!.subject).toMatch(/^Reset/);

    const res = await login(ann.email);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().codeAlreadySent).toBeUndefined();
    const done = await verify(ann.userId, await latestCode(t.database, ann.email));
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().purpose).toBe("login");
  });

  it("leaves the sign-in code being typed valid, and the reset code stays valid too", async () => {
    const ben = await signUp(t, "Ben");
    t.clock.advance(OTP_RESEND_INTERVAL_MS + 1_000);
    expect((await login(ben.email, "10.7.0.1")).statusCode).toBe(200);
    const signInCode = await latestCode(t.database, ben.email);
    // A minute on, the sign-in code is still live (10 minutes) when someone asks for a reset.
    t.clock.advance(OTP_RESEND_INTERVAL_MS + 1_000);
    await forgot(ben.email);
    expect((await mails(ben.email))[0]!.subject).toMatch(/^Reset/);
    const resetCode = await latestCode(t.database, ben.email);

    const done = await verify(ben.userId, signInCode, "10.7.0.1");
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().purpose).toBe("login");
    const reset = await post("/api/auth/reset-password", {
      email: ben.email,
      code: resetCode,
      password: "new-orchard-77",
    });
    expect(reset.statusCode, reset.body).toBe(200);
  });

  it("is not what the code page resends: resending sends a new sign-in code", async () => {
    const cat = await signUp(t, "Cat");
    t.clock.advance(OTP_RESEND_INTERVAL_MS + 1_000);
    expect((await login(cat.email)).statusCode).toBe(200);
    t.clock.advance(OTP_RESEND_INTERVAL_MS + 1_000);
    await forgot(cat.email);
    expect((await mails(cat.email))[0]!.subject).toMatch(/^Reset/);
    t.clock.advance(OTP_RESEND_INTERVAL_MS + 1_000);
    expect((await post("/api/auth/resend-otp", { userId: cat.userId })).statusCode).toBe(200);
    expect((await mails(cat.email))[0]!.subject).not.toMatch(/^Reset/);
    const done = await verify(cat.userId, await latestCode(t.database, cat.email));
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().purpose).toBe("login");
  });

  it("once used, ends the codes sent before it, such as a sign-in started with the old password", async () => {
    const eve = await signUp(t, "Eve");
    t.clock.advance(OTP_RESEND_INTERVAL_MS + 1_000);
    expect((await login(eve.email)).statusCode).toBe(200);
    const signInCode = await latestCode(t.database, eve.email);
    t.clock.advance(OTP_RESEND_INTERVAL_MS + 1_000);
    await forgot(eve.email);
    const reset = await post("/api/auth/reset-password", {
      email: eve.email,
      code: await latestCode(t.database, eve.email),
      password: "new-orchard-77",
    });
    expect(reset.statusCode, reset.body).toBe(200);
    expect((await verify(eve.userId, signInCode)).statusCode).toBe(400);
    // Nothing left to wait for: the new password sends a sign-in code at once.
    const again = await post("/api/auth/login", { email: eve.email, password: "new-orchard-77" });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().codeAlreadySent).toBeUndefined();
  });

  it("flooded, with wrong reset codes, locks out only the guessing address", async () => {
    const dan = await signUp(t, "Dan");
    for (let round = 0; round < 3; round++) {
      t.clock.advance(OTP_RESEND_INTERVAL_MS + 1_000);
      await forgot(dan.email);
      for (let i = 0; i < OTP_MAX_ATTEMPTS; i++) {
        const res = await post(
          "/api/auth/reset-password",
          { email: dan.email, code: "000000", password: "mallory-owns-this-1" },
          "10.8.0.1",
        );
        expect([400, 429]).toContain(res.statusCode);
      }
    }
    // The owner, at home, signs in with the code the login sends, and can still reset.
    expect((await login(dan.email, "10.7.0.2")).statusCode).toBe(200);
    const done = await verify(dan.userId, await latestCode(t.database, dan.email), "10.7.0.2");
    expect(done.statusCode, done.body).toBe(200);
    t.clock.advance(OTP_RESEND_INTERVAL_MS + 1_000);
    expect(
      (await post("/api/auth/forgot-password", { email: dan.email }, "10.7.0.2")).statusCode,
    ).toBe(200);
    await t.app.idle();
    const reset = await post(
      "/api/auth/reset-password",
      {
        email: dan.email,
        code: await latestCode(t.database, dan.email),
        password: "new-orchard-77",
      },
      "10.7.0.2",
    );
    expect(reset.statusCode, reset.body).toBe(200);
  });
});
