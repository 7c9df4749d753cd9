// A real IndexedDB in memory (jsdom has none): a reload's queue is written and read as in a browser.
import "fake-indexeddb/auto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MutationObserver, QueryClient, onlineManager } from "@tanstack/react-query";
import { forgetOfflineCache, keepOfflineCache, restoreOfflineCache } from "../lib/offline-cache.ts";
import { json, stubFetch } from "../test/fetch-stub.ts";
import { testUser } from "../test/render-app.tsx";
import { makeCart, makeLine, products } from "../test/test-carts.ts";
import { cartWrite, registerCartWrites, type CartWrite } from "./cart-writes.ts";
import { cartMutationKeys } from "./carts.ts";

/**
 * Adding something not in the catalog and editing a line's note are cart writes like the others:
 * made offline they wait in the one queue, survive a reload, and go out once each, in the order
 * made, with the Idempotency-Key made when the user acted.
 */

const mug = makeLine(testUser, products.mug, 1);
const cart = makeCart([mug]);

/** The server: every cart write answers the cart; the calls are kept in order. */
function server() {
  const answer = () => json(200, { message: "Done", cart });
  return stubFetch({
    [`POST /api/carts/${cart._id}/product`]: answer,
    [`POST /api/carts/${cart._id}/free-lines`]: answer,
    [`PATCH /api/carts/${cart._id}/lines/${mug._id}`]: answer,
  });
}

/** A query client as the app has it: the cart writes' defaults registered, mounted. */
function appClient() {
  const client = new QueryClient();
  registerCartWrites(client);
  client.mount();
  return client;
}

const queue = (client: QueryClient, write: CartWrite) =>
  void new MutationObserver<unknown, Error, CartWrite>(client, {
    mutationKey: cartMutationKeys.writes,
  })
    .mutate(write)
    .catch(() => undefined);

/** What was sent: method and path, body, key. */
function sent(fetchMock: ReturnType<typeof server>) {
  return fetchMock.mock.calls
    .filter(([, init]) => init?.method && init.method !== "GET")
    .map(([input, init]) => ({
      route: `${init!.method} ${new URL(String(input), "http://localhost").pathname}`,
      body: JSON.parse(String(init!.body)) as unknown,
      key: new Headers(init!.headers).get("Idempotency-Key"),
    }));
}

function offlineWrites() {
  return [
    cartWrite({
      op: "add",
      cartId: cart._id,
      product: { _id: "p-green-tea", name: "Green Tea", price: 4.5, imageUrl: "/tea.svg" },
    }),
    cartWrite({
      op: "freeLine",
      cartId: cart._id,
      body: { name: "Birthday candles", quantity: 2, estimatedPrice: 3.5, note: "blue ones" },
    }),
    cartWrite({
      op: "edit",
      cartId: cart._id,
      lineId: mug._id,
      name: mug.productId.name,
      body: { note: "the blue glaze", substitute: "none" },
    }),
  ];
}

const expected = (writes: CartWrite[]) => [
  {
    route: `POST /api/carts/${cart._id}/product`,
    body: { productId: "p-green-tea", quantity: 1 },
    key: writes[0]!.key,
  },
  {
    route: `POST /api/carts/${cart._id}/free-lines`,
    body: { name: "Birthday candles", quantity: 2, estimatedPrice: 3.5, note: "blue ones" },
    key: writes[1]!.key,
  },
  {
    route: `PATCH /api/carts/${cart._id}/lines/${mug._id}`,
    body: { note: "the blue glaze", substitute: "none" },
    key: writes[2]!.key,
  },
];

afterEach(async () => {
  onlineManager.setOnline(true);
  await forgetOfflineCache(testUser._id);
});

describe("free lines and line edits in the offline queue", () => {
  it("wait while offline and go out once each, in the order made, keyed, when back", async () => {
    const fetchMock = server();
    const client = appClient();
    onlineManager.setOnline(false);
    const writes = offlineWrites();
    for (const write of writes) queue(client, write);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(sent(fetchMock)).toEqual([]);
    const paused = client.getMutationCache().findAll({ mutationKey: cartMutationKeys.writes });
    expect(paused.map((m) => [(m.state.variables as CartWrite).op, m.state.isPaused])).toEqual([
      ["add", true],
      ["freeLine", true],
      ["edit", true],
    ]);

    onlineManager.setOnline(true);
    await vi.waitFor(() => expect(sent(fetchMock)).toHaveLength(3));
    await vi.waitFor(() => expect(client.isMutating()).toBe(0));
    expect(sent(fetchMock)).toEqual(expected(writes));
    client.unmount();
  });

  it("survive a reload offline and are sent once each, in order, with the keys made before", async () => {
    const fetchMock = server();
    const before = appClient();
    onlineManager.setOnline(false);
    const stop = keepOfflineCache(before, testUser._id);
    const writes = offlineWrites();
    for (const write of writes) queue(before, write);
    await vi.waitFor(async () => {
      const saved = new QueryClient();
      await restoreOfflineCache(saved, testUser._id);
      expect(saved.getMutationCache().getAll()).toHaveLength(3);
    });
    stop(true);
    before.unmount();

    // The reload: a new client, still offline, with what was saved.
    const after = appClient();
    await restoreOfflineCache(after, testUser._id);
    expect(sent(fetchMock)).toEqual([]);
    onlineManager.setOnline(true);
    await after.resumePausedMutations();
    await vi.waitFor(() => expect(sent(fetchMock)).toHaveLength(3));
    await vi.waitFor(() => expect(after.isMutating()).toBe(0));
    expect(sent(fetchMock)).toEqual(expected(writes));
    after.unmount();
  });
});
