import { sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { TestClock } from "pg-boss";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Database } from "../../src/db/client.ts";
import { createJobs, type Jobs } from "../../src/features/jobs/queue.ts";
import { freshDatabase } from "../helpers.ts";

const quiet = { error: () => {}, warn: () => {}, info: () => {} } as unknown as FastifyBaseLogger;
const MINUTE = 60_000;

describe("the durable job queue", () => {
  let database: Database;
  let clock: TestClock;
  const running: Jobs[] = [];

  async function instance(): Promise<Jobs> {
    const jobs = createJobs({ database, log: quiet, clock, pollSeconds: 1 });
    await jobs.start();
    running.push(jobs);
    return jobs;
  }

  beforeAll(async () => {
    database = await freshDatabase();
    clock = new TestClock(Date.now());
  });
  afterAll(async () => {
    for (const jobs of running) await jobs.stop();
    await database.close();
  });

  it("runs each job once across two instances on one database", async () => {
    const seen: number[] = [];
    const a = await instance();
    const b = await instance();
    await a.work("mail.send", async (data: { n: number }) => void seen.push(data.n));
    await b.work("mail.send", async (data: { n: number }) => void seen.push(data.n));
    for (let n = 0; n < 12; n++) await (n % 2 ? a : b).send("mail.send", { n });
    await vi.waitFor(
      async () => {
        await clock.tick(1_000);
        expect(seen).toHaveLength(12);
      },
      { timeout: 20_000, interval: 50 },
    );
    expect(new Set(seen).size).toBe(12);
    await a.stop();
    await b.stop();
  });

  it("holds a job until its time on the queue's clock, and a new instance runs it after a stop", async () => {
    const first = await instance();
    await first.send("mail.send", { n: 100 }, { at: new Date(clock.now() + 60 * MINUTE) });
    await first.stop();

    const seen: number[] = [];
    const second = await instance();
    await second.work("mail.send", async (data: { n: number }) => void seen.push(data.n));
    await clock.setTime(clock.now() + 59 * MINUTE);
    await clock.tick(1_000);
    await new Promise((r) => setTimeout(r, 300));
    expect(seen).toEqual([]);
    await vi.waitFor(
      async () => {
        await clock.tick(1_000);
        expect(seen).toEqual([100]);
      },
      { timeout: 20_000, interval: 50 },
    );
    await second.stop();
  });

  it("retries a failing job later, with backoff, until it succeeds", async () => {
    const jobs = await instance();
    const attempts: number[] = [];
    await jobs.work("mail.send", async () => {
      attempts.push(clock.now());
      if (attempts.length < 3) throw new Error("the mail server is down");
    });
    await jobs.send("mail.send", { n: 1 });
    await vi.waitFor(
      async () => {
        await clock.tick(5_000);
        expect(attempts).toHaveLength(3);
      },
      { timeout: 30_000, interval: 20 },
    );
    const [t0, t1, t2] = attempts as [number, number, number];
    // 30 s before the first retry, then longer.
    expect(t1 - t0).toBeGreaterThanOrEqual(30_000);
    expect(t2 - t1).toBeGreaterThan(t1 - t0);
    await jobs.stop();
  });

  it("keeps a job sent inside a transaction only when the transaction commits", async () => {
    const jobs = await instance();
    await database.db
      .transaction(async (tx) => {
        await jobs.send("mail.send", { n: "rolled back" }, { tx });
        throw new Error("the change failed");
      })
      .catch(() => {});
    await database.db.transaction(async (tx) => {
      await jobs.send("mail.send", { n: "committed" }, { tx });
    });
    const rows = await database.rows<{ data: { n: string } }>(
      sql`select data from jobs.job where name = 'mail.send' and data->>'n' in ('rolled back', 'committed')`,
    );
    expect(rows.map((r) => r.data.n)).toEqual(["committed"]);
    await jobs.stop();
  });
});
