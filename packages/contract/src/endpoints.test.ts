import { describe, expect, it } from "vitest";
import { z } from "zod";
import { endpoints, splitEndpointKey, type EndpointKey } from "./endpoints.ts";
import { ACTIONS } from "./permissions.ts";

const keys = Object.keys(endpoints) as EndpointKey[];

/** Whether an answer schema has a `token` field at any depth (sign-in tokens, invite links). */
function carriesToken(schema: z.ZodType): boolean {
  if (schema instanceof z.ZodObject) {
    return Object.entries(schema.shape as Record<string, z.ZodType>).some(
      ([name, field]) => name === "token" || carriesToken(field),
    );
  }
  if (schema instanceof z.ZodArray) return carriesToken(schema.element as z.ZodType);
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable) {
    return carriesToken(schema.unwrap() as z.ZodType);
  }
  return false;
}

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

  it.each(keys)("%s is marked secretAnswer when a write answers a token", (key) => {
    const entry = endpoints[key];
    const [method] = splitEndpointKey(key);
    const answers = Object.values(entry.responses) as z.ZodType[];
    const secret = method !== "GET" && answers.some((schema) => carriesToken(schema));
    expect("secretAnswer" in entry && entry.secretAnswer === true).toBe(secret);
  });

  it("marks as media only public GETs that answer a picture, and every such one", () => {
    const media = keys.filter((key) => "media" in endpoints[key]);
    for (const key of media) {
      expect(splitEndpointKey(key)[0], key).toBe("GET");
      expect(endpoints[key].access, key).toBe("public");
    }
    // Pictures the web app shows many of on one page; none may count toward the rate limits.
    expect(media.toSorted()).toEqual([
      "GET /api/avatars/:file",
      "GET /api/catalog/images/:file",
      "GET /api/users/:userId/avatar",
    ]);
  });

  it("splits a key into method and path", () => {
    expect(splitEndpointKey("DELETE /api/carts/:cartId/product/:productId")).toEqual([
      "DELETE",
      "/api/carts/:cartId/product/:productId",
    ]);
  });
});
