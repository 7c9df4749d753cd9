import { describe, expect, it } from "vitest";
import { z } from "zod";
import { endpoints, splitEndpointKey, type EndpointKey } from "./endpoints.ts";
import { ACTIONS } from "./permissions.ts";

const keys = Object.keys(endpoints) as EndpointKey[];

describe("the endpoint table", () => {
  it.each(keys)("%s names exactly the path parameters its params schema takes", (key) => {
    const [, path] = splitEndpointKey(key);
    const inPath = [...path.matchAll(/:(\w+)/g)].map((m) => m[1]).sort();
    const entry = endpoints[key];
    const schema = "params" in entry ? entry.params : undefined;
    const inSchema = schema instanceof z.ZodObject ? Object.keys(schema.shape).sort() : [];
    expect(inSchema).toEqual(inPath);
  });

  it.each(keys)("%s has exactly one success answer and a known access", (key) => {
    const entry = endpoints[key];
    const successes = Object.keys(entry.responses).filter((status) => /^[23]/.test(status));
    expect(successes.filter((status) => status !== "302")).toHaveLength(1);
    expect(["public", "user", "token", ...ACTIONS]).toContain(entry.access);
  });

  it("splits a key into method and path", () => {
    expect(splitEndpointKey("DELETE /api/carts/:cartId/product/:productId")).toEqual([
      "DELETE",
      "/api/carts/:cartId/product/:productId",
    ]);
  });
});
