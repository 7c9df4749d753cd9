/**
 * Orders kept by version with two instances on one PostgreSQL database: a write through one is
 * seen by the other's kept views at once.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { secondInstance, type TestApp, createTestApp } from "../helpers.ts";
import { expectCurrent, statusOf } from "../kept-support.ts";
import { threeWayOrder } from "../payers-support.ts";

/** One secret for both instances, as docs/deploy.md says: a token from one works on the other. */
const env = { JWT_SECRET: "orders-kept-".padEnd(48, "x") };
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env });
});
afterAll(async () => t.close());

describe("an order kept by version, on two instances", () => {
  it("a write through another instance is seen by this one's kept views", async () => {
    const f = await threeWayOrder(t);
    const id = f.order._id;
    await expectCurrent(t, f.as.creator, id);
    const other = await secondInstance(t, env);
    try {
      const paid = await other.inject({
        method: "POST",
        url: `/api/orders/${id}/paid`,
        headers: { authorization: `Bearer ${f.people.participant.token}` },
      });
      expect(paid.statusCode, paid.body).toBe(200);
    } finally {
      await other.close();
    }
    const now = await expectCurrent(t, f.as.creator, id);
    expect(statusOf(now, f.ids.ben)).toBe("paid");
  });
});
