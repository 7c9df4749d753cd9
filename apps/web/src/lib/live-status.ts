import { useSyncExternalStore } from "react";

/**
 * The live socket's state, as a tiny external store: "off" while signed out (or without WebSocket
 * support), "connecting" while the tab's first socket is on its way, "up" once the server said
 * ready, "down" after a socket failed or closed, while reconnecting. The 5 s sync polls whenever it
 * is not "up"; the offline pill shows once it has been "down" for a grace period, so a quick
 * reconnect (server restart, token renewal) does not flash it. A first connection that is merely
 * slow (a busy phone, a slow network) is not "offline": only a failed one is. "limited": the server
 * refused one more socket for this account (4429), so this tab syncs every 5 s instead.
 */
export type LiveStatus = "off" | "connecting" | "up" | "down" | "limited";

export interface LiveState {
  status: LiveStatus;
  /** Down for longer than OFFLINE_GRACE_MS. */
  offline: boolean;
}

export const OFFLINE_GRACE_MS = 2_000;

let state: LiveState = { status: "off", offline: false };
let graceTimer: ReturnType<typeof setTimeout> | undefined;
const listeners = new Set<() => void>();

function update(next: LiveState): void {
  if (next.status === state.status && next.offline === state.offline) return;
  state = next;
  for (const listener of listeners) listener();
}

export function setLiveStatus(status: LiveStatus): void {
  if (status === state.status) return;
  clearTimeout(graceTimer);
  graceTimer = undefined;
  if (status === "down") {
    graceTimer = setTimeout(() => update({ status: "down", offline: true }), OFFLINE_GRACE_MS);
  }
  update({ status, offline: false });
}

export function getLiveState(): LiveState {
  return state;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useLiveState(): LiveState {
  return useSyncExternalStore(subscribe, getLiveState, getLiveState);
}

/** True while events arrive over the socket, so polling can stop. */
export function useLiveUp(): boolean {
  return useLiveState().status === "up";
}
