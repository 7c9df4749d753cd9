import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config.ts";

describe("config", () => {
  it("has defaults that run locally with nothing set", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      env: "development",
      port: 3000,
      databaseUrl: undefined,
      smtpUrl: undefined,
      appOrigin: "http://localhost:3000",
    });
    expect(config.dataDir).toMatch(/data$/);
  });

  it("takes the app's origin from PORT unless APP_ORIGIN says", () => {
    expect(loadConfig({ PORT: "3777" }).appOrigin).toBe("http://localhost:3777");
    expect(loadConfig({ PORT: "3777", APP_ORIGIN: "https://cartner.example/" }).appOrigin).toBe(
      "https://cartner.example",
    );
    // Other schemes have the origin "null", which sandboxed and data: pages send too.
    expect(() => loadConfig({ APP_ORIGIN: "file:///srv/cartner" })).toThrow(/APP_ORIGIN/);
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

  it("refuses a short JWT_SECRET", () => {
    expect(() => loadConfig({ JWT_SECRET: "short" })).toThrow(/JWT_SECRET/);
  });
});
