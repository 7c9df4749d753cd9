import { count } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users } from "../../src/db/schema.ts";
import { createTestApp, PASSWORD, signUp, uniqueEmail, type TestApp } from "../helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const userCount = async () => (await t.database.db.select({ n: count() }).from(users))[0]!.n;

const raw = (url: string, body: string, contentType = "application/json") =>
  t.app.inject({ method: "POST", url, body, headers: { "content-type": contentType } });

describe("bad input gets a 4xx with { message, code } and changes nothing", () => {
  const cases: Array<[string, string, string, number, string?]> = [
    ["malformed JSON", "/api/auth/register", "{name:", 400],
    ["an empty JSON body", "/api/auth/register", "", 400],
    ["a JSON array", "/api/auth/register", "[]", 400],
    ["missing fields", "/api/auth/register", JSON.stringify({ email: "a@b.co" }), 400],
    [
      "a mistyped field",
      "/api/auth/register",
      JSON.stringify({ name: 5, email: "a@b.co", password: PASSWORD }),
      400,
    ],
    [
      "an invalid email",
      "/api/auth/register",
      JSON.stringify({ name: "A", email: "nope", password: PASSWORD }),
      400,
    ],
    [
      "an unknown key (mass assignment)",
      "/api/auth/register",
      JSON.stringify({
        name: "A",
        email: "mass@b.co",
        password: PASSWORD,
        emailVerifiedAt: "2020-01-01",
      }),
      400,
    ],
    [
      "a code sent as an object",
      "/api/auth/verify-otp",
      JSON.stringify({ userId: crypto.randomUUID(), code: { $gt: "" } }),
      400,
    ],
    [
      "a code with letters",
      "/api/auth/verify-otp",
      JSON.stringify({ userId: crypto.randomUUID(), code: "12a456" }),
      400,
    ],
    [
      "a userId that is not an id",
      "/api/auth/verify-otp",
      JSON.stringify({ userId: "1 or 1=1", code: "123456" }),
      400,
    ],
    [
      "a body over the limit",
      "/api/auth/register",
      JSON.stringify({ name: "x".repeat(70_000), email: "a@b.co", password: PASSWORD }),
      413,
    ],
    [
      "a form body",
      "/api/auth/login",
      "email=a@b.co&password=x",
      415,
      "application/x-www-form-urlencoded",
    ],
  ];

  it.each(cases)("%s", async (_label, url, body, status, contentType) => {
    const before = await userCount();
    const res = await raw(url, body, contentType);
    expect(res.statusCode).toBe(status);
    const json = res.json();
    expect(json).toEqual(
      expect.objectContaining({ message: expect.any(String), code: expect.any(String) }),
    );
    expect(res.body).not.toMatch(/at .*\.ts:\d+|node_modules|stack/i);
    expect(await userCount()).toBe(before);
  });

  it("names the offending fields", async () => {
    const res = await raw(
      "/api/auth/register",
      JSON.stringify({ name: "", email: "x", password: "1", role: "admin" }),
    );
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().fields).sort()).toEqual(["email", "name", "password", "role"]);
  });

  it("rejects unknown keys on login and verify too", async () => {
    const { email } = await signUp(t);
    const login = await raw(
      "/api/auth/login",
      JSON.stringify({ email, password: PASSWORD, admin: true }),
    );
    expect(login.statusCode).toBe(400);
    const resend = await raw(
      "/api/auth/resend-otp",
      JSON.stringify({ userId: crypto.randomUUID(), x: 1 }),
    );
    expect(resend.statusCode).toBe(400);
  });

  it("answers unknown API paths with a JSON 404", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/does-not-exist" });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: "NOT_FOUND" });
  });

  it("keeps emails unique under concurrent registration", async () => {
    const email = uniqueEmail("race");
    const answers = await Promise.all(
      [1, 2, 3].map(() =>
        raw("/api/auth/register", JSON.stringify({ name: "A", email, password: PASSWORD })),
      ),
    );
    expect(answers.some((a) => a.statusCode === 201)).toBe(true);
    for (const a of answers) expect([201, 409, 429]).toContain(a.statusCode);
  });
});
