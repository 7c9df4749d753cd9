/**
 * One id per request: a trusted proxy's well-formed X-Request-Id, else a new one; in the
 * X-Request-Id header of every answer (errors, 404s and static files too), as `requestId` in
 * every error body, and in the log lines of the request.
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureLog, createTestApp, signUp, type TestApp } from "../helpers.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("behind no trusted proxy (the default)", () => {
  let t: TestApp;
  let webDist: string;
  beforeAll(async () => {
    // A built web app of three files, so static answers are asked too.
    webDist = await fs.mkdtemp(path.join(os.tmpdir(), "cartner-web-"));
    await fs.mkdir(path.join(webDist, "assets"));
    for (const file of ["app.html", "index.html", "login.html"]) {
      await fs.writeFile(path.join(webDist, file), "<!doctype html><title>Cartner</title>");
    }
    await fs.writeFile(path.join(webDist, "assets", "main-abc123.js"), "console.log(1);");
    t = await createTestApp({ env: { WEB_DIST: webDist } });
  });
  afterAll(async () => {
    await t.close();
    await fs.rm(webDist, { recursive: true, force: true });
  });

  it("makes an id of its own, ignoring one a client sent", async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const res = await t.app.inject({
        method: "GET",
        url: "/api/health/live",
        headers: { "x-request-id": "chosen-by-the-client" },
      });
      expect(res.statusCode).toBe(200);
      const id = String(res.headers["x-request-id"]);
      expect(id).toMatch(UUID);
      ids.add(id);
    }
    expect(ids.size).toBe(3);
  });

  it("answers every kind of answer with it, and every error body carries the same", async () => {
    const ann = await signUp(t, "Ann");
    const answers = {
      ok: await t.app.inject({ method: "GET", url: "/api/conhealth" }),
      page: await t.app.inject({ method: "GET", url: "/sessions" }),
      asset: await t.app.inject({ method: "GET", url: "/assets/main-abc123.js" }),
      unknownApi: await t.app.inject({ method: "GET", url: "/api/no-such-route" }),
      missingAsset: await t.app.inject({ method: "GET", url: "/assets/gone-999.js" }),
      unauthorized: await t.app.inject({ method: "GET", url: "/api/auth/sessions" }),
      invalid: await t.app.inject({
        method: "POST",
        url: "/api/sessions",
        headers: { authorization: `Bearer ${ann.token}` },
        payload: { sessionName: "" },
      }),
      malformedJson: await t.app.inject({
        method: "POST",
        url: "/api/auth/login",
        headers: { "content-type": "application/json" },
        payload: "{not json",
      }),
      tooLong: await t.app.inject({ method: "GET", url: `/api/sessions/${"z".repeat(400)}` }),
    };
    expect(
      Object.fromEntries(Object.entries(answers).map(([name, res]) => [name, res.statusCode])),
    ).toEqual({
      ok: 200,
      page: 200,
      asset: 200,
      unknownApi: 404,
      missingAsset: 404,
      unauthorized: 401,
      invalid: 400,
      malformedJson: 400,
      tooLong: 414,
    });
    for (const [name, res] of Object.entries(answers)) {
      const id = res.headers["x-request-id"];
      expect(id, name).toMatch(UUID);
      if (res.statusCode >= 400) expect(res.json().requestId, name).toBe(id);
    }
  });

  it("writes the id into the log lines of the request", async () => {
    let id = "";
    let log = "";
    let app: TestApp | undefined;
    try {
      log = await captureLog(async () => {
        app = await createTestApp({ env: { LOG_LEVEL: "info" } });
        const res = await app.app.inject({ method: "GET", url: "/api/no-such-route" });
        id = String(res.headers["x-request-id"]);
      });
    } finally {
      await app?.close();
    }
    const lines = log
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const ofRequest = lines.filter((line) => line.requestId === id);
    // Fastify's "incoming request" and "request completed", and nothing of it without the id.
    expect(ofRequest.map((line) => line.msg)).toEqual(
      expect.arrayContaining(["incoming request", "request completed"]),
    );
    expect(lines.filter((line) => "req" in line || "res" in line)).toEqual(
      lines.filter((line) => ("req" in line || "res" in line) && line.requestId !== undefined),
    );
    expect(lines.some((line) => "reqId" in line)).toBe(false);
  });
});

describe("behind a trusted proxy (TRUST_PROXY=true)", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { TRUST_PROXY: "true" } });
  });
  afterAll(async () => t.close());

  const ask = (requestId: string, url = "/api/health/live") =>
    t.app.inject({ method: "GET", url, headers: { "x-request-id": requestId } });

  it("keeps the proxy's id, on answers and on errors", async () => {
    for (const given of [
      "a1b2c3d4e5f6",
      "Root=1-67891233-abcdef012345678912345678",
      "x".repeat(128),
    ]) {
      const res = await ask(given);
      expect(res.headers["x-request-id"]).toBe(given);
    }
    const refused = await ask("proxy-id-42", "/api/auth/sessions");
    expect(refused.statusCode).toBe(401);
    expect(refused.headers["x-request-id"]).toBe("proxy-id-42");
    expect(refused.json().requestId).toBe("proxy-id-42");
  });

  it("replaces a malformed one (too long, spaces, quotes, other characters) with its own", async () => {
    for (const given of ["x".repeat(129), "two words", 'a"b', "naïve", "a,b", ""]) {
      const res = await ask(given);
      expect(res.headers["x-request-id"], given).toMatch(UUID);
    }
  });
});
