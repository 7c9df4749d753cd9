/**
 * Text a person types never reaches the database as a 500. Each of the four requests once found
 * answering 500 is now a 400 that names the field; the error handler turns a database
 * "invalid text" error that slips past every schema into a 400 as well.
 */
import Fastify from "fastify";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installErrorHandling } from "../../src/plugins/error-handler.ts";
import {
  client,
  createTestApp,
  freshDatabase,
  PASSWORD,
  postProfileForm,
  signUp,
  uniqueEmail,
  type TestApp,
} from "../helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const session = { sessionName: "Picnic", sessionType: "Friends", participants: "3+" };

function expectFieldError(res: { statusCode: number; json: () => unknown }, field: string) {
  expect(res.statusCode).toBe(400);
  const body = res.json() as { code: string; fields?: Record<string, string> };
  expect(body.code).toBe("VALIDATION_ERROR");
  expect(body.fields?.[field]).toMatch(/control characters|single line/);
}

describe("the four inputs that once answered 500", () => {
  it("register with a NUL in the name", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/auth/register",
      payload: { name: "a\u0000b", email: uniqueEmail(), password: PASSWORD },
    });
    expectFieldError(res, "name");
  });

  it("a profile bio with a NUL (multipart)", async () => {
    const ann = await signUp(t, "Ann");
    const res = await postProfileForm(t, ann.token, { bio: "hi\u0000there" });
    expectFieldError(res, "bio");
    const profile = (await client(t, ann.token)("GET", "/api/profile/me")).json();
    expect(profile.bio).toBe("");
  });

  it.each(["sessionName", "passcode"])("a session with a NUL in the %s", async (field) => {
    const ann = await signUp(t, "Ann");
    const res = await client(t, ann.token)("POST", "/api/sessions", {
      ...session,
      [field]: "a\u0000b",
    });
    expectFieldError(res, field);
    expect((await client(t, ann.token)("GET", "/api/sessions/my")).json().sessions).toEqual([]);
  });

  it("joining with a NUL in the session code", async () => {
    const ann = await signUp(t, "Ann");
    const res = await client(t, ann.token)("POST", "/api/sessions/join/code", {
      sessionCode: "AB\u0000DEFGH",
      passcode: "",
    });
    expectFieldError(res, "sessionCode");
  });
});

describe("names people see", () => {
  it.each([
    ["a right-to-left override", "Mallory\u202Etxt.exe", "text-direction"],
    ["only zero-width characters", "\u200B\u200C\u200D", "visible character"],
    ["a terminal escape", "Ann\u001b[31m", "single line"],
  ])("refuse %s", async (_what, name, message) => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/auth/register",
      payload: { name, email: uniqueEmail(), password: PASSWORD },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields.name).toContain(message);
  });

  it("are stored NFC-normalised, and a bio keeps its line breaks", async () => {
    const ann = await signUp(t, "Ann");
    const res = await postProfileForm(t, ann.token, {
      name: "Rene\u0301e",
      bio: "line one\nline two",
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().user.name).toBe("Ren\u00e9e");
    expect(res.json().bio).toBe("line one\nline two");
  });
});

describe("the error handler", () => {
  it("answers a database 'invalid text' error with 400, not 500", async () => {
    const database = await freshDatabase();
    const app = Fastify();
    installErrorHandling(app);
    app.get("/nul", async () => database.db.execute(sql`select ${"a\u0000b"}::text as value`));
    try {
      const res = await app.inject({ method: "GET", url: "/nul" });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: "VALIDATION_ERROR" });
    } finally {
      await app.close();
      await database.close();
    }
  });
});

describe("Cache-Control", () => {
  it("is no-store on answers that depend on who asks, errors included", async () => {
    const ann = await signUp(t, "Ann");
    const as = client(t, ann.token);
    for (const res of [
      await as("GET", "/api/profile/me"),
      await as("GET", "/api/sessions/my"),
      await as("POST", "/api/sessions", session),
      await as("GET", "/api/sessions/00000000-0000-4000-8000-000000000000"),
      await t.app.inject({ method: "GET", url: "/api/auth/validate-token" }),
    ]) {
      expect(res.headers["cache-control"], res.body).toBe("no-store");
    }
  });

  it("leaves the public images, avatars and OpenAPI document cacheable", async () => {
    const ann = await signUp(t, "Ann");
    const products = (await client(t, ann.token)("GET", "/api/products?limit=1")).json().products;
    const image = await t.app.inject({ method: "GET", url: products[0].imageUrl });
    expect(image.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    const avatar = await t.app.inject({ method: "GET", url: "/api/avatars/ann.svg" });
    expect(avatar.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    // And pages on other origins may show them: media is served cross-origin.
    const userAvatar = await t.app.inject({
      method: "GET",
      url: `/api/users/${ann.userId}/avatar`,
    });
    for (const res of [image, avatar, userAvatar]) {
      expect(res.headers["cross-origin-resource-policy"]).toBe("cross-origin");
    }
    const docs = await t.app.inject({ method: "GET", url: "/api/docs/json" });
    expect(docs.headers["cache-control"]).not.toBe("no-store");
  });
});
