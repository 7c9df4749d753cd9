/**
 * Security properties of the API as a whole: rate limits, mass assignment on every write route,
 * fuzzed avatar uploads, security headers, and no user data in the logs. The OTP limits are in
 * auth.test.ts ("one-time codes"), next to the rest of the sign-in flow.
 */
import nodeCrypto from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import fc from "fast-check";
import { sql, type SQL } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  captureLog,
  client,
  createTestApp,
  latestCode,
  PASSWORD,
  sessionWithEveryRole,
  signUp,
  uniqueEmail,
  type TestApp,
} from "../helpers.ts";

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** A digest of every row of every table: equal digests mean nothing was written. */
async function snapshot(t: TestApp): Promise<Record<string, string>> {
  // Mails an earlier request sends after its answer are that request's writes, not this one's.
  await t.app.idle();
  const rows = async <T>(query: SQL) =>
    ((await t.database.db.execute(query)) as unknown as { rows: T[] }).rows;
  const tables = await rows<{ name: string }>(
    sql`select table_name as name from information_schema.tables
        where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
  );
  const digest: Record<string, string> = {};
  for (const { name } of tables) {
    const [row] = await rows<{ d: string }>(
      sql`select md5(coalesce(string_agg(r::text, '|' order by r::text), '')) as d
          from ${sql.identifier(name)} r`,
    );
    digest[name] = row!.d;
  }
  return digest;
}

/**
 * One app for the mass-assignment, upload and header checks (each app costs a database), serving
 * a minimal built web app as http.test.ts does, so nothing depends on `npm run build`.
 */
let shared: TestApp;
let web: string;
beforeAll(async () => {
  web = await fs.mkdtemp(path.join(os.tmpdir(), "cartner-web-"));
  await fs.mkdir(path.join(web, "assets"));
  const html =
    '<!doctype html><title>Cartner</title><div id=root></div><script type="module" src="/assets/app-abc123.js"></script>';
  await fs.writeFile(path.join(web, "index.html"), html);
  await fs.writeFile(path.join(web, "app.html"), html);
  await fs.writeFile(path.join(web, "assets", "app-abc123.js"), "console.log(1)");
  shared = await createTestApp({ env: { WEB_DIST: web } });
});
afterAll(async () => {
  await shared.close();
  await fs.rm(web, { recursive: true, force: true });
});

describe("rate limits", () => {
  let t: TestApp;
  let token: string;
  let otherToken: string;
  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMIT: "5", AUTH_RATE_LIMIT: "3" } });
    ({ token } = await signUp(t));
    ({ token: otherToken } = await signUp(t, "Ben"));
  });
  afterAll(async () => t.close());

  const get = (remoteAddress: string, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: "GET",
      url: "/api/products?limit=1",
      remoteAddress,
      headers: { authorization: `Bearer ${token}`, ...headers },
    });

  const expectLimited = (res: Awaited<ReturnType<typeof get>>) => {
    expect(res.statusCode).toBe(429);
    expect(res.json()).toMatchObject({ code: "RATE_LIMITED", message: expect.any(String) });
    const retryAfter = Number(res.headers["retry-after"]);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
  };

  it("answers the general limit (RATE_LIMIT per account per minute) with 429 and Retry-After", async () => {
    for (let i = 0; i < 5; i++) expect((await get("10.0.0.1")).statusCode).toBe(200);
    expectLimited(await get("10.0.0.1"));
    // Per account: moving to another address does not renew it; another account is still served.
    expectLimited(await get("10.0.0.2"));
    expect((await get("10.0.0.1", { authorization: `Bearer ${otherToken}` })).statusCode).toBe(200);
  });

  it("cannot be dodged with a forged X-Forwarded-For (TRUST_PROXY is off)", async () => {
    // Without a token the budget is the address's.
    const anonymous = { authorization: "" };
    for (let i = 0; i < 5; i++) {
      await get("10.0.0.3", { ...anonymous, "x-forwarded-for": `192.0.2.${i}` });
    }
    expectLimited(await get("10.0.0.3", { ...anonymous, "x-forwarded-for": "198.51.100.7" }));
  });

  // A revoked or forged token still costs a verification (and, when correctly signed, a database
  // read), so requests that fail authentication are counted too, against their address.
  it("counts requests that fail authentication", async () => {
    const answers = [];
    for (let i = 0; i < 6; i++) {
      answers.push(await get("10.0.0.4", { authorization: "Bearer not-a-token" }));
    }
    expect(answers.slice(0, 5).map((a) => a.statusCode)).toEqual([401, 401, 401, 401, 401]);
    expectLimited(answers[5]!);
  });

  // The sign-in limit on login alone is in http.test.ts; here it holds on every sign-in call.
  it.each([
    "/api/auth/register",
    "/api/auth/login",
    "/api/auth/verify-otp",
    "/api/auth/resend-otp",
  ])("answers the sign-in limit (AUTH_RATE_LIMIT) on %s with 429 and Retry-After", async (url) => {
    const remoteAddress = `10.0.1.${url.length}`;
    const answers = [];
    for (let i = 0; i < 4; i++) {
      answers.push(await t.app.inject({ method: "POST", url, payload: {}, remoteAddress }));
    }
    expect(answers.slice(0, 3).map((a) => a.statusCode)).toEqual([400, 400, 400]);
    expectLimited(answers[3]!);
  });
});

describe("mass assignment: every JSON write route rejects unknown keys", () => {
  interface JsonSchema {
    type?: string;
    format?: string;
    pattern?: string;
    enum?: unknown[];
    minimum?: number;
    exclusiveMinimum?: boolean;
    minLength?: number;
    properties?: Record<string, JsonSchema>;
    required?: string[];
    additionalProperties?: unknown;
    anyOf?: JsonSchema[];
    oneOf?: JsonSchema[];
    allOf?: JsonSchema[];
    items?: JsonSchema;
  }
  interface Route {
    method: Method;
    path: string;
    body: JsonSchema;
  }

  let t: TestApp;
  let routes: Route[];
  beforeAll(async () => {
    t = shared;
    const doc = (await t.app.inject({ method: "GET", url: "/api/docs/json" })).json();
    routes = [];
    for (const [p, operations] of Object.entries<
      Record<
        string,
        {
          requestBody?: { content?: Record<string, { schema: JsonSchema }> };
        }
      >
    >(doc.paths)) {
      for (const [method, op] of Object.entries(operations)) {
        if (!["post", "put", "patch", "delete"].includes(method)) continue;
        const body = op.requestBody?.content?.["application/json"]?.schema;
        if (!body) continue;
        routes.push({ method: method.toUpperCase() as Method, path: p, body });
      }
    }
  });

  /** Every object anywhere in the schema (nested, in unions) must forbid extra keys. */
  function looseObjects(schema: JsonSchema, at = "body"): string[] {
    const found: string[] = [];
    if (schema.type === "object" || schema.properties) {
      // A record (a map such as a split policy's weights) describes its values instead.
      const isRecord = typeof schema.additionalProperties === "object";
      if (schema.additionalProperties !== false && !isRecord) found.push(at);
      for (const [key, child] of Object.entries(schema.properties ?? {})) {
        found.push(...looseObjects(child, `${at}.${key}`));
      }
    }
    for (const [i, child] of [
      ...(schema.anyOf ?? []),
      ...(schema.oneOf ?? []),
      ...(schema.allOf ?? []),
    ].entries()) {
      found.push(...looseObjects(child, `${at}|${i}`));
    }
    if (schema.items) found.push(...looseObjects(schema.items, `${at}[]`));
    return found;
  }

  it("finds the write routes in the OpenAPI document, each with a strict body", () => {
    expect(routes.length).toBeGreaterThan(10);
    const loose = routes.flatMap((r) =>
      looseObjects(r.body).map((at) => `${r.method} ${r.path}: ${at}`),
    );
    expect(loose).toEqual([]);
  });

  /**
   * A valid value for a body property, from the shared fixture by name (ids and codes must point
   * at real rows for a request to be otherwise valid), else from its schema.
   */
  type Fixture = Awaited<ReturnType<typeof sessionWithEveryRole>> & { productId: string };
  function sample(name: string, schema: JsonSchema, f: Fixture): unknown {
    const byName: Record<string, () => unknown> = {
      sessionCode: () => f.code,
      productId: () => f.productId,
      userId: () => f.people.pending.userId,
      code: () => "123456",
      email: () => uniqueEmail("mass"),
      emailOrUsername: () => uniqueEmail("mass"),
      password: () => "fresh-meadow-88",
      currentPassword: () => PASSWORD,
      passcode: () => "tulip",
      lineId: () => crypto.randomUUID(),
      userIds: () => [],
      ids: () => [],
      // An add kept private from no one: valid for every caller.
      hiddenFrom: () => [],
      from: () => "22:00",
      // Quiet hours' end, or whom a transfer goes to.
      to: () => (schema.format === "uuid" ? f.people.participant.userId : "07:00"),
      payers: () => [{ userId: f.people.creator.userId, amount: 1 }],
      iban: () => "DE89370400440532013000",
      payLink: () => "https://paypal.me/ann",
      timeZone: () => "UTC",
      endpoint: () => `https://push.example.com/send/${crypto.randomUUID()}`,
      p256dh: () => `B${nodeCrypto.randomBytes(64).toString("base64url")}`.slice(0, 87),
      auth: () => nodeCrypto.randomBytes(16).toString("base64url"),
      rule: () => "FREQ=DAILY;BYHOUR=9;BYMINUTE=0",
      // A deadline: in the future by the app's clock.
      closesAt: () => new Date(Date.now() + 3_600_000).toISOString(),
      remindAt: () => [60],
      // A product's feed key and GTIN (a real one: its check digit is verified).
      key: () => `mass-${crypto.randomUUID().slice(0, 8)}`,
      gtin: () => "4006381333931",
    };
    // A boolean under a fixture's name (a notification channel called email) is still a boolean.
    if (schema.type === "boolean") return false;
    if (byName[name]) return byName[name]();
    const branch = schema.anyOf?.[0] ?? schema.oneOf?.[0];
    if (branch) return sample(name, branch, f);
    if (schema.enum) return schema.enum[0];
    if (schema.type === "number" || schema.type === "integer") {
      // A number above its bound when the bound itself is excluded (an amount > 0).
      return schema.minimum === undefined ? 1 : schema.minimum + (schema.exclusiveMinimum ? 1 : 0);
    }
    if (schema.type === "boolean") return false;
    if (schema.type === "object") return validBody(schema, f);
    if (schema.type === "string" && !schema.format && !schema.pattern) {
      return "x".repeat(Math.max(1, schema.minLength ?? 1));
    }
    // A new kind of field: give it a real value above, so the request below is valid.
    throw new Error(`no sample value for body field "${name}" (${JSON.stringify(schema)})`);
  }
  function validBody(schema: JsonSchema, f: Fixture): Record<string, unknown> {
    const object = schema.anyOf?.[0] ?? schema.oneOf?.[0] ?? schema;
    return Object.fromEntries(
      Object.entries(object.properties ?? {})
        // An empty schema ({}) is a key the API accepts and ignores (a new session's `creator`).
        .filter(([, child]) => Object.keys(child).length > 0)
        .map(([key, child]) => [key, sample(key, child, f)]),
    );
  }

  it("answers an otherwise valid body with an extra key 400, naming the key, and writes nothing", async () => {
    const base = await sessionWithEveryRole(t);
    const [product] = (await base.as.creator("GET", "/api/products?limit=1")).json().products;
    const f: Fixture = { ...base, productId: product._id };
    const pathValues: Record<string, string> = {
      id: f.sessionId,
      cartId: f.cartId,
      code: f.code,
      productId: f.productId,
      lineId: crypto.randomUUID(),
      adjId: crypto.randomUUID(),
      userId: f.people.participant.userId,
    };
    for (const route of routes) {
      const url = route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
        if (!pathValues[name]) throw new Error(`no value for path parameter ${name}`);
        return pathValues[name];
      });
      const body = validBody(route.body, f);
      const label = `${route.method} ${route.path}`;

      const before = await snapshot(t);
      const res = await f.as.creator(route.method, url, { ...body, isAdmin: true });
      expect(res.statusCode, `${label}: ${res.body}`).toBe(400);
      expect(res.json(), label).toMatchObject({
        code: "VALIDATION_ERROR",
        message: expect.stringContaining("isAdmin"),
        fields: { isAdmin: expect.stringMatching(/unrecognized/i) },
      });
      expect(await snapshot(t), label).toEqual(before);

      // Control: without the extra key the same body passes validation (whatever the service
      // then says), so the 400 above was about the unknown key alone.
      const control = await f.as.creator(route.method, url, body);
      // A success may have no body at all (201 and 204 without content).
      const code = control.statusCode < 300 ? undefined : control.json().code;
      expect(code, `${label} control: ${control.body}`).not.toBe("VALIDATION_ERROR");
    }
  });

  it("rejects unknown keys nested in a union body (SPEC's { userId: { email } })", async () => {
    const f = await sessionWithEveryRole(t);
    const res = await f.as.creator("POST", `/api/sessions/approve/${f.code}`, {
      userId: { email: f.people.pending.email, role: "creator" },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain("role");
  });
});

describe("avatar uploads, fuzzed: always a 4xx with a message, never a 5xx", () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = shared;
    ({ token } = await signUp(t));
  });

  const BIO = "must not be saved";

  /** Posts a multipart body built by FormData, or raw bytes with a content type of our own. */
  const upload = (payload: FormData | Buffer | string, contentType?: string) =>
    t.app.inject({
      method: "POST",
      url: "/api/profile/me",
      headers: {
        authorization: `Bearer ${token}`,
        ...(contentType ? { "content-type": contentType } : {}),
      },
      payload,
    });
  const withAvatar = (data: Uint8Array, type = "image/png", name = "me.png") => {
    const body = new FormData();
    body.append("bio", BIO);
    body.append("avatar", new Blob([data], { type }), name);
    return body;
  };

  /** The answer is a client error as `{ message, code }`, and the profile did not change. */
  async function expectRefused(res: Awaited<ReturnType<typeof upload>>, label = "") {
    expect(res.statusCode, `${label} ${res.body}`).toBeGreaterThanOrEqual(400);
    expect(res.statusCode, `${label} ${res.body}`).toBeLessThan(500);
    expect(res.json(), label).toMatchObject({
      message: expect.any(String),
      code: expect.any(String),
    });
    expect(res.json().message.length).toBeGreaterThan(5);
    expect(res.body).not.toMatch(/node_modules|\.ts:\d+|stack/i);
    const profile = await client(t, token)("GET", "/api/profile/me");
    expect(profile.json().bio, label).toBe("");
  }

  const picture = (format: "png" | "jpeg" | "webp" | "gif") =>
    sharp({
      create: {
        width: 64,
        height: 48,
        channels: 3,
        background: "#808080",
        // Noise, so every byte of the file matters and a cut loses real pixel data.
        noise: { type: "gaussian", mean: 128, sigma: 40 },
      },
    })
      .toFormat(format)
      .toBuffer();

  /** A PNG that is only a valid header declaring the given size (no pixels at all). */
  function pngHeader(width: number, height: number): Buffer {
    const chunk = (type: string, data: Buffer) => {
      const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
      const out = Buffer.alloc(12 + data.length);
      out.writeUInt32BE(data.length, 0);
      body.copy(out, 4);
      out.writeUInt32BE(zlib.crc32(body), 8 + data.length);
      return out;
    };
    const ihdr = Buffer.alloc(13);
    ihdr.writeUInt32BE(width, 0);
    ihdr.writeUInt32BE(height, 4);
    ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
    return Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk("IHDR", ihdr),
      chunk("IEND", Buffer.alloc(0)),
    ]);
  }

  it("refuses random bytes under any name and declared type", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ minLength: 0, maxLength: 4096 }),
        fc.constantFrom(
          "image/png",
          "image/jpeg",
          "image/gif",
          "image/webp",
          "text/plain",
          "application/octet-stream",
          "image/svg+xml",
        ),
        fc.string({ minLength: 1, maxLength: 40 }),
        async (bytes, type, name) => {
          await expectRefused(await upload(withAvatar(bytes, type, name)), `${type} ${name}`);
        },
      ),
      { numRuns: 25 },
    );
  });

  it("refuses truncated images of every accepted format", async () => {
    const originals = {
      png: await picture("png"),
      jpeg: await picture("jpeg"),
      webp: await picture("webp"),
      gif: await picture("gif"),
    };
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...(Object.keys(originals) as (keyof typeof originals)[])),
        fc.double({ min: 0, max: 0.9, noNaN: true }),
        async (format, fraction) => {
          const whole = originals[format];
          const cut = whole.subarray(0, Math.floor(whole.length * fraction));
          await expectRefused(
            await upload(withAvatar(cut, `image/${format}`)),
            `${format} cut at ${cut.length}/${whole.length}`,
          );
        },
      ),
      { numRuns: 20 },
    );
  });

  it.each<[string, () => Promise<FormData | Buffer | string>, string?]>([
    ["a zero-byte file", async () => withAvatar(new Uint8Array(0))],
    [
      "a PNG header declaring 100000 x 100000 pixels",
      async () => withAvatar(pngHeader(100_000, 100_000)),
    ],
    ["a PNG header declaring 4097 x 1 pixels", async () => withAvatar(pngHeader(4097, 1))],
    ["a PNG header declaring 0 x 0 pixels", async () => withAvatar(pngHeader(0, 0))],
    [
      "a real PNG one pixel too wide",
      async () =>
        withAvatar(
          await sharp({ create: { width: 4097, height: 1, channels: 3, background: "#fff" } })
            .png()
            .toBuffer(),
        ),
    ],
    [
      "an HTML page labelled image/png",
      async () =>
        withAvatar(Buffer.from("<!doctype html><script>alert(1)</script>"), "image/png", "x.png"),
    ],
    [
      "a PDF",
      async () =>
        withAvatar(
          Buffer.from("%PDF-1.4\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n"),
          "application/pdf",
          "x.pdf",
        ),
    ],
    [
      "the avatar sent as a text field instead of a file",
      async () => {
        const body = new FormData();
        body.append("bio", BIO);
        body.append("avatar", (await picture("png")).toString("base64"));
        return body;
      },
    ],
    [
      "the file under another field name",
      async () => {
        const body = new FormData();
        body.append("bio", BIO);
        body.append("photo", new Blob([await picture("png")], { type: "image/png" }), "p.png");
        return body;
      },
    ],
    [
      "two avatar files",
      async () => {
        const body = withAvatar(await picture("png"));
        body.append("avatar", new Blob([await picture("png")], { type: "image/png" }), "b.png");
        return body;
      },
    ],
    [
      "many parts (200 fields)",
      async () => {
        const body = new FormData();
        body.append("bio", BIO);
        for (let i = 0; i < 200; i++) body.append(`f${i}`, "x");
        return body;
      },
    ],
    [
      "a field named __proto__",
      async () => {
        const body = new FormData();
        body.append("bio", BIO);
        body.append("__proto__", "polluted");
        return body;
      },
    ],
    [
      "a field over the 16 KiB field limit",
      async () => {
        const body = new FormData();
        body.append("bio", BIO);
        body.append("location", "x".repeat(20_000));
        return body;
      },
    ],
    ["a multipart body without a boundary", async () => `--x\r\n\r\n${BIO}`, "multipart/form-data"],
    [
      "a multipart body cut off mid-part",
      async () =>
        `--b0undary\r\nContent-Disposition: form-data; name="bio"\r\n\r\n${BIO}\r\n--b0undary\r\nContent-Disposition: form-data; name="avatar"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG`,
      "multipart/form-data; boundary=b0undary",
    ],
    ["raw image bytes instead of a form", async () => picture("png"), "image/png"],
    ["a JSON body", async () => JSON.stringify({ bio: BIO }), "application/json"],
  ])("refuses %s", async (label, build, contentType) => {
    const res = await upload(await build(), contentType);
    await expectRefused(res, label);
    // A 413 is always PAYLOAD_TOO_LARGE, whichever limit said so.
    if (res.statusCode === 413) expect(res.json().code).toBe("PAYLOAD_TOO_LARGE");
  });

  it("judges by content, not by the declared type, and stays up after all of the above", async () => {
    // A real PNG labelled text/plain is still a PNG: accepted and re-encoded.
    const res = await upload(withAvatar(await picture("png"), "text/plain", "notes.txt"));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().bio).toBe(BIO);
    expect((await t.app.inject({ method: "GET", url: "/api/conhealth" })).statusCode).toBe(200);
  });
});

describe("security headers on the served app and the API", () => {
  /** One directive of a CSP header, as a list of sources. */
  const directive = (csp: string, name: string) =>
    csp
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .find(([n]) => n === name)
      ?.slice(1);

  const answers = {
    "index.html (GET /)": { url: "/" },
    "a client route (SPA fallback)": { url: "/session/123" },
    "a JS asset": { url: "/assets/app-abc123.js" },
    "an API answer": { url: "/api/conhealth" },
    "an API error": { url: "/api/nope" },
    "a signed-in API answer refused": { url: "/api/products" },
  };

  it.each(Object.entries(answers))("%s carries the security headers", async (_label, { url }) => {
    const res = await shared.app.inject({ method: "GET", url });
    expect(res.statusCode).toBeLessThan(500);
    const h = res.headers;
    const csp = String(h["content-security-policy"]);
    // Scripts only from our own origin: no inline code, no eval, nothing from elsewhere.
    const scripts = directive(csp, "script-src") ?? directive(csp, "default-src");
    expect(scripts).toEqual(["'self'"]);
    expect(directive(csp, "default-src")).toEqual(["'self'"]);
    expect(directive(csp, "object-src")).toEqual(["'none'"]);
    expect(directive(csp, "base-uri")).toEqual(["'self'"]);
    expect(directive(csp, "frame-ancestors")).toEqual(["'none'"]);
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
    expect(h["x-content-type-options"]).toBe("nosniff");
    expect(["DENY", "SAMEORIGIN"]).toContain(h["x-frame-options"]);
    expect(h["referrer-policy"]).toMatch(
      /^(no-referrer|same-origin|strict-origin(-when-cross-origin)?)$/,
    );
    expect(h["x-powered-by"]).toBeUndefined();
    // HSTS only where it is configured (production); a local http:// server must not pin HTTPS.
    expect(h["strict-transport-security"]).toBeUndefined();
  });

  it("serves index.html and the asset themselves (so the checks above saw the web app)", async () => {
    const index = await shared.app.inject({ method: "GET", url: "/" });
    expect(index.headers["content-type"]).toMatch(/text\/html/);
    expect(index.body).toContain("<div id=root>");
    const js = await shared.app.inject({ method: "GET", url: "/assets/app-abc123.js" });
    expect(js.headers["content-type"]).toMatch(/javascript/);
    expect(js.body).toBe("console.log(1)");
  });

  it("sends HSTS in production", async () => {
    const production = await createTestApp({
      env: {
        NODE_ENV: "production",
        JWT_SECRET: "x".repeat(40),
        SMTP_URL: "smtp://mail.invalid:2525",
        WEB_DIST: web,
      },
      mailer: { send: async () => {}, close: () => {} },
    });
    try {
      for (const url of ["/", "/assets/app-abc123.js", "/api/conhealth"]) {
        const res = await production.app.inject({ method: "GET", url });
        expect(res.headers["strict-transport-security"], url).toMatch(/max-age=\d{7,}/);
        expect(res.headers["x-powered-by"]).toBeUndefined();
      }
    } finally {
      await production.close();
    }
  });
});

describe("no user data in the logs", () => {
  /** The log lines (JSON) that mention any of the secrets, with the secret named. */
  function leaks(log: string, secrets: Record<string, string>): string[] {
    const found: string[] = [];
    for (const line of log.split("\n").filter((l) => l.startsWith("{"))) {
      for (const [what, secret] of Object.entries(secrets)) {
        // Digits-only secrets (codes) must stand alone, not be part of a time or a number.
        const pattern = /^\d+$/.test(secret)
          ? new RegExp(`(?<![\\d.])${secret}(?!\\d)`)
          : new RegExp(secret.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "i");
        if (pattern.test(line)) found.push(`${what}: ${line.slice(0, 300)}`);
      }
    }
    return found;
  }

  it("holds through a whole journey, logged at the most verbose level", async () => {
    const secrets: Record<string, string> = {};
    let lines = 0;
    const log = await captureLog(async () => {
      const t = await createTestApp({ env: { LOG_LEVEL: "trace" } });
      try {
        const post = (url: string, payload: object, token?: string) =>
          t.app.inject({
            method: "POST",
            url,
            payload,
            ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}),
          });
        const email = uniqueEmail("diary");
        const newPassword = "lantern-quarry-93";
        Object.assign(secrets, {
          email,
          "email, URL-encoded": encodeURIComponent(email),
          "email's local part": email.split("@")[0]!,
          password: PASSWORD,
          "new password": newPassword,
          "wrong password": "wrong-horse-77",
          "phone number": "+33 6 12 34 56 78",
          "session passcode": "tulip-secret",
          "Authorization header": "Bearer ",
        });

        // Register with email and password, verify the code.
        const registered = await post("/api/auth/register", {
          name: "Dee",
          email,
          password: PASSWORD,
        });
        expect(registered.statusCode).toBe(201);
        const userId = registered.json().userId as string;
        secrets["register code"] = await latestCode(t.database, email);
        const verified = await post("/api/auth/verify-otp", {
          userId,
          code: secrets["register code"],
        });
        expect(verified.statusCode).toBe(200);
        secrets["first token"] = verified.json().token;
        // The web app's navigation bar draws the generated avatar of the signed-in user's email.
        const avatar = await t.app.inject({
          method: "GET",
          url: `/api/avatars/${encodeURIComponent(email)}.svg`,
        });
        expect(avatar.statusCode).toBe(200);

        // A wrong password, then login; a wrong code, then the right one.
        expect(
          (await post("/api/auth/login", { email, password: "wrong-horse-77" })).statusCode,
        ).toBe(401);
        expect((await post("/api/auth/login", { email, password: PASSWORD })).statusCode).toBe(200);
        secrets["login code"] = await latestCode(t.database, email);
        const wrongCode = secrets["login code"] === "000000" ? "111111" : "000000";
        expect((await post("/api/auth/verify-otp", { userId, code: wrongCode })).statusCode).toBe(
          400,
        );
        const login = await post("/api/auth/verify-otp", { userId, code: secrets["login code"] });
        expect(login.statusCode).toBe(200);
        const token = login.json().token as string;
        secrets["login token"] = token;
        const as = client(t, token);

        // Update the profile (with an avatar) and the password.
        const form = new FormData();
        form.append("name", "Dee Diary");
        form.append("phoneNumber", secrets["phone number"]!);
        form.append(
          "avatar",
          new Blob(
            [
              await sharp({ create: { width: 8, height: 8, channels: 3, background: "#f97316" } })
                .png()
                .toBuffer(),
            ],
            { type: "image/png" },
          ),
          "me.png",
        );
        const profile = await t.app.inject({
          method: "POST",
          url: "/api/profile/me",
          headers: { authorization: `Bearer ${token}` },
          payload: form,
        });
        expect(profile.statusCode, profile.body).toBe(200);
        t.clock.advance(61_000);
        const change = await as("PATCH", "/api/auth/update-credentials", {
          password: newPassword,
          currentPassword: PASSWORD,
        });
        expect(change.statusCode, change.body).toBe(200);
        secrets["update code"] = await latestCode(t.database, email);
        const changed = await post("/api/auth/verify-otp", {
          userId,
          code: secrets["update code"],
        });
        expect(changed.statusCode).toBe(200);
        const fresh = changed.json().token as string;
        secrets["token after the change"] = fresh;
        const me = client(t, fresh);

        // Shop: a session with a passcode, a product in its cart.
        const session = await me("POST", "/api/sessions", {
          sessionName: "Market day",
          sessionType: "Solo",
          participants: "1",
          passcode: secrets["session passcode"],
        });
        expect(session.statusCode).toBe(201);
        const [product] = (await me("GET", "/api/products?limit=1")).json().products;
        const added = await me("POST", `/api/carts/${session.json().session.cartId}/product`, {
          productId: product._id,
        });
        expect(added.statusCode).toBe(200);

        // Refresh and sign out.
        const refreshed = await post("/api/auth/refresh-token", {}, fresh);
        expect(refreshed.statusCode).toBe(200);
        secrets["refreshed token"] = refreshed.json().token;
        expect((await post("/api/auth/logout", {}, refreshed.json().token)).statusCode).toBe(204);
      } finally {
        await t.close();
      }
    });
    // A JWT is header.payload.signature; the header is the same for every token, the rest not.
    for (const name of Object.keys(secrets).filter((k) => k.includes("token"))) {
      const [, payload, signature] = secrets[name]!.split(".");
      secrets[`${name} (payload)`] = payload!;
      secrets[`${name} (signature)`] = signature!;
    }
    lines = log.split("\n").filter((l) => l.startsWith("{")).length;
    // The log did capture the journey (one line per request at least) ...
    expect(lines).toBeGreaterThan(30);
    expect(log).toContain('"url":"/api/auth/register"');
    // ... and none of it names the user's secrets or contact details.
    expect(leaks(log, secrets)).toEqual([]);
  });

  it("holds when a request fails unexpectedly (the failed query is logged, its values not)", async () => {
    const email = uniqueEmail("outage");
    let status = 0;
    const log = await captureLog(async () => {
      const t = await createTestApp({ env: { LOG_LEVEL: "info" } });
      await t.database.close();
      const res = await t.app.inject({
        method: "POST",
        url: "/api/auth/register",
        payload: { name: "Oona", email, password: PASSWORD },
      });
      status = res.statusCode;
      await t.app.close().catch(() => {});
    });
    expect(status).toBeGreaterThanOrEqual(500);
    // The error itself is there to debug with ...
    expect(log).toMatch(/"level":50.*Failed query/);
    // ... without the email it was looking up, nor the password.
    expect(
      leaks(log, { email, "email's local part": email.split("@")[0]!, password: PASSWORD }),
    ).toEqual([]);
  });
});
