import { afterEach, describe, expect, it, vi } from "vitest";
import { json, stubFetch } from "../test/fetch-stub.ts";
import { fetchOrder, fetchOrderEntries } from "../api/orders.ts";
import { productPagesQuery } from "../api/products.ts";
import { filtersToQuery, parseFilters } from "../features/products/filters.ts";
import { apiRequest, forgetEarlyGets, startEarlyGets } from "../lib/api.ts";
import { earlyDataPaths, showsDatesFirst } from "./early-data.ts";

const user = { _id: "u-1", name: "Ada Lovelace", email: "ada@example.com" };

function signIn(token: string) {
  window.localStorage.setItem("token", token);
  window.localStorage.setItem("user", JSON.stringify(user));
}

/** The path and query string of every request made. */
function requested(mock: ReturnType<typeof stubFetch>): string[] {
  return mock.mock.calls.map(([input]) => {
    const url = new URL(String(input), "http://localhost");
    return url.pathname + url.search;
  });
}

afterEach(() => vi.useRealTimers());

describe("early data", () => {
  it("names exactly the requests the order page and the unfiltered marketplace make first", async () => {
    signIn("t-1");
    const fetchMock = stubFetch({});
    await fetchOrder("o-1").catch(() => undefined);
    await fetchOrderEntries("o-1").catch(() => undefined);
    const firstPage = productPagesQuery(filtersToQuery(parseFilters(new URLSearchParams(""))));
    await Promise.resolve(
      firstPage.queryFn!({
        pageParam: 0,
        signal: new AbortController().signal,
        queryKey: firstPage.queryKey,
        meta: undefined,
        direction: "forward",
        client: undefined as never,
      }),
    ).catch(() => undefined);
    expect(requested(fetchMock)).toEqual([
      ...earlyDataPaths("/orders/o-1", ""),
      ...earlyDataPaths("/products", ""),
    ]);
    // Anything else is left to the page.
    expect(earlyDataPaths("/products", "?q=tea")).toEqual([]);
    expect(earlyDataPaths("/orders/a%20b", "")).toEqual([]);
    expect(earlyDataPaths("/cart", "")).toEqual([]);
  });

  it("gives an early answer to the first call of its path and token, once", async () => {
    signIn("t-1");
    let served = 0;
    const fetchMock = stubFetch({ "GET /api/orders/o-1": () => json(200, { n: ++served }) });
    startEarlyGets(["/api/orders/o-1"]);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await expect(apiRequest("/api/orders/o-1")).resolves.toEqual({ n: 1 });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    // The next call asks the server.
    await expect(apiRequest("/api/orders/o-1")).resolves.toEqual({ n: 2 });
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it("asks again when the user changed, the connection got ready or the answer is old, and not at all signed out", async () => {
    let served = 0;
    const fetchMock = stubFetch({ "GET /api/orders/o-1": () => json(200, { n: ++served }) });
    startEarlyGets(["/api/orders/o-1"]);
    expect(fetchMock).not.toHaveBeenCalled();

    signIn("t-1");
    startEarlyGets(["/api/orders/o-1"]);
    signIn("t-2");
    await expect(apiRequest("/api/orders/o-1")).resolves.toEqual({ n: 2 });

    // Nor once the live connection is ready: the answer may predate a change it will not repeat.
    startEarlyGets(["/api/orders/o-1"]);
    forgetEarlyGets();
    await expect(apiRequest("/api/orders/o-1")).resolves.toEqual({ n: 4 });

    vi.useFakeTimers({ toFake: ["Date"] });
    startEarlyGets(["/api/orders/o-1"]);
    vi.setSystemTime(Date.now() + 11_000);
    await expect(apiRequest("/api/orders/o-1")).resolves.toEqual({ n: 6 });
    expect(fetchMock).toHaveBeenCalledTimes(6);
  });
});

describe("showsDatesFirst", () => {
  it("is true for an order's page (its history has dates) and false for the marketplace", () => {
    expect(showsDatesFirst("/orders/o-1")).toBe(true);
    expect(showsDatesFirst("/products")).toBe(false);
    expect(showsDatesFirst("/orders")).toBe(false);
  });
});
