import { beforeEach, describe, expect, it, vi } from "vitest";
import { QueryClient, QueryObserver, type QueryKey } from "@tanstack/react-query";
import type { LiveEvent } from "@cartner/contract";
import { cartKeys, cartMutationKeys } from "../../api/carts.ts";
import { orderKeys } from "../../api/orders.ts";
import { productKeys } from "../../api/products.ts";
import { sessionKeys } from "../../api/sessions.ts";
import { setUser } from "../../lib/storage.ts";
import { registerNavigator } from "../../lib/navigation.ts";
import { applyLiveEvent, createVersionFilter, invalidateAllLive } from "./live-events.ts";

/** Every query the app keeps for sessions and carts, for session s-1 / cart c-1 and another one. */
const keys: Record<string, QueryKey> = {
  sync: sessionKeys.sync(),
  mine: sessionKeys.mine(),
  detail: sessionKeys.detail("s-1"),
  links: sessionKeys.links("s-1"),
  activity: sessionKeys.activity("s-1"),
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
  buyAgain: cartKeys.buyAgain("c-1", 12),
  otherBuyAgain: cartKeys.buyAgain("c-2", 12),
  orders: orderKeys.list(),
  order: orderKeys.detail("o-1"),
  balances: orderKeys.balances(),
  productList: productKeys.list("q=milk"),
  product: productKeys.detail("p-1"),
  otherProduct: productKeys.detail("p-2"),
};

const ME = { _id: "u-me", name: "Ann", email: "ann@example.com", roles: [] };

/** Session s-1 ("Family shop", code K7QM2XWP) with the signed-in user in it as `role`. */
function sessionWithMe(role: string) {
  return {
    _id: "s-1",
    sessionName: "Family shop",
    sessionCode: "K7QM2XWP",
    creator: { _id: role === "creator" ? ME._id : "u-other" },
    invitedUsers: [{ userId: ME._id, role }],
  };
}

function seeded(role = "creator"): QueryClient {
  const client = new QueryClient();
  for (const key of Object.values(keys)) client.setQueryData(key, { cached: true });
  client.setQueryData(keys.detail!, sessionWithMe(role));
  return client;
}

/** The names of the queries an event marks stale, sorted (once the session's refetch is done). */
async function invalidatedBy(event: LiveEvent, client = seeded()): Promise<string[]> {
  applyLiveEvent(client, event);
  await new Promise((resolve) => setTimeout(resolve, 0));
  return Object.entries(keys)
    .filter(([, key]) => client.getQueryState(key)?.isInvalidated)
    .map(([name]) => name)
    .sort();
}

beforeEach(() => setUser(ME));

describe("live events", () => {
  it("order.placed refetches orders, balances, carts and the session; order.updated orders and Buy again", async () => {
    expect(await invalidatedBy({ type: "order.placed", sessionId: "s-1", orderId: "o-1" })).toEqual(
      [
        "balances",
        "buyAgain",
        "cartLookup",
        "carts",
        "detail",
        "history",
        "joinRequests",
        "links",
        "mine",
        "order",
        "orders",
        "otherBuyAgain",
        "otherCartLookup",
        "otherSummary",
        "sessionCartLookup",
        "summary",
        "sync",
      ],
    );
    // What was paid may have changed: every cart's Buy again reads the orders again.
    expect(
      await invalidatedBy({ type: "order.updated", sessionId: "s-1", orderId: "o-1" }),
    ).toEqual(["balances", "buyAgain", "order", "orders", "otherBuyAgain"]);
  });

  it("cart.updated refetches that cart, its summary, its Buy again, the carts list and the session's total", async () => {
    expect(
      await invalidatedBy({ type: "cart.updated", sessionId: "s-1", cartId: "c-1", version: 3 }),
    ).toEqual([
      "buyAgain",
      "cartLookup",
      "carts",
      "detail",
      "mine",
      "sessionCartLookup",
      "summary",
    ]);
  });

  it("catalog.updated refetches the product lists, the products it names and the cart's Buy again, nothing else", async () => {
    expect(
      await invalidatedBy({
        type: "catalog.updated",
        sessionId: "s-1",
        cartId: "c-1",
        productIds: ["p-1"],
        version: 4,
      }),
    ).toEqual(["buyAgain", "product", "productList"]);
  });

  it("cart.updated leaves the cart alone while our own line change is on its way", async () => {
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
      await invalidatedBy(
        { type: "cart.updated", sessionId: "s-1", cartId: "c-1", version: 3 },
        client,
      ),
    ).toEqual(["buyAgain", "detail", "mine"]);
  });

  it("session.updated refetches the session, the session lists and invites, and the creator's links and join requests", async () => {
    expect(await invalidatedBy({ type: "session.updated", sessionId: "s-1", version: 5 })).toEqual([
      "detail",
      "invites",
      "joinRequests",
      "links",
      "mine",
      "sync",
    ]);
  });

  it.each(["member.joined", "member.left"] as const)(
    "%s refetches those and my own waiting join requests too",
    async (type) => {
      expect(await invalidatedBy({ type, sessionId: "s-1", version: 5 })).toEqual([
        "detail",
        "invites",
        "joinRequests",
        "links",
        "mine",
        "myJoinRequests",
        "sync",
      ]);
    },
  );

  it("after a hand-over, the old creator's lobby does not ask for links or join requests again", async () => {
    // The refetched session says the caller is a participant now.
    const client = seeded("creator");
    const handedOver = sessionWithMe("participant");
    // An open lobby: the session's query has an observer, so the event refetches it.
    const lobby = new QueryObserver(client, { queryKey: keys.detail!, queryFn: () => handedOver });
    const stop = lobby.subscribe(() => {});
    applyLiveEvent(client, { type: "session.updated", sessionId: "s-1", version: 6 });
    await vi.waitFor(() => expect(client.getQueryData(keys.detail!)).toEqual(handedOver));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(client.getQueryState(keys.links!)?.isInvalidated).toBe(false);
    expect(client.getQueryState(keys.joinRequests!)?.isInvalidated).toBe(false);
    stop();
  });

  it("session.ended refetches the session, the lists, and every cart view including history", async () => {
    expect(await invalidatedBy({ type: "session.ended", sessionId: "s-1", version: 9 })).toEqual([
      "buyAgain",
      "cartLookup",
      "carts",
      "detail",
      "history",
      "joinRequests",
      "links",
      "mine",
      "otherBuyAgain",
      "otherCartLookup",
      "otherSummary",
      "sessionCartLookup",
      "summary",
      "sync",
    ]);
  });

  it("member.removed for someone else refetches the session and every cart view", async () => {
    const names = await invalidatedBy({
      type: "member.removed",
      sessionId: "s-1",
      userId: "u-other",
      version: 4,
    });
    expect(names).toContain("detail");
    expect(names).toContain("sessionCartLookup");
    expect(names).toContain("mine");
  });

  it("member.removed for me leaves the session's page for the sessions list and drops its views", async () => {
    const went: string[] = [];
    const unregister = registerNavigator((to) => {
      went.push(to);
    });
    window.history.pushState({}, "", "/session/s-1");
    const client = seeded("participant");
    const names = await invalidatedBy(
      { type: "member.removed", sessionId: "s-1", userId: ME._id, version: 4 },
      client,
    );
    expect(went).toEqual(["/sessions"]);
    for (const dropped of ["detail", "links", "activity", "sessionCartLookup", "summary"]) {
      expect(client.getQueryState(keys[dropped]!), dropped).toBeUndefined();
    }
    expect(names).toEqual(expect.arrayContaining(["carts", "mine", "sync"]));
    // On a page of another session, the user stays where they are.
    went.length = 0;
    window.history.pushState({}, "", "/session/s-2");
    await invalidatedBy(
      { type: "member.removed", sessionId: "s-1", userId: ME._id, version: 5 },
      seeded("participant"),
    );
    expect(went).toEqual([]);
    unregister();
    window.history.pushState({}, "", "/");
  });

  it("invite.received refetches my invites; joinrequest.created the join requests", async () => {
    expect(await invalidatedBy({ type: "invite.received", sessionId: "s-1" })).toEqual(["invites"]);
    expect(
      await invalidatedBy({ type: "joinrequest.created", sessionId: "s-1", version: 2 }),
    ).toEqual(["detail", "joinRequests"]);
  });

  it("a (re)connection refetches every session, cart and product query", () => {
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
    // The shares and ready marks on the cart page refetch too (a ready mark clears on a new share).
    expect(versions.accept(at("cart.updated", 7))).toBe(true);
    expect(versions.accept(at("cart.updated", 7))).toBe(false);
    expect(versions.accept(at("session.updated", 6))).toBe(false);
    expect(versions.accept(at("cart.updated", 8))).toBe(true);
    expect(versions.accept(at("session.updated", 7))).toBe(false);
  });
});
