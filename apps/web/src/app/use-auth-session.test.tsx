import { afterEach, describe, expect, it, vi } from "vitest";
import { act, fireEvent, renderHook } from "@testing-library/react";
import { callsTo, json, stubFetch } from "../test/fetch-stub.ts";
import { useActivityTokenRefresh } from "./use-auth-session.ts";

afterEach(() => {
  vi.useRealTimers();
});

describe("periodic token refresh", () => {
  it("refreshes on the interval only after mouse or keyboard activity", async () => {
    vi.useFakeTimers();
    window.localStorage.setItem("token", "t-1");
    const fetchMock = stubFetch({
      "POST /api/auth/refresh-token": () => json(200, { token: "t-2" }),
    });
    renderHook(() => useActivityTokenRefresh(1000));

    // Idle: nothing happens.
    await act(() => vi.advanceTimersByTimeAsync(3000));
    expect(callsTo(fetchMock, "POST /api/auth/refresh-token")).toHaveLength(0);

    // Activity, then the next tick refreshes once.
    fireEvent.keyDown(window, { key: "a" });
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(callsTo(fetchMock, "POST /api/auth/refresh-token")).toHaveLength(1);
    expect(window.localStorage.getItem("token")).toBe("t-2");

    // Idle again: no further refresh until the next activity.
    await act(() => vi.advanceTimersByTimeAsync(3000));
    expect(callsTo(fetchMock, "POST /api/auth/refresh-token")).toHaveLength(1);
    fireEvent.mouseMove(window);
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(callsTo(fetchMock, "POST /api/auth/refresh-token")).toHaveLength(2);
  });

  it("does nothing while signed out", async () => {
    vi.useFakeTimers();
    const fetchMock = stubFetch({});
    renderHook(() => useActivityTokenRefresh(1000));
    fireEvent.keyDown(window, { key: "a" });
    await act(() => vi.advanceTimersByTimeAsync(2000));
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
