/**
 * Health for load balancers: live answers while the process does; ready names what is not ready
 * (database, migrations, live bus) with 503. /api/conhealth (SPEC) stays as it was.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers.ts";

const ready = (t: TestApp) => t.app.inject({ method: "GET", url: "/api/health/ready" });

describe("a server whose database is up and migrated", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it("is live and ready, and /api/conhealth answers as before", async () => {
    const live = await t.app.inject({ method: "GET", url: "/api/health/live" });
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ status: "ok" });
    const res = await ready(t);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: "ok",
      checks: { database: "ok", migrations: "ok", bus: "ok" },
    });
    const conhealth = await t.app.inject({ method: "GET", url: "/api/conhealth" });
    expect(conhealth.statusCode).toBe(200);
    expect(conhealth.json()).toEqual({ status: "ok", db: "ok", devMailbox: true });
  });
});

describe("a database that lacks this code's newest migration", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    // As if the database were a release behind: its record of the newest migration is gone.
    await t.database.db.execute(
      sql`delete from drizzle.__drizzle_migrations
        where created_at = (select max(created_at) from drizzle.__drizzle_migrations)`,
    );
  });
  afterAll(async () => t.close());

  it("is live but not ready: 503 naming the migrations", async () => {
    expect((await t.app.inject({ method: "GET", url: "/api/health/live" })).statusCode).toBe(200);
    const res = await ready(t);
    expect(res.statusCode).toBe(503);
    expect(res.headers["retry-after"]).toBe("5");
    expect(res.json()).toEqual({
      message: "Not ready: migrations failed",
      code: "SERVICE_UNAVAILABLE",
      checks: { database: "ok", migrations: "failed", bus: "ok" },
      failed: ["migrations"],
      requestId: res.headers["x-request-id"],
    });
  });
});

describe("a database that no longer answers", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  // The database is closed already: closing the app closes what is left.
  afterAll(async () => t.app.close().catch(() => {}));

  it("is live but not ready: 503 naming the database", async () => {
    expect((await ready(t)).statusCode).toBe(200);
    await t.database.close();
    const live = await t.app.inject({ method: "GET", url: "/api/health/live" });
    expect(live.statusCode).toBe(200);
    const res = await ready(t);
    expect(res.statusCode).toBe(503);
    const body = res.json();
    expect(body).toMatchObject({ checks: { database: "failed", migrations: "ok" } });
    expect(body.message).toMatch(/^Not ready: database\b/);
    // On PostgreSQL the test's database is dropped, so the bus's connection ends with it (or soon).
    if (t.database.kind === "pglite") expect(body.failed).toEqual(["database"]);
    else expect(body.failed).toContain("database");
    expect((await t.app.inject({ method: "GET", url: "/api/conhealth" })).statusCode).toBe(503);
  });
});
