import { describe, expect, it } from "vitest";
import { appOriginTest } from "../../src/lib/origin.ts";

const isAppOrigin = (origin: string, appOrigin: string) => appOriginTest(appOrigin)(origin);

describe("appOriginTest", () => {
  it("accepts APP_ORIGIN itself", () => {
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

  it("keeps a public APP_ORIGIN exact: loopback pages are not it", () => {
    expect(isAppOrigin("http://127.0.0.1", "https://cartner.example")).toBe(false);
    expect(isAppOrigin("http://localhost:3000", "http://cartner.example:3000")).toBe(false);
  });
});
