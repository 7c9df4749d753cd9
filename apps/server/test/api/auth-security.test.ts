/**
 * Issue 17, items 2 and 3: a refused re-registration changes nothing, an accepted one applies only
 * with its own code; wrong codes against no live code do not count, and the hourly cap is per
 * account and client address, so nobody can lock someone else out.
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
