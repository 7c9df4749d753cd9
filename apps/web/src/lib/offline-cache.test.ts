// A real IndexedDB in memory (jsdom has none): the cache is written and read as in a browser.
import "fake-indexeddb/auto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MutationObserver, QueryClient, QueryObserver, onlineManager } from "@tanstack/react-query";
import { get, set, createStore } from "idb-keyval";
import {
  CACHE_VERSION,
  OFFLINE_MAX_AGE_MS,
  forgetOfflineCache,
  keepOfflineCache,
  restoreOfflineCache,
} from "./offline-cache.ts";

const ANN = "a0000000-0000-4000-8000-000000000001";
const BEN = "b0000000-0000-4000-8000-000000000002";
const WRITES = ["cart-write"];

/** A client as the app has it: cart writes have defaults, so restored ones can be sent. */
function client(send = vi.fn(async (_write: unknown) => ({ ok: true }))) {
  const queryClient = new QueryClient();
  queryClient.setMutationDefaults(WRITES, { mutationFn: send, scope: { id: "cart-writes" } });
  return { queryClient, send };
}

const queue = (queryClient: QueryClient, write: { op: string; key: string }) =>
  void new MutationObserver<unknown, Error, typeof write>(queryClient, {
    mutationKey: WRITES,
  }).mutate(write);

/** Ann saw her carts, then queued a change while offline; the copy is saved, then the tab closes. */
async function annWentOffline() {
  const { queryClient } = client();
  queryClient.setQueryData(["carts"], [{ _id: "c-1", itemCount: 2 }]);
  onlineManager.setOnline(false);
  queue(queryClient, { op: "add", key: "k-1" });
  const stop = keepOfflineCache(queryClient, ANN);
  queryClient.setQueryData(["products"], ["tea"]);
  // The mutation cache changed after keeping started: saved at once.
  queue(queryClient, { op: "add", key: "k-2" });
  await vi.waitFor(async () => {
    const restored = new QueryClient();
    await restoreOfflineCache(restored, ANN);
    expect(restored.getMutationCache().getAll()).toHaveLength(2);
  });
  stop(true);
  await new Promise((resolve) => setTimeout(resolve, 50));
}

afterEach(async () => {
  onlineManager.setOnline(true);
  vi.useRealTimers();
  await forgetOfflineCache(ANN);
  await forgetOfflineCache(BEN);
});

describe("the offline copy", () => {
  it("gives a reload the last data seen and the queued changes, which are sent once online", async () => {
    await annWentOffline();
    const { queryClient, send } = client();
    await restoreOfflineCache(queryClient, ANN);
    expect(queryClient.getQueryData(["carts"])).toEqual([{ _id: "c-1", itemCount: 2 }]);
    expect(queryClient.getQueryData(["products"])).toEqual(["tea"]);
    const queued = queryClient.getMutationCache().getAll();
    expect(queued.map((m) => [m.state.variables, m.state.isPaused])).toEqual([
      [{ op: "add", key: "k-1" }, true],
      [{ op: "add", key: "k-2" }, true],
    ]);

    onlineManager.setOnline(true);
    await queryClient.resumePausedMutations();
    expect(send.mock.calls.map(([write]) => write)).toEqual([
      { op: "add", key: "k-1" },
      { op: "add", key: "k-2" },
    ]);
  });

  it("shows a restored view at once and asks the server again, even a view kept fresh by events", async () => {
    await annWentOffline();
    onlineManager.setOnline(true);
    const { queryClient } = client();
    await restoreOfflineCache(queryClient, ANN);
    // Like the activity log: never stale by time, refetched on live events only.
    const fetchCarts = vi.fn(async () => [{ _id: "c-1", itemCount: 3 }]);
    const observer = new QueryObserver(queryClient, {
      queryKey: ["carts"],
      queryFn: fetchCarts,
      staleTime: Infinity,
    });
    expect(observer.getCurrentResult().data).toEqual([{ _id: "c-1", itemCount: 2 }]);
    const stop = observer.subscribe(() => {});
    await vi.waitFor(() => expect(fetchCarts).toHaveBeenCalledTimes(1));
    await vi.waitFor(() =>
      expect(queryClient.getQueryData(["carts"])).toEqual([{ _id: "c-1", itemCount: 3 }]),
    );
    stop();
  });

  it("saves what the client held before keeping started, with no change after it", async () => {
    const { queryClient } = client();
    queryClient.setQueryData(["products"], ["tea"]);
    const stop = keepOfflineCache(queryClient, ANN);
    await vi.waitFor(
      async () => {
        const restored = new QueryClient();
        await restoreOfflineCache(restored, ANN);
        expect(restored.getQueryData(["products"])).toEqual(["tea"]);
      },
      { timeout: 3000 },
    );
    stop(false);
  });

  it("is per user, and gone after sign-out", async () => {
    await annWentOffline();
    const ben = new QueryClient();
    await restoreOfflineCache(ben, BEN);
    expect(ben.getQueryData(["carts"])).toBeUndefined();
    expect(ben.getMutationCache().getAll()).toHaveLength(0);

    await forgetOfflineCache(ANN);
    const again = new QueryClient();
    await restoreOfflineCache(again, ANN);
    expect(again.getQueryData(["carts"])).toBeUndefined();
  });

  it("drops a copy older than a day (the server keeps keys that long)", async () => {
    await annWentOffline();
    vi.useFakeTimers({ now: Date.now() + OFFLINE_MAX_AGE_MS + 1000, toFake: ["Date"] });
    const late = new QueryClient();
    await restoreOfflineCache(late, ANN);
    expect(late.getQueryData(["carts"])).toBeUndefined();
    expect(late.getMutationCache().getAll()).toHaveLength(0);
  });

  it("keeps an older version's queued changes but not its answers, whose shape has changed", async () => {
    await annWentOffline();
    const store = createStore("cartner-offline", "query-cache");
    const saved = await get<{ version: number }>(`user:${ANN}`, store);
    await set(`user:${ANN}`, { ...saved, version: CACHE_VERSION - 1 }, store);
    const { queryClient, send } = client();
    await restoreOfflineCache(queryClient, ANN);
    expect(queryClient.getQueryData(["carts"])).toBeUndefined();
    onlineManager.setOnline(true);
    await queryClient.resumePausedMutations();
    expect(send.mock.calls.map(([write]) => write)).toEqual([
      { op: "add", key: "k-1" },
      { op: "add", key: "k-2" },
    ]);
  });

  it("puts nothing back for a user who signed out while it was read", async () => {
    await annWentOffline();
    const queryClient = new QueryClient();
    await restoreOfflineCache(queryClient, ANN, () => false);
    expect(queryClient.getQueryData(["carts"])).toBeUndefined();
  });
});
