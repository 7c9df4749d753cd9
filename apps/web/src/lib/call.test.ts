import { afterEach, describe, expect, it, vi } from "vitest";
import { json, stubFetch } from "../test/fetch-stub.ts";
import { call, fillPath, queryString } from "./call.ts";

afterEach(() => vi.unstubAllGlobals());

describe("call", () => {
  it("sends the key's method to its path with params filled in and the body as JSON", async () => {
    const fetchMock = stubFetch({
      "POST /api/carts/c%201/product": ({ body }) => json(200, { message: "Added", body }),
    });
    const answer = await call("POST /api/carts/:cartId/product", {
      params: { cartId: "c 1" },
      body: { productId: "p-1", quantity: 2 },
    });
    expect(answer).toEqual({ message: "Added", body: { productId: "p-1", quantity: 2 } });
    expect(fetchMock.mock.calls[0]?.[1]?.method).toBe("POST");
  });

  it("adds the query, repeating arrays and leaving out what is unset", async () => {
    const fetchMock = stubFetch({
      "GET /api/products": () => json(200, { products: [], total: 0 }),
    });
    await call("GET /api/products", {
      query: { q: "tea", category: ["Food", "Drinks"], minPrice: undefined },
    });
    expect(String(fetchMock.mock.calls[0]?.[0])).toBe(
      "/api/products?q=tea&category=Food&category=Drinks",
    );
  });

  it("refuses to call a path with a missing parameter", () => {
    expect(() => fillPath("/api/sessions/:id", {})).toThrow(/Missing path parameter id/);
  });

  it("builds an empty query string from nothing", () => {
    expect(queryString({})).toBe("");
    expect(queryString({ a: null, b: [] })).toBe("");
  });
});
