import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { OFFLINE_GRACE_MS, getLiveState, setLiveStatus } from "./live-status.ts";

beforeEach(() => {
  vi.useFakeTimers();
  setLiveStatus("off");
});

afterEach(() => {
  setLiveStatus("off");
  vi.useRealTimers();
});

describe("the live status", () => {
  it("calls a socket that failed offline once it stays down past the grace period", () => {
    setLiveStatus("down");
    vi.advanceTimersByTime(OFFLINE_GRACE_MS - 1);
    expect(getLiveState()).toEqual({ status: "down", offline: false });
    vi.advanceTimersByTime(1);
    expect(getLiveState()).toEqual({ status: "down", offline: true });
    setLiveStatus("up");
    expect(getLiveState()).toEqual({ status: "up", offline: false });
  });

  it("does not call a slow first connection offline", () => {
    setLiveStatus("connecting");
    vi.advanceTimersByTime(OFFLINE_GRACE_MS * 5);
    expect(getLiveState()).toEqual({ status: "connecting", offline: false });
  });
});
