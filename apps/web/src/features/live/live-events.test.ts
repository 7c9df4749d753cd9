import { describe, expect, it } from "vitest";
import { QueryClient, type QueryKey } from "@tanstack/react-query";
import type { LiveEvent } from "@cartner/contract";
import { cartKeys, cartMutationKeys } from "../../api/carts-api.ts";
import { orderKeys } from "../../api/orders-api.ts";
import { sessionKeys } from "../../api/sessions-api.ts";
import { applyLiveEvent, createVersionFilter, invalidateAllLive } from "./live-events.ts";

/** Every query the app keeps for sessions and carts, for session s-1 / cart c-1 and another one. */
const keys: Record<string, QueryKey> = {
  sync: sessionKeys.sync(),
  mine: sessionKeys.mine(),
  detail: sessionKeys.detail("s-1"),
  otherDetail: sessionKeys.detail("s-2"),
  invites: sessionKeys.invites(),
  joinRequests: sessionKeys.joinRequests("K7QM2XWP"),
  myJoinRequests: sessionKeys.myJoinRequests(),
  carts: cartKeys.list(),
  history: cartKeys.history(),
  cartLookup: cartKeys.lookup("cart", "c-1"),
  sessionCartLookup: cartKeys.lookup("session", "s-1"),
  otherCartLookup: cartKeys.lookup("cart", "c-2"),
  summary: cartKeys.summary("s-1"),
  otherSummary: cartKeys.summary("s-2"),
  orders: orderKeys.list(),
  order: orderKeys.detail("o-1"),
  balances: orderKeys.balances(),
};

function seeded(): QueryClient {
  const client = new QueryClient();
  for (const key of Object.values(keys)) client.setQueryData(key, { cached: true });
  return client;
}

/** The names of the queries an event marks stale, sorted. */
function invalidatedBy(event: LiveEvent, client = seeded()): string[] {
  applyLiveEvent(client, event);
  return Object.entries(keys)
    .filter(([, key]) => client.getQueryState(key)?.isInvalidated)
    .map(([name]) => name)
    .sort();
}

describe("live events", () => {
  it("order.placed refetches orders, balances, carts and the session; order.updated only orders", () => {
    expect(invalidatedBy({ type: "order.placed", sessionId: "s-1", orderId: "o-1" })).toEqual([
      "balances",
      "cartLookup",
      "carts",
      "detail",
      "history",
      "mine",
      "order",
      "orders",
      "otherCartLookup",
      "otherSummary",
      "sessionCartLookup",
      "summary",
      "sync",
    ]);
    expect(invalidatedBy({ type: "order.updated", sessionId: "s-1", orderId: "o-1" })).toEqual([
      "balances",
      "order",
      "orders",
    ]);
  });

  it("cart.updated refetches that cart, its summary, the carts list and the session's total", () => {
    expect(
      invalidatedBy({ type: "cart.updated", sessionId: "s-1", cartId: "c-1", version: 3 }),
    ).toEqual(["cartLookup", "carts", "detail", "mine", "sessionCartLookup", "summary"]);
  });

  it("cart.updated leaves the cart alone while our own line change is on its way", () => {
    const client = seeded();
    // A line change that never answers, so it stays pending.
    void client
      .getMutationCache()
      .build(client, {
        mutationKey: cartMutationKeys.writes,
        mutationFn: () => new Promise(() => {}),
      })
      .execute(undefined);
    expect(
      invalidatedBy({ type: "cart.updated", sessionId: "s-1", cartId: "c-1", version: 3 }, client),
    ).toEqual(["detail", "mine"]);
  });

  it("session.updated refetches the session, the session lists, join requests and invites", () => {
    expect(invalidatedBy({ type: "session.updated", sessionId: "s-1", version: 5 })).toEqual([
      "detail",
      "invites",
      "joinRequests",
      "mine",
      "sync",
    ]);
  });

  it.each(["member.joined", "member.left"] as const)(
    "%s refetches those and my own waiting join requests too",
    (type) => {
      expect(invalidatedBy({ type, sessionId: "s-1", version: 5 })).toEqual([
        "detail",
        "invites",
        "joinRequests",
        "mine",
        "myJoinRequests",
        "sync",
      ]);
    },
  );

  it("session.ended refetches the session, the lists, and every cart view including history", () => {
    expect(invalidatedBy({ type: "session.ended", sessionId: "s-1", version: 9 })).toEqual([
      "cartLookup",
      "carts",
      "detail",
      "history",
      "mine",
      "otherCartLookup",
      "otherSummary",
      "sessionCartLookup",
      "summary",
      "sync",
    ]);
  });

  it("invite.received refetches my invites; joinrequest.created the join requests", () => {
    expect(invalidatedBy({ type: "invite.received", sessionId: "s-1" })).toEqual(["invites"]);
    expect(invalidatedBy({ type: "joinrequest.created", sessionId: "s-1", version: 2 })).toEqual([
      "detail",
      "joinRequests",
    ]);
  });

  it("a (re)connection refetches every session and cart query", () => {
    const client = seeded();
    invalidateAllLive(client);
    for (const key of Object.values(keys)) {
      expect(client.getQueryState(key)?.isInvalidated, String(key)).toBe(true);
    }
  });

  it("skips events not newer than one already handled for the session, until reset", () => {
    const versions = createVersionFilter();
    const at = (version: number, sessionId = "s-1"): LiveEvent => ({
      type: "cart.updated",
      sessionId,
      version,
    });
    expect(versions.accept(at(4))).toBe(true);
    expect(versions.accept(at(4))).toBe(false);
    expect(versions.accept(at(3))).toBe(false);
    expect(versions.accept(at(2, "s-2"))).toBe(true);
    expect(versions.accept(at(5))).toBe(true);
    expect(versions.accept({ type: "invite.received", sessionId: "s-1" })).toBe(true);
    versions.reset();
    expect(versions.accept(at(3))).toBe(true);
  });

  it("takes both events of one commit: a split change's session.updated, then its cart.updated", () => {
    const versions = createVersionFilter();
    const at = (type: LiveEvent["type"], version: number): LiveEvent => ({
      type,
      sessionId: "s-1",
      version,
    });
    expect(versions.accept(at("session.updated", 7))).toBe(true);
    // The shares and ready marks on the cart page refetch too (issue 29).
    expect(versions.accept(at("cart.updated", 7))).toBe(true);
    expect(versions.accept(at("cart.updated", 7))).toBe(false);
    expect(versions.accept(at("session.updated", 6))).toBe(false);
    expect(versions.accept(at("cart.updated", 8))).toBe(true);
    expect(versions.accept(at("session.updated", 7))).toBe(false);
  });
});
