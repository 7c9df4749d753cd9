/**
 * The failure throttle behind the sign-in codes and the join requests: failures are counted per
 * condition over a sliding window, and the limit answers 429 with the whole window to wait.
 */
import fs from "node:fs/promises";
import { PGlite } from "@electric-sql/pglite";
import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/pglite";
import { afterAll, beforeAll, describe, expect, it, inject } from "vitest";
import type { Db } from "../../src/db/client.ts";
import * as schema from "../../src/db/schema.ts";
import { createAttemptLimit } from "../../src/lib/attempt-limit.ts";
import { TestClock } from "../helpers.ts";

const { otpFailures } = schema;
const WINDOW_MS = 10 * 60 * 1000;
let client: PGlite;
let db: Db;
const clock = new TestClock();

beforeAll(async () => {
  const dump = await fs.readFile(inject("pgliteTemplate"));
  client = await PGlite.create({ loadDataDir: new Blob([dump]) });
  db = drizzle(client, { schema }) as unknown as Db;
});
afterAll(async () => client.close());

const limitFor = () => createAttemptLimit({ db, clock, table: otpFailures, windowMs: WINDOW_MS });
const from = (address: string) => eq(otpFailures.address, address);

describe("createAttemptLimit", () => {
  it("counts the failures that match, stamped with the clock's time", async () => {
    const limit = limitFor();
    await limit.record({ address: "10.0.0.1", emailDigest: "a" });
    await limit.record({ address: "10.0.0.1", emailDigest: "b" });
    await limit.record({ address: "10.0.0.2", emailDigest: "a" });
    expect(await limit.failures(from("10.0.0.1"))).toBe(2);
    expect(await limit.failures(from("10.0.0.2"))).toBe(1);
    expect(await limit.failures(from("10.0.0.3"))).toBe(0);
    const [row] = await db.select().from(otpFailures).where(from("10.0.0.2"));
    expect(row?.createdAt.getTime()).toBe(clock.now().getTime());
  });

  it("forgets failures once they are older than the window", async () => {
    const limit = limitFor();
    await limit.record({ address: "10.0.1.1" });
    clock.advance(WINDOW_MS - 1000);
    await limit.record({ address: "10.0.1.1" });
    expect(await limit.failures(from("10.0.1.1"))).toBe(2);
    clock.advance(1000);
    expect(await limit.failures(from("10.0.1.1"))).toBe(1);
    clock.advance(WINDOW_MS);
    expect(await limit.failures(from("10.0.1.1"))).toBe(0);
  });

  it("refuses with 429 and the window as Retry-After once the limit is reached", async () => {
    const limit = limitFor();
    await limit.record({ address: "10.0.2.1" });
    await expect(limit.enforce(from("10.0.2.1"), 2, "Slow down.")).resolves.toBeUndefined();
    await limit.record({ address: "10.0.2.1" });
    await expect(limit.enforce(from("10.0.2.1"), 2, "Slow down.")).rejects.toMatchObject({
      status: 429,
      code: "RATE_LIMITED",
      message: "Slow down.",
      retryAfterSeconds: WINDOW_MS / 1000,
    });
    // Another condition has its own count.
    await expect(limit.enforce(from("10.0.2.2"), 2, "Slow down.")).resolves.toBeUndefined();
  });

  it("counts every failure in the window without a condition", async () => {
    clock.advance(2 * WINDOW_MS);
    const limit = limitFor();
    await limit.record({ address: "10.0.3.1" });
    await limit.record({ address: "10.0.3.2" });
    expect(await limit.failures()).toBe(2);
    expect(limitFor().refuse("No.")).toMatchObject({ status: 429, retryAfterSeconds: 600 });
  });
});
