/**
 * Deadlines with two app instances on one PostgreSQL database (this file runs only there), as
 * behind a load balancer: both take the queue's jobs, so each reminder and the automatic checkout
 * must happen once however the wake-ups fall; and two instances that start together after a
 * deadline passed while none ran both sweep it, and still make one lock and one order.
 */
import { count, eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { TestClock } from "pg-boss";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../src/app.ts";
import { openDatabase } from "../../src/db/client.ts";
import { activity as activityTable, orders } from "../../src/db/schema.ts";
import { crew, drain, keptMails, MINUTE, until } from "../deadlines-support.ts";
import { createTestApp, testConfig, type TestApp } from "../helpers.ts";

/** One secret for both, as docs/deploy.md says: a token from one works on the other. */
const env = { JWT_SECRET: "two-instances-".padEnd(48, "x") };
let t: TestApp;
let clock: TestClock;
const mails = keptMails(() => t);
const extra: FastifyInstance[] = [];

/** Another instance on the same database: its own pool, queue and workers. */
async function instance(): Promise<FastifyInstance> {
  const database = await openDatabase({
    databaseUrl: t.database.url!,
    dataDir: "memory://",
    migrate: false,
  });
  const app = await buildApp(testConfig(env), {
    database,
    queueClock: clock,
    mailer: mails.mailer,
  });
  await app.ready();
  extra.push(app);
  return app;
}

beforeAll(async () => {
  clock = new TestClock(Date.now());
  t = await createTestApp({ env, queueClock: clock, mailer: mails.mailer });
});
afterAll(async () => {
  for (const app of extra) await app.close();
  await t.close();
});

const iso = (ms: number) => new Date(ms).toISOString();

async function ordersOf(sessionId: string): Promise<number> {
  const [row] = await t.database.db
    .select({ n: count() })
    .from(orders)
    .where(eq(orders.sessionId, sessionId));
  return row!.n;
}

async function entries(sessionId: string, type: string): Promise<number> {
  const [row] = await t.database.db
    .select({ n: count() })
    .from(activityTable)
    .where(sql`${activityTable.sessionId} = ${sessionId} and ${activityTable.type} = ${type}`);
  return row!.n;
}

describe("two instances on one database", () => {
  it("send each reminder once and check out once at the deadline", async () => {
    expect(t.database.kind).toBe("postgres");
    const other = await instance();
    const f = await crew(t);
    const closesAt = clock.now() + 2 * 60 * MINUTE;
    // Set through the other instance: the jobs are the database's, not an instance's.
    const set = await other.inject({
      method: "PUT",
      url: `/api/sessions/${f.sessionId}/deadline`,
      headers: { authorization: `Bearer ${f.people.Ann.token}` },
      payload: { closesAt: iso(closesAt), remindAt: [60, 30], autoCheckout: true },
    });
    expect(set.statusCode, set.body).toBe(200);
    const reminders = () => mails.sent.filter((m) => m.text.includes(`/cart/${f.sessionId}`));

    await clock.setTime(closesAt - 60 * MINUTE);
    // Ann, Ben and Cat have not marked themselves done.
    await until(clock, () => expect(reminders()).toHaveLength(3));
    await clock.setTime(closesAt - 30 * MINUTE);
    await until(clock, () => expect(reminders()).toHaveLength(6));
    await clock.setTime(closesAt);
    await until(clock, async () => expect(await ordersOf(f.sessionId)).toBe(1));
    await drain(clock, 10);
    expect(reminders()).toHaveLength(6);
    expect(new Set(reminders().map((m) => `${m.to} ${m.subject}`)).size).toBe(6);
    expect(await ordersOf(f.sessionId)).toBe(1);
    expect(await entries(f.sessionId, "deadline.locked")).toBe(1);
    expect(await entries(f.sessionId, "order.placed")).toBe(1);
  });

  it("both sweep a deadline that passed while neither ran, and make one lock and one order", async () => {
    const f = await crew(t);
    const closesAt = clock.now() + 10 * MINUTE;
    const set = await t.app.inject({
      method: "PUT",
      url: `/api/sessions/${f.sessionId}/deadline`,
      headers: { authorization: `Bearer ${f.people.Ann.token}` },
      payload: { closesAt: iso(closesAt), remindAt: [], autoCheckout: true },
    });
    expect(set.statusCode, set.body).toBe(200);
    // Its wake-up is gone (as for a deadline no job was sent for), and its time passes.
    await t.database.db.execute(
      sql`delete from jobs.job where name = 'deadline.due' and data->>'sessionId' = ${f.sessionId}`,
    );
    await clock.setTime(closesAt + 5 * MINUTE);
    // Two instances start at once, each sweeping overdue deadlines at start.
    await Promise.all([instance(), instance()]);
    await until(clock, async () => expect(await ordersOf(f.sessionId)).toBe(1));
    await drain(clock, 10);
    expect(await ordersOf(f.sessionId)).toBe(1);
    expect(await entries(f.sessionId, "deadline.locked")).toBe(1);
    expect(await entries(f.sessionId, "order.placed")).toBe(1);
  });
});
