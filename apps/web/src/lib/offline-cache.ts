import { dehydrate, hydrate, type DehydratedState, type QueryClient } from "@tanstack/react-query";
import { createStore, del, get, set, type UseStore } from "idb-keyval";

/**
 * The last data a user saw, and their cart changes not yet sent, kept in IndexedDB per user: a
 * reload without signal still shows their carts, lobby and the marketplace, and queued changes go
 * out once the connection is back. Nothing of one user is readable by the next: the entry is keyed
 * by user id and deleted on sign-out.
 */

/**
 * Bump when the shape of cached answers changes: an older version's answers are dropped, not
 * misread (2: cart lines carry the price members last saw, `seenPrice`). Its queued changes are
 * kept, since they are requests the API still takes.
 */
export const CACHE_VERSION = 2;
/** As long as the server keeps an Idempotency-Key (24 h): an older queued change is dropped. */
export const OFFLINE_MAX_AGE_MS = 24 * 60 * 60 * 1000;
/** Writes are batched: at most one IndexedDB write per second while the cache changes. */
const SAVE_DELAY_MS = 1000;

interface Saved {
  version: number;
  savedAt: number;
  state: DehydratedState;
}

let store: UseStore | undefined;
const db = () => (store ??= createStore("cartner-offline", "query-cache"));
const keyOf = (userId: string) => `user:${userId}`;

/** Successful answers, and every change still pending (queued, or on its way when the page closed). */
export function snapshot(client: QueryClient): DehydratedState {
  const state = dehydrate(client, {
    shouldDehydrateQuery: (query) => query.state.status === "success",
    shouldDehydrateMutation: (mutation) =>
      mutation.state.status === "pending" && mutation.options.mutationKey !== undefined,
  });
  // A change on its way when the page closed may or may not have reached the server: marked as
  // paused it is sent again on the next start, with its key, so the server applies it once.
  return {
    ...state,
    mutations: state.mutations.map((m) => ({ ...m, state: { ...m.state, isPaused: true } })),
  };
}

/**
 * Puts the user's saved data into the client. A copy older than a day is dropped; one saved by
 * another version of the app gives back only its queued changes.
 */
export async function restoreOfflineCache(
  client: QueryClient,
  userId: string,
  /** Checked after the read: a user who signed out meanwhile gets nothing put back. */
  stillWanted: () => boolean = () => true,
): Promise<void> {
  const saved = await get<Saved>(keyOf(userId), db());
  if (!saved || !stillWanted()) return;
  if (Date.now() - saved.savedAt > OFFLINE_MAX_AGE_MS) {
    await del(keyOf(userId), db());
    return;
  }
  if (saved.version !== CACHE_VERSION) {
    hydrate(client, { ...saved.state, queries: [] });
    return;
  }
  // Hydrating keeps whatever the client already has that is newer than the saved copy.
  hydrate(client, saved.state);
  // A saved copy is what the user last saw: each view shows it at once and asks the server again
  // when it is used, also the views that otherwise wait for a live event to refetch (the socket's
  // "ready" may have come before the copy was read, with nothing yet to invalidate).
  const restored = new Set(saved.state.queries.map((q) => q.queryHash));
  await client.invalidateQueries({
    predicate: (query) => restored.has(query.queryHash),
    refetchType: "none",
  });
}

/** Saves the user's cache whenever it changes (batched); returns a function that stops saving. */
export function keepOfflineCache(client: QueryClient, userId: string): (flush: boolean) => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const save = () => {
    timer = undefined;
    const value: Saved = { version: CACHE_VERSION, savedAt: Date.now(), state: snapshot(client) };
    set(keyOf(userId), value, db()).catch((error: unknown) => {
      console.error("Could not keep the offline copy:", error);
    });
  };
  const schedule = () => {
    timer ??= setTimeout(save, SAVE_DELAY_MS);
  };
  // A queued change is saved at once: a reload right after it must still find it.
  const scheduleNow = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(save, 0);
  };
  // A page being closed or hidden saves at once (a queued change must not wait for the timer).
  const onHide = () => {
    if (timer === undefined) return;
    clearTimeout(timer);
    save();
  };
  const stopQueries = client.getQueryCache().subscribe(schedule);
  const stopMutations = client.getMutationCache().subscribe(scheduleNow);
  window.addEventListener("pagehide", onHide);
  document.addEventListener("visibilitychange", onHide);
  // What arrived before keeping started (the page's first answers come while the copy is read) is
  // saved too: otherwise it waited for the next change, and a reload before one lost it.
  schedule();
  return (flush) => {
    stopQueries();
    stopMutations();
    window.removeEventListener("pagehide", onHide);
    document.removeEventListener("visibilitychange", onHide);
    if (timer !== undefined) {
      clearTimeout(timer);
      if (flush) save();
    }
  };
}

/** Sign-out: the user's saved data and queued changes are deleted from this device. */
export async function forgetOfflineCache(userId: string): Promise<void> {
  await del(keyOf(userId), db());
}
