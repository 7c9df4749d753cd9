import { describe, expect, it } from "vitest";
import { allowedOriginTest } from "../../src/lib/origin.ts";

const isAppOrigin = (origin: string, appOrigin: string) => allowedOriginTest([appOrigin])(origin);

describe("allowedOriginTest", () => {
  it("accepts an allowed origin itself", () => {
    expect(isAppOrigin("https://cartner.example", "https://cartner.example")).toBe(true);
  });

  it("accepts the same local server under another loopback name", () => {
    for (const origin of ["http://127.0.0.1:3000", "http://[::1]:3000", "http://localhost:3000"]) {
      expect(isAppOrigin(origin, "http://localhost:3000")).toBe(true);
    }
    expect(isAppOrigin("http://localhost:8080", "http://127.0.0.1:8080")).toBe(true);
  });

  it("refuses another port, another scheme or another site", () => {
    expect(isAppOrigin("http://127.0.0.1:5173", "http://localhost:3000")).toBe(false);
    expect(isAppOrigin("https://127.0.0.1:3000", "http://localhost:3000")).toBe(false);
    expect(isAppOrigin("https://evil.example", "http://localhost:3000")).toBe(false);
    expect(isAppOrigin("http://localhost.evil.example:3000", "http://localhost:3000")).toBe(false);
    expect(isAppOrigin("null", "http://localhost:3000")).toBe(false);
  });

  it("keeps a public origin exact: loopback pages are not it", () => {
    expect(isAppOrigin("http://127.0.0.1", "https://cartner.example")).toBe(false);
    expect(isAppOrigin("http://localhost:3000", "http://cartner.example:3000")).toBe(false);
  });

  it("accepts each of several origins, a loopback one under every loopback name", () => {
    const isAllowed = allowedOriginTest([
      "https://cartner.example",
      "https://partner.example",
      "http://localhost:8100",
    ]);
    for (const origin of [
      "https://cartner.example",
      "https://partner.example",
      "http://localhost:8100",
      "http://127.0.0.1:8100",
      "http://[::1]:8100",
    ]) {
      expect(isAllowed(origin), origin).toBe(true);
    }
    for (const origin of [
      "https://evil.example",
      "http://partner.example",
      "http://127.0.0.1:3000",
      "https://localhost:8100",
      "http://127.0.0.1",
    ]) {
      expect(isAllowed(origin), origin).toBe(false);
    }
  });
});
