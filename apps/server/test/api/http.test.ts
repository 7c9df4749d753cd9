import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureLog, createTestApp, signUp, type TestApp } from "../helpers.ts";

let t: TestApp;
let web: string;
beforeAll(async () => {
  web = await fs.mkdtemp(path.join(os.tmpdir(), "cartner-web-"));
  await fs.mkdir(path.join(web, "assets"));
  // As the build writes them: / and /login prerendered, app.html the empty shell.
  const page = (body: string) => `<!doctype html><title>Cartner</title><div id=root>${body}</div>`;
  await fs.writeFile(path.join(web, "index.html"), page("<h1>Landing</h1>"));
  await fs.writeFile(path.join(web, "login.html"), page("<h1>Welcome back</h1>"));
  await fs.writeFile(path.join(web, "app.html"), page(""));
  await fs.writeFile(path.join(web, "assets", "app-abc123.js"), "console.log(1)");
  t = await createTestApp({
    env: {
      WEB_DIST: web,
      APP_ORIGIN: "https://shop.example.com",
      RATE_LIMIT: "100000",
      AUTH_RATE_LIMIT: "3",
    },
  });
});
afterAll(async () => {
  await t.close();
  await fs.rm(web, { recursive: true, force: true });
});

describe("serving the web app", () => {
  it("serves the prerendered pages and the shell for client routes, with a strict CSP", async () => {
    const pages = {
      "/": "<div id=root><h1>Landing</h1></div>",
      "/?from=mail": "<div id=root><h1>Landing</h1></div>",
      "/login": "<div id=root><h1>Welcome back</h1></div>",
      "/Login/": "<div id=root><h1>Welcome back</h1></div>",
      "/products?q=x": "<div id=root></div>",
      "/register": "<div id=root></div>",
      "/some/unknown/page": "<div id=root></div>",
    };
    for (const [url, root] of Object.entries(pages)) {
      const res = await t.app.inject({ method: "GET", url });
      expect(res.statusCode).toBe(200);
      expect(res.headers["content-type"]).toMatch(/text\/html/);
      expect(res.body, url).toContain(root);
      expect(res.headers["cache-control"]).toBe("no-cache");
    }
    const res = await t.app.inject({ method: "GET", url: "/login" });
    const csp = String(res.headers["content-security-policy"]);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain("unsafe-inline");
    expect(csp).not.toContain("unsafe-eval");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
  });

  it("serves fingerprinted assets with a long cache", async () => {
    const res = await t.app.inject({ method: "GET", url: "/assets/app-abc123.js" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toContain("immutable");
  });

  it("answers a missing asset with 404, so a stale tab's old chunk fails cleanly", async () => {
    const res = await t.app.inject({ method: "GET", url: "/assets/gone-123.js" });
    expect(res.statusCode).toBe(404);
  });

  it("answers unknown /api paths with JSON 404, not the app", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/nope" });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: "NOT_FOUND", message: expect.any(String) });
    const post = await t.app.inject({ method: "POST", url: "/api/nope", payload: {} });
    expect(post.statusCode).toBe(404);
  });
});

describe("API hygiene", () => {
  it("reports the database in /api/conhealth", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/conhealth" });
    expect(res.statusCode).toBe(200);
    // Without SMTP_URL (outside production) mails go to /dev/mailbox, and the app says so.
    expect(res.json()).toEqual({ status: "ok", db: "ok", devMailbox: true });
  });

  it("allows CORS only for APP_ORIGIN (the older name of PUBLIC_URL)", async () => {
    const ok = await t.app.inject({
      method: "OPTIONS",
      url: "/api/auth/login",
      headers: { origin: "https://shop.example.com", "access-control-request-method": "POST" },
    });
    expect(ok.headers["access-control-allow-origin"]).toBe("https://shop.example.com");
    const evil = await t.app.inject({
      method: "OPTIONS",
      url: "/api/auth/login",
      headers: { origin: "https://evil.example", "access-control-request-method": "POST" },
    });
    expect(evil.headers["access-control-allow-origin"]).toBeUndefined();
  });

  it("rate-limits sign-in with 429 and Retry-After", async () => {
    const answers = [];
    for (let i = 0; i < 5; i++) {
      answers.push(
        await t.app.inject({
          method: "POST",
          url: "/api/auth/login",
          payload: { email: "nobody@example.com", password: "whatever" },
          remoteAddress: "10.1.2.3",
        }),
      );
    }
    const limited = answers.at(-1)!;
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ code: "RATE_LIMITED", message: expect.any(String) });
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
  });

  it("publishes the OpenAPI document with the auth calls", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/docs/json" });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    const paths = Object.keys(doc.paths);
    for (const p of [
      "/api/auth/register",
      "/api/auth/login",
      "/api/auth/verify-otp",
      "/api/auth/resend-otp",
      "/api/auth/refresh-token",
      "/api/auth/validate-token",
      "/api/auth/logout",
      "/api/conhealth",
    ]) {
      expect(paths).toContain(p);
    }
    const register = doc.paths["/api/auth/register"].post;
    expect(
      Object.keys(register.requestBody.content["application/json"].schema.properties).sort(),
    ).toEqual(["email", "name", "password"]);
    expect(Object.keys(register.responses)).toEqual(
      expect.arrayContaining(["201", "400", "409", "429"]),
    );
    // Signed-in writes document the Idempotency-Key header (and its 409/422); sign-in steps do not.
    const keyHeader = (operation: { parameters?: Array<{ in: string; name: string }> }) =>
      operation.parameters?.some((p) => p.in === "header" && p.name === "idempotency-key");
    const add = doc.paths["/api/carts/{cartId}/product"].post;
    expect(keyHeader(add)).toBe(true);
    expect(Object.keys(add.responses)).toEqual(expect.arrayContaining(["409", "422"]));
    expect(keyHeader(register)).toBeFalsy();
    // The token renewal has no user until it runs, so it takes no key either.
    expect(keyHeader(doc.paths["/api/auth/refresh-token"].post)).toBeFalsy();
    // A write whose answer carries a secret says its replay is refused.
    const newLink = doc.paths["/api/sessions/{id}/links"].post;
    expect(keyHeader(newLink)).toBe(true);
    expect(newLink.description).toContain("IDEMPOTENCY_ANSWER_NOT_KEPT");
    const ui = await t.app.inject({ method: "GET", url: "/api/docs/" });
    expect(ui.statusCode).toBe(200);
  });

  it("draws avatars locally and caches them", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/avatars/ann%40example.com.svg" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/image\/svg\+xml/);
    expect(res.body).toMatch(/^<svg/);
    const same = await t.app.inject({ method: "GET", url: "/api/avatars/ann%40example.com.svg" });
    expect(same.body).toBe(res.body);
    expect((await t.app.inject({ method: "GET", url: "/api/avatars/ann.png" })).statusCode).toBe(
      400,
    );
  });

  it("lists mails at /dev/mailbox in development", async () => {
    const dev = await t.app.inject({ method: "GET", url: "/dev/mailbox" });
    expect(dev.statusCode).toBe(200);
    expect(dev.headers["content-type"]).toMatch(/text\/html/);
  });
});

describe("the database going away", () => {
  it("turns /api/conhealth into a 503 with the error shape", async () => {
    const own = await createTestApp();
    await own.database.close();
    const res = await own.app.inject({ method: "GET", url: "/api/conhealth" });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ code: "SERVICE_UNAVAILABLE" });
    await own.app.close().catch(() => {});
  });

  it("logs one line for a burst of failed requests, not one per request", async () => {
    const log = await captureLog(async () => {
      const own = await createTestApp({ env: { LOG_LEVEL: "error" } });
      const { token } = await signUp(own);
      await own.database.close();
      for (let i = 0; i < 5; i++) {
        const res = await own.app.inject({
          method: "GET",
          url: "/api/products",
          headers: { authorization: `Bearer ${token}` },
        });
        expect(res.statusCode).toBe(503);
      }
      await own.app.close().catch(() => {});
    });
    expect(log.match(/database unreachable/g)).toHaveLength(1);
  });
});
