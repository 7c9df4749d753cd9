import { afterEach, describe, expect, it, vi } from "vitest";
import { render, screen } from "@testing-library/react";
import { ToastContainer } from "react-toastify/unstyled";
import { bearerOf, callsTo, json, stubFetch } from "../test/fetch-stub.ts";
import { ApiError, SESSION_EXPIRED_MESSAGE, apiRequest, errorMessage } from "./api.ts";
import { registerNavigator } from "./navigation.ts";

const user = { _id: "u-1", name: "Ada Lovelace", email: "ada@example.com" };
const expired = () => json(401, { message: "Token expired", code: "TOKEN_EXPIRED" });

let unregister: (() => void) | undefined;
afterEach(() => unregister?.());

function signIn(token: string) {
  window.localStorage.setItem("token", token);
  window.localStorage.setItem("user", JSON.stringify(user));
}

function trackNavigation() {
  const navigate = vi.fn();
  unregister = registerNavigator(navigate);
  return navigate;
}

describe("api client", () => {
  it("sends every signed-in write with an Idempotency-Key, and once more with it after a network failure", async () => {
    signIn("t-1");
    let calls = 0;
    const fetchMock = vi.fn(async (_input: RequestInfo | URL, init: RequestInit = {}) => {
      calls += 1;
      if (calls === 1) throw new TypeError("Failed to fetch");
      return json(200, { ok: new Headers(init.headers).get("Idempotency-Key") });
    });
    vi.stubGlobal("fetch", fetchMock);
    const answer = await apiRequest<{ ok: string }>("/api/carts/c-1/product", {
      method: "POST",
      body: { productId: "p-1" },
    });
    const keys = fetchMock.mock.calls.map(([, init]) =>
      new Headers(init?.headers).get("Idempotency-Key"),
    );
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(answer.ok).toBe(keys[0]);
    // Reads carry none.
    const reads = stubFetch({ "GET /api/things": () => json(200, {}) });
    await apiRequest("/api/things");
    expect(
      new Headers(callsTo(reads, "GET /api/things")[0]?.headers).get("Idempotency-Key"),
    ).toBeNull();
  });

  it("sends the Bearer token and parses JSON", async () => {
    signIn("t-1");
    const fetchMock = stubFetch({ "GET /api/things": () => json(200, { things: [1, 2] }) });
    await expect(apiRequest("/api/things")).resolves.toEqual({ things: [1, 2] });
    expect(bearerOf(callsTo(fetchMock, "GET /api/things")[0] ?? {})).toBe("Bearer t-1");
  });

  it("turns the error shape into an ApiError with status, code and fields", async () => {
    stubFetch({
      "POST /api/auth/register": () =>
        json(400, {
          message: "Invalid input",
          code: "VALIDATION_ERROR",
          fields: { password: "This password is too common" },
        }),
    });
    const error = await apiRequest("/api/auth/register", {
      method: "POST",
      body: {},
      auth: false,
    }).catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 400,
      code: "VALIDATION_ERROR",
      message: "Invalid input",
      fields: { password: "This password is too common" },
    });
    expect(errorMessage(error, "fallback")).toBe("Invalid input");
  });

  it("reads Retry-After on a 429", async () => {
    stubFetch({
      "POST /api/auth/resend-otp": () =>
        json(429, { message: "Slow down", code: "RATE_LIMITED" }, { "Retry-After": "42" }),
    });
    const error = await apiRequest("/api/auth/resend-otp", { method: "POST", body: {} }).catch(
      (e) => e,
    );
    expect(error).toMatchObject({ status: 429, retryAfterSeconds: 42 });
  });

  it("uses the caller's fallback when the server sent no message", async () => {
    stubFetch({ "GET /api/x": () => new Response("<html>oops</html>", { status: 502 }) });
    const error = await apiRequest("/api/x").catch((e) => e);
    expect(error).toMatchObject({ status: 502, hasServerMessage: false });
    expect(errorMessage(error, "Something went wrong during login.")).toBe(
      "Something went wrong during login.",
    );
  });

  it("refreshes once on TOKEN_EXPIRED, shares the refresh, stores the token and retries", async () => {
    signIn("old");
    const fetchMock = stubFetch({
      "GET /api/things": ({ headers }) =>
        headers.get("Authorization") === "Bearer new" ? json(200, { ok: true }) : expired(),
      "POST /api/auth/refresh-token": () => json(200, { token: "new" }),
    });

    const results = await Promise.all([apiRequest("/api/things"), apiRequest("/api/things")]);

    expect(results).toEqual([{ ok: true }, { ok: true }]);
    const refreshes = callsTo(fetchMock, "POST /api/auth/refresh-token");
    expect(refreshes).toHaveLength(1);
    expect(bearerOf(refreshes[0] ?? {})).toBe("Bearer old");
    expect(callsTo(fetchMock, "GET /api/things").map(bearerOf)).toEqual([
      "Bearer old",
      "Bearer old",
      "Bearer new",
      "Bearer new",
    ]);
    expect(window.localStorage.getItem("token")).toBe("new");
  });

  it("retries only once: a second expiry after the refresh is returned as an error", async () => {
    signIn("old");
    const fetchMock = stubFetch({
      "GET /api/things": expired,
      "POST /api/auth/refresh-token": () => json(200, { token: "new" }),
    });
    const error = await apiRequest("/api/things").catch((e) => e);
    expect(error).toMatchObject({ status: 401, code: "TOKEN_EXPIRED" });
    expect(callsTo(fetchMock, "POST /api/auth/refresh-token")).toHaveLength(1);
    expect(callsTo(fetchMock, "GET /api/things")).toHaveLength(2);
  });

  it("does not refresh on other 401s", async () => {
    signIn("old");
    const fetchMock = stubFetch({
      "GET /api/things": () => json(401, { message: "Revoked", code: "UNAUTHORIZED" }),
    });
    await expect(apiRequest("/api/things")).rejects.toMatchObject({ status: 401 });
    expect(callsTo(fetchMock, "POST /api/auth/refresh-token")).toHaveLength(0);
    expect(window.localStorage.getItem("token")).toBe("old");
  });

  it("logs out with 'Session expired' when the refresh answers 401", async () => {
    render(<ToastContainer />);
    signIn("old");
    const navigate = trackNavigation();
    stubFetch({
      "GET /api/things": expired,
      "POST /api/auth/refresh-token": () => json(401, { message: "Expired", code: "UNAUTHORIZED" }),
    });

    await expect(apiRequest("/api/things")).rejects.toMatchObject({ code: "TOKEN_EXPIRED" });

    expect(navigate).toHaveBeenCalledWith("/login");
    expect(window.localStorage.getItem("token")).toBeNull();
    expect(window.localStorage.getItem("user")).toBeNull();
    expect(await screen.findByText(SESSION_EXPIRED_MESSAGE)).toBeInTheDocument();
  });

  it("clears credentials and goes to /login when the refresh fails otherwise", async () => {
    render(<ToastContainer />);
    signIn("old");
    const navigate = trackNavigation();
    stubFetch({
      "GET /api/things": expired,
      "POST /api/auth/refresh-token": () => json(500, { message: "Boom", code: "INTERNAL_ERROR" }),
    });

    await expect(apiRequest("/api/things")).rejects.toBeInstanceOf(ApiError);

    expect(navigate).toHaveBeenCalledWith("/login");
    expect(window.localStorage.getItem("token")).toBeNull();
    expect(window.localStorage.getItem("user")).toBeNull();
    expect(screen.queryByText(SESSION_EXPIRED_MESSAGE)).not.toBeInTheDocument();
  });
});
