/**
 * PostgreSQL only (the embedded database's bus is in-process): while the live bus's LISTEN
 * connection is down, the instance is not ready, since it would miss other instances' changes;
 * once it is back, it is ready again.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

/** Asks ready until it answers `status`; answers that answer. */
async function readyUntil(status: number, ms: number) {
  const until = Date.now() + ms;
  for (;;) {
    const res = await t.app.inject({ method: "GET", url: "/api/health/ready" });
    if (res.statusCode === status || Date.now() > until) return res;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

it("answers 503 naming the bus while its LISTEN connection is lost, and 200 once it is back", async () => {
  expect(t.database.kind).toBe("postgres");
  expect((await readyUntil(200, 0)).statusCode).toBe(200);
  const [ended] = await t.database.rows<{ n: number }>(
    sql`select count(pg_terminate_backend(pid))::int as n from pg_stat_activity
      where datname = current_database() and query ilike 'LISTEN %'`,
  );
  expect(ended?.n).toBe(1);
  const lost = await readyUntil(503, 2_000);
  expect(lost.statusCode).toBe(503);
  expect(lost.json()).toMatchObject({
    checks: { database: "ok", migrations: "ok", bus: "failed" },
    failed: ["bus"],
  });
  expect((await readyUntil(200, 10_000)).statusCode).toBe(200);
});
