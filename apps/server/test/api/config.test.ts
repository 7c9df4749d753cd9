import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config.ts";
import { client, createTestApp, signUp, type TestApp } from "../helpers.ts";
import { listenForLive, open } from "../live-peers.ts";

describe("config", () => {
  it("has defaults that run locally with nothing set", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      env: "development",
      port: 3000,
      databaseUrl: undefined,
      smtpUrl: undefined,
      publicUrl: "http://localhost:3000",
      allowedOrigins: ["http://localhost:3000"],
    });
    expect(config.dataDir).toMatch(/data$/);
  });

  it("takes the public URL from PUBLIC_URL, else APP_ORIGIN (its older name), else PORT", () => {
    expect(loadConfig({ PORT: "3777" }).publicUrl).toBe("http://localhost:3777");
    expect(loadConfig({ PORT: "3777", APP_ORIGIN: "https://cartner.example/" })).toMatchObject({
      publicUrl: "https://cartner.example",
      allowedOrigins: ["https://cartner.example"],
    });
    expect(loadConfig({ PORT: "3777", PUBLIC_URL: "https://cartner.example/" })).toMatchObject({
      publicUrl: "https://cartner.example",
      allowedOrigins: ["https://cartner.example"],
    });
    // Both set to one origin (npm run dev passes an exported APP_ORIGIN on as PUBLIC_URL).
    expect(
      loadConfig({ PUBLIC_URL: "https://cartner.example", APP_ORIGIN: "https://cartner.example/" })
        .publicUrl,
    ).toBe("https://cartner.example");
    // Other schemes have the origin "null", which sandboxed and data: pages send too.
    expect(() => loadConfig({ APP_ORIGIN: "file:///srv/cartner" })).toThrow(/APP_ORIGIN/);
    expect(() => loadConfig({ PUBLIC_URL: "file:///srv/cartner" })).toThrow(/PUBLIC_URL/);
  });

  it("allows PUBLIC_URL's origin and every origin in ALLOWED_ORIGINS, images staying on PUBLIC_URL", () => {
    expect(
      loadConfig({
        PUBLIC_URL: "https://cartner.example",
        ALLOWED_ORIGINS:
          " https://partner.example, http://localhost:8100/ ,,https://cartner.example",
      }),
    ).toMatchObject({
      publicUrl: "https://cartner.example",
      allowedOrigins: [
        "https://cartner.example",
        "https://partner.example",
        "http://localhost:8100",
      ],
    });
    expect(
      loadConfig({
        APP_ORIGIN: "https://cartner.example",
        ALLOWED_ORIGINS: "https://partner.example",
      }),
    ).toMatchObject({
      publicUrl: "https://cartner.example",
      allowedOrigins: ["https://cartner.example", "https://partner.example"],
    });
  });

  it("reports every bad origin at once: a path, another scheme, a wildcard, two public URLs", () => {
    let error: unknown;
    try {
      loadConfig({
        PUBLIC_URL: "https://cartner.example/shop",
        ALLOWED_ORIGINS: "https://partner.example,*,capacitor://localhost,https://app.example/x",
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems).toEqual([
      expect.stringMatching(/^PUBLIC_URL must be an http:\/\/ or https:\/\/ origin without a path/),
      expect.stringMatching(/^ALLOWED_ORIGINS has "\*"/),
      expect.stringMatching(/^ALLOWED_ORIGINS has "capacitor:\/\/localhost"/),
      expect.stringMatching(/^ALLOWED_ORIGINS has "https:\/\/app.example\/x"/),
    ]);
    // APP_ORIGIN naming another origin than PUBLIC_URL: which one is meant is unclear.
    expect(() =>
      loadConfig({
        PORT: "nope",
        PUBLIC_URL: "https://cartner.example",
        APP_ORIGIN: "https://old.example",
      }),
    ).toThrow(/PORT[\s\S]*APP_ORIGIN is the older name of PUBLIC_URL/);
  });

  it("reports every bad variable at once", () => {
    let error: unknown;
    try {
      loadConfig({
        PORT: "nope",
        DATABASE_URL: "mysql://x",
        APP_ORIGIN: "not a url",
        LOG_LEVEL: "loud",
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join("\n");
    for (const name of ["PORT", "DATABASE_URL", "APP_ORIGIN", "LOG_LEVEL"])
      expect(problems).toContain(name);
  });

  it("requires JWT_SECRET and SMTP_URL in production", () => {
    expect(() => loadConfig({ NODE_ENV: "production" })).toThrow(/JWT_SECRET[\s\S]*SMTP_URL/);
    expect(() =>
      loadConfig({
        NODE_ENV: "production",
        JWT_SECRET: "x".repeat(40),
        SMTP_URL: "smtp://mail:25",
      }),
    ).not.toThrow();
  });

  it("leaves the per-process caches to the database unless PROCESS_CACHES says", () => {
    expect(loadConfig({}).processCaches).toBeUndefined();
    expect(loadConfig({ PROCESS_CACHES: "true" }).processCaches).toBe(true);
    expect(loadConfig({ PROCESS_CACHES: "0" }).processCaches).toBe(false);
    expect(() => loadConfig({ PROCESS_CACHES: "maybe" })).toThrow(/PROCESS_CACHES/);
  });

  it("takes CURRENCY as an ISO 4217 code with cents, USD by default", () => {
    expect(loadConfig({}).currency).toBe("USD");
    expect(loadConfig({ CURRENCY: "EUR" }).currency).toBe("EUR");
    expect(loadConfig({ CURRENCY: " gbp " }).currency).toBe("GBP");
    for (const bad of ["EURO", "XYZ", "JPY", "KWD", "12"]) {
      expect(() => loadConfig({ CURRENCY: bad }), bad).toThrow(/CURRENCY must be an ISO 4217/);
    }
  });

  it("refuses a short JWT_SECRET", () => {
    expect(() => loadConfig({ JWT_SECRET: "short" })).toThrow(/JWT_SECRET/);
  });

  it("serves metrics only with a METRICS_TOKEN of 16 characters or more", () => {
    expect(loadConfig({}).metricsToken).toBeUndefined();
    expect(loadConfig({ METRICS_TOKEN: "a".repeat(16) }).metricsToken).toBe("a".repeat(16));
    expect(() => loadConfig({ METRICS_TOKEN: "short" })).toThrow(/METRICS_TOKEN/);
  });

  it("traces only when an OTLP endpoint is set, the traces one first", () => {
    expect(loadConfig({}).otel).toBeUndefined();
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318/" }).otel).toEqual({
      tracesUrl: "http://collector:4318/v1/traces",
      serviceName: "cartner",
    });
    expect(
      loadConfig({
        OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318",
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "https://traces.example/in",
        OTEL_SERVICE_NAME: "cartner-eu",
      }).otel,
    ).toEqual({ tracesUrl: "https://traces.example/in", serviceName: "cartner-eu" });
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "collector:4318" })).toThrow(
      /OTEL_EXPORTER_OTLP_ENDPOINT/,
    );
  });
});

describe("a second allowed origin, through the API", () => {
  const PUBLIC = "https://cartner.example";
  const PARTNER = "https://partner.example";
  let t: TestApp;
  let live: string;
  beforeAll(async () => {
    t = await createTestApp({ env: { PUBLIC_URL: PUBLIC, ALLOWED_ORIGINS: PARTNER } });
    live = await listenForLive(t);
  });
  afterAll(() => t.close());

  it("answers CORS for the public URL and the partner, and no one else", async () => {
    const preflight = (origin: string) =>
      t.app.inject({
        method: "OPTIONS",
        url: "/api/products",
        headers: { origin, "access-control-request-method": "GET" },
      });
    for (const origin of [PUBLIC, PARTNER]) {
      expect((await preflight(origin)).headers["access-control-allow-origin"]).toBe(origin);
    }
    const evil = await preflight("https://evil.example");
    expect(evil.headers["access-control-allow-origin"]).toBeUndefined();
  });

  it("lets the partner's page open the live socket, and refuses another site's", async () => {
    for (const origin of [PUBLIC, PARTNER]) {
      const peer = open(live, { origin });
      await new Promise((resolve, reject) => {
        peer.socket.once("open", resolve);
        peer.socket.once("error", reject);
      });
      peer.socket.close();
    }
    const evil = open(live, { origin: "https://evil.example" });
    const status = await new Promise<number>((resolve) =>
      evil.socket.on("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0)),
    );
    expect(status).toBe(403);
  });

  it("keeps image and avatar URLs on the public URL, whoever asks", async () => {
    const ann = await signUp(t, "Ann");
    const products = await t.app.inject({
      method: "GET",
      url: "/api/products",
      headers: { authorization: `Bearer ${ann.token}`, origin: PARTNER },
    });
    expect(products.statusCode).toBe(200);
    expect(products.headers["access-control-allow-origin"]).toBe(PARTNER);
    const images = (products.json().products as Array<{ imageUrl: string }>).map((p) => p.imageUrl);
    expect(images.length).toBeGreaterThan(0);
    for (const url of images)
      expect(url).toMatch(/^https:\/\/cartner\.example\/api\/catalog\/images\//);
    const profile = await client(t, ann.token)("GET", "/api/profile/me");
    expect(profile.json().avatar).toBe(`${PUBLIC}/api/users/${ann.userId}/avatar`);
  });
});
