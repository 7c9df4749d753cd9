/**
 * Who hears of a cart line write: the members its statement read, named in its events (pending
 * requesters never), or beyond NAMED_MEMBERS_MAX the session's members read when it is delivered,
 * so no NOTIFY payload outgrows PostgreSQL's 8,000 bytes.
 */
import { describe, expect, it } from "vitest";
import { audienceOf, cartChanged, NAMED_MEMBERS_MAX } from "../../src/features/carts/events.ts";
import { LIVE_CHANNEL } from "../../src/features/live/index.ts";

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;

describe("a cart change's audience", () => {
  it("names the members, not a pending requester", () => {
    const members = [
      { userId: id(1), role: "creator" as const },
      { userId: id(2), role: "participant" as const },
      { userId: id(3), role: "viewer" as const },
      { userId: id(4), role: "pending" as const },
    ];
    const to = audienceOf("s", members);
    expect(to).toEqual({ users: [id(1), id(2), id(3)] });
    expect(cartChanged("s", "c", 7, true, to)).toEqual([
      { event: { type: "cart.updated", sessionId: "s", cartId: "c", version: 7 }, ...to },
      { event: { type: "session.updated", sessionId: "s", cartId: "c", version: 7 }, ...to },
    ]);
  });

  it("leaves a larger session's members to be read when delivered, within a NOTIFY's size", () => {
    const many = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ userId: id(i), role: "participant" as const }));
    const named = audienceOf("s", many(NAMED_MEMBERS_MAX));
    expect(named.users).toHaveLength(NAMED_MEMBERS_MAX);
    const [widest] = cartChanged(id(0), id(0), 2 ** 31, true, named);
    const payload = JSON.stringify({ ...widest, at: Date.now() });
    expect(Buffer.byteLength(payload) + LIVE_CHANNEL.length).toBeLessThan(8000);
    expect(audienceOf("s", many(NAMED_MEMBERS_MAX + 1))).toEqual({ members: "s" });
    expect(audienceOf("s")).toEqual({ members: "s" });
  });
});
