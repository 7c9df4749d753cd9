import { describe, expect, it } from "vitest";
import { CHECK_TIMEOUT_MS, readiness } from "../../src/features/health/readiness.ts";

const ok = { database: async () => {}, migrations: async () => true, bus: () => true };

describe("readiness()", () => {
  it("is ok when every check passes", async () => {
    expect(await readiness(ok)).toEqual({
      checks: { database: "ok", migrations: "ok", bus: "ok" },
      failed: [],
    });
  });

  it("names each check that throws, answers false, or is down", async () => {
    const result = await readiness({
      database: () => Promise.reject(new Error("connection refused")),
      migrations: async () => false,
      bus: () => false,
    });
    expect(result).toEqual({
      checks: { database: "failed", migrations: "failed", bus: "failed" },
      failed: ["database", "migrations", "bus"],
    });
  });

  it("fails a check that does not answer in time, without waiting longer", async () => {
    const started = Date.now();
    const result = await readiness({ ...ok, database: () => new Promise(() => {}) });
    expect(result.failed).toEqual(["database"]);
    expect(Date.now() - started).toBeLessThan(CHECK_TIMEOUT_MS + 1_000);
  });
});
