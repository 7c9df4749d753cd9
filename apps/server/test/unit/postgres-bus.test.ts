import type { FastifyBaseLogger } from "fastify";
import { describe, expect, it } from "vitest";
import { createPostgresBus, LIVE_CHANNEL } from "../../src/features/live/bus.ts";

/** A logger that keeps its warnings, for what the bus says when a NOTIFY fails. */
function keptLog() {
  const warnings: Array<{ fields: unknown; message: string }> = [];
  const log = {
    warn: (fields: unknown, message: string) => warnings.push({ fields, message }),
    info: () => {},
  } as unknown as FastifyBaseLogger;
  return { log, warnings };
}

/**
 * A bus whose NOTIFY statements are recorded and finish when the test says. Its LISTEN side
 * points nowhere: these tests are about sending (the API tests on PostgreSQL cover delivery).
 */
function recordedBus(fail = 0) {
  const statements: Array<{ channel: string; payloads: string[] }> = [];
  const finish: Array<() => void> = [];
  let failures = fail;
  const { log, warnings } = keptLog();
  const bus = createPostgresBus({
    url: "postgres://postgres@127.0.0.1:1/nowhere",
    notify: (channel, payloads) => {
      statements.push({ channel, payloads });
      if (failures > 0) {
        failures--;
        return Promise.reject(new Error("connection lost"));
      }
      return new Promise<void>((resolve) => finish.push(resolve));
    },
    log,
  });
  bus.ready.catch(() => {}); // nothing listens on port 1
  return { bus, statements, finish, warnings };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
const invalidation = { invalidate: { reads: true as const } };
const revocation = { invalidate: { auth: { userId: "u1" } } };

describe("the PostgreSQL bus", () => {
  it("sends what was published in one turn as one statement, in order, and what comes meanwhile as the next", async () => {
    const { bus, statements, finish } = recordedBus();
    bus.publish(revocation);
    bus.publish(invalidation);
    expect(statements).toEqual([]);
    await tick();
    expect(statements).toEqual([
      {
        channel: LIVE_CHANNEL,
        payloads: [JSON.stringify(revocation), JSON.stringify(invalidation)],
      },
    ]);
    bus.publish(invalidation);
    bus.publish(revocation);
    await tick();
    expect(statements).toHaveLength(1); // one statement at a time keeps the order
    finish[0]!();
    await tick();
    expect(statements[1]!.payloads).toEqual([
      JSON.stringify(invalidation),
      JSON.stringify(revocation),
    ]);
    finish[1]!();
    await bus.close();
  });

  it("retries a failed statement once, and says which messages were lost if that fails too", async () => {
    const once = recordedBus(1);
    once.bus.publish(revocation);
    await tick();
    await tick();
    expect(once.statements).toHaveLength(2);
    expect(once.statements[1]!.payloads).toEqual([JSON.stringify(revocation)]);
    once.finish[0]!();
    await tick();
    expect(once.warnings.filter((w) => w.message === "live: NOTIFY failed")).toEqual([]);
    await once.bus.close();

    const twice = recordedBus(2);
    twice.bus.publish(revocation);
    twice.bus.publish(invalidation);
    await tick();
    await tick();
    expect(twice.statements).toHaveLength(2);
    const lost = twice.warnings.filter((w) => w.message === "live: NOTIFY failed");
    expect(lost.map((w) => (w.fields as { event: string }).event)).toEqual([
      "invalidate",
      "invalidate",
    ]);
    await twice.bus.close();
  });
});
