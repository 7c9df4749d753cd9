import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { LIVE_MOVE_JITTER_MS, LiveClose } from "@cartner/contract";
import { FakeSocket, FakeWebSocket } from "../../test/fake-socket.ts";
import {
  BACKOFF_MAX_MS,
  TOKEN_SETTLE_MS,
  backoffDelay,
  liveUrl,
  parseLiveMessage,
  startLiveClient,
  type LiveClientOptions,
} from "./live-client.ts";
import type { LiveStatus } from "../../lib/live-status.ts";

let token: string | null;

function start(overrides: Partial<LiveClientOptions> = {}) {
  const statuses: LiveStatus[] = [];
  const options = {
    url: "ws://localhost:3000/api/live",
    getToken: () => token,
    refreshToken: vi.fn(async () => null as string | null),
    onStatus: (status: LiveStatus) => statuses.push(status),
    onReady: vi.fn(),
    onEvent: vi.fn(),
    WebSocket: FakeWebSocket,
    // The top of every jitter range, so delays are exact.
    random: () => 1,
    ...overrides,
  };
  const stop = startLiveClient(options);
  return { ...options, stop, statuses, status: () => statuses.at(-1) };
}

/** Lets the client's async close handling (token refresh) run. */
const settle = () => vi.advanceTimersByTimeAsync(0);

beforeEach(() => {
  vi.useFakeTimers();
  FakeSocket.reset();
  token = "token-1";
});

afterEach(() => {
  vi.useRealTimers();
});

describe("live client", () => {
  it("connects next to the page and sends the token before anything else", () => {
    expect(liveUrl("http://localhost:5173")).toBe("ws://localhost:5173/api/live");
    expect(liveUrl("https://cartner.example")).toBe("wss://cartner.example/api/live");

    const client = start();
    const socket = FakeSocket.latest();
    expect(socket.url).toBe("ws://localhost:3000/api/live");
    expect(client.status()).toBe("connecting");
    expect(socket.sent).toEqual([]);

    socket.serverOpen();
    expect(socket.sent).toEqual([{ type: "auth", token: "token-1" }]);
    expect(client.onReady).not.toHaveBeenCalled();

    socket.serverSend({ type: "ready" });
    expect(client.status()).toBe("up");
    expect(client.onReady).toHaveBeenCalledTimes(1);
  });

  it("passes events on and ignores anything it does not know", () => {
    const client = start();
    const socket = FakeSocket.latest();
    socket.serverAccept();
    socket.serverSend({ type: "cart.updated", sessionId: "s-1", cartId: "c-1", version: 4 });
    socket.serverSend({ type: "shutdown" });
    socket.onmessage?.(new MessageEvent("message", { data: "not json" }));
    expect(client.onEvent).toHaveBeenCalledTimes(1);
    expect(client.onEvent).toHaveBeenCalledWith({
      type: "cart.updated",
      sessionId: "s-1",
      cartId: "c-1",
      version: 4,
    });
    expect(parseLiveMessage(JSON.stringify({ type: "invite.received", version: "x" }))).toEqual({
      type: "invite.received",
    });
    // How a join request ended is passed on; an unknown outcome is dropped.
    const ended = { type: "member.left", sessionId: "s-1", userId: "u-1" };
    expect(parseLiveMessage(JSON.stringify({ ...ended, joinRequest: "rejected" }))).toEqual({
      ...ended,
      joinRequest: "rejected",
    });
    expect(parseLiveMessage(JSON.stringify({ ...ended, joinRequest: "maybe" }))).toEqual(ended);
  });

  it("reconnects after a close with doubling delays, and starts over once ready", async () => {
    const client = start();
    FakeSocket.latest().serverAccept();

    FakeSocket.latest().serverClose(LiveClose.RESYNC);
    await settle();
    expect(client.status()).toBe("down");
    expect(FakeSocket.instances).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(499);
    expect(FakeSocket.instances).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(FakeSocket.instances).toHaveLength(2);

    // Still unreachable: 1 s, then 2 s.
    FakeSocket.latest().serverClose(1006);
    await vi.advanceTimersByTimeAsync(999);
    expect(FakeSocket.instances).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(FakeSocket.instances).toHaveLength(3);
    FakeSocket.latest().serverError();
    await vi.advanceTimersByTimeAsync(1999);
    expect(FakeSocket.instances).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(1);
    expect(FakeSocket.instances).toHaveLength(4);

    // Back: the next outage waits 0.5 s again, and the missed events are refetched.
    FakeSocket.latest().serverAccept();
    expect(client.status()).toBe("up");
    expect(client.onReady).toHaveBeenCalledTimes(2);
    FakeSocket.latest().serverClose(LiveClose.POLICY);
    await vi.advanceTimersByTimeAsync(500);
    expect(FakeSocket.instances).toHaveLength(5);
  });

  it("keeps every delay between half and all of a ceiling that stops at 30 s", () => {
    expect(backoffDelay(0, () => 0)).toBe(250);
    expect(backoffDelay(0, () => 1)).toBe(500);
    expect(backoffDelay(3, () => 0.5)).toBe(3000);
    expect(backoffDelay(20, () => 1)).toBe(BACKOFF_MAX_MS);
    expect(backoffDelay(20, () => 0)).toBe(BACKOFF_MAX_MS / 2);
  });

  it("on 4401 refreshes the token once and reconnects with the new one at once", async () => {
    const refreshToken = vi.fn(async () => {
      token = "token-2";
      return token;
    });
    const client = start({ refreshToken });
    FakeSocket.latest().serverAccept();

    FakeSocket.latest().serverClose(LiveClose.UNAUTHORIZED);
    await settle();
    // A moment for an answer with a new token to land before refreshing the old one.
    expect(refreshToken).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(TOKEN_SETTLE_MS);
    await settle();
    expect(refreshToken).toHaveBeenCalledTimes(1);
    expect(FakeSocket.instances).toHaveLength(2);
    FakeSocket.latest().serverOpen();
    expect(FakeSocket.latest().sent).toEqual([{ type: "auth", token: "token-2" }]);

    // Refused again before ready: no second refresh, the usual backoff instead.
    FakeSocket.latest().serverClose(LiveClose.UNAUTHORIZED);
    await settle();
    expect(refreshToken).toHaveBeenCalledTimes(1);
    expect(FakeSocket.instances).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(500);
    expect(FakeSocket.instances).toHaveLength(3);

    // Once ready again, a later expiry may refresh again.
    FakeSocket.latest().serverAccept();
    FakeSocket.latest().serverClose(LiveClose.UNAUTHORIZED);
    await vi.advanceTimersByTimeAsync(TOKEN_SETTLE_MS);
    expect(refreshToken).toHaveBeenCalledTimes(2);
    expect(client.status()).toBe("down");
  });

  it("on 4401 uses a token renewed meanwhile instead of refreshing", async () => {
    const client = start();
    FakeSocket.latest().serverAccept();
    token = "token-renewed";
    FakeSocket.latest().serverClose(LiveClose.UNAUTHORIZED);
    await settle();
    expect(client.refreshToken).not.toHaveBeenCalled();
    FakeSocket.latest().serverOpen();
    expect(FakeSocket.latest().sent).toEqual([{ type: "auth", token: "token-renewed" }]);
  });

  it("stops reconnecting when the refresh fails and the user is signed out", async () => {
    const refreshToken = vi.fn(async () => {
      token = null;
      return null;
    });
    const client = start({ refreshToken });
    FakeSocket.latest().serverOpen();
    FakeSocket.latest().serverClose(LiveClose.UNAUTHORIZED);
    await vi.advanceTimersByTimeAsync(TOKEN_SETTLE_MS + BACKOFF_MAX_MS * 2);
    expect(refreshToken).toHaveBeenCalledTimes(1);
    expect(FakeSocket.instances).toHaveLength(1);
    expect(client.status()).toBe("down");
  });

  it("uses a token that arrives just after a 4401 instead of refreshing the revoked one", async () => {
    const client = start();
    FakeSocket.latest().serverAccept();
    FakeSocket.latest().serverClose(LiveClose.UNAUTHORIZED);
    await settle();
    token = "token-after-credential-change";
    await vi.advanceTimersByTimeAsync(TOKEN_SETTLE_MS);
    await settle();
    expect(client.refreshToken).not.toHaveBeenCalled();
    FakeSocket.latest().serverOpen();
    expect(FakeSocket.latest().sent).toEqual([
      { type: "auth", token: "token-after-credential-change" },
    ]);
  });

  it("on 1001 (a draining instance) reconnects within the jitter, never down, and refetches once ready", async () => {
    const draws = [0.25, 1];
    const client = start({ random: () => draws.shift() ?? 1 });
    FakeSocket.latest().serverAccept();
    expect(client.onReady).toHaveBeenCalledTimes(1);

    FakeSocket.latest().serverClose(LiveClose.GOING_AWAY);
    await settle();
    expect(client.statuses.slice(-2)).toEqual(["up", "connecting"]);
    // A quarter of the jitter window, drawn per client so tabs do not all arrive at once.
    await vi.advanceTimersByTimeAsync(LIVE_MOVE_JITTER_MS / 4 - 1);
    expect(FakeSocket.instances).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(FakeSocket.instances).toHaveLength(2);
    FakeSocket.latest().serverAccept();
    expect(client.status()).toBe("up");
    expect(client.statuses).not.toContain("down");
    // Ready on the new instance: the client refetches what it may have missed while moving.
    expect(client.onReady).toHaveBeenCalledTimes(2);

    // Moved again, promptly again; but moved once more before a ready (that instance drains
    // too): down, and the usual backoff.
    FakeSocket.latest().serverClose(LiveClose.GOING_AWAY);
    await vi.advanceTimersByTimeAsync(LIVE_MOVE_JITTER_MS);
    expect(FakeSocket.instances).toHaveLength(3);
    FakeSocket.latest().serverClose(LiveClose.GOING_AWAY);
    await settle();
    expect(client.status()).toBe("down");
    await vi.advanceTimersByTimeAsync(999);
    expect(FakeSocket.instances).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(1);
    expect(FakeSocket.instances).toHaveLength(4);
  });

  it("on 4429 stops reconnecting and says the tab is limited to the 5 s sync", async () => {
    const client = start();
    FakeSocket.latest().serverOpen();
    FakeSocket.latest().serverClose(LiveClose.TOO_MANY);
    await vi.advanceTimersByTimeAsync(BACKOFF_MAX_MS * 2);
    expect(FakeSocket.instances).toHaveLength(1);
    expect(client.status()).toBe("limited");
  });

  it("closes on stop and never comes back", async () => {
    const client = start();
    const socket = FakeSocket.latest();
    socket.serverAccept();
    client.stop();
    expect(socket.closedWith).toBe(1000);
    expect(client.status()).toBe("off");
    await vi.advanceTimersByTimeAsync(BACKOFF_MAX_MS * 2);
    expect(FakeSocket.instances).toHaveLength(1);
    expect(client.status()).toBe("off");
  });
});
