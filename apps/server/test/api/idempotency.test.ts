/**
 * Idempotent writes: the Idempotency-Key header on PGlite and PostgreSQL.
 */
import crypto from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { idempotencyKeys } from "../../src/db/schema.ts";
import { PASSWORD, createTestApp, sessionWithEveryRole, signUp, type TestApp } from "../helpers.ts";

let t: TestApp;
let productId: string;
beforeAll(async () => {
  t = await createTestApp();
  const f = await sessionWithEveryRole(t);
  const products = (await f.as.creator("GET", "/api/products?limit=20")).json().products;
  productId = products.find((p: { stock: number }) => p.stock >= 30)._id;
});
afterAll(async () => t.close());

function keyed(token: string) {
  return (
    method: "POST" | "PATCH" | "DELETE" | "PUT",
    url: string,
    key: string,
    payload?: object,
  ) =>
    t.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}`, "idempotency-key": key },
      ...(payload ? { payload } : {}),
    });
}

describe("Idempotency-Key", () => {
  it("replays the first answer for the same key, and the cart changes once", async () => {
    const f = await sessionWithEveryRole(t);
    const as = keyed(f.people.participant.token);
    const url = `/api/carts/${f.cartId}/product`;
    const first = await as("POST", url, "add-oat-milk-1", { productId, quantity: 2 });
    expect(first.statusCode).toBe(200);
    const again = await as("POST", url, "add-oat-milk-1", { productId, quantity: 2 });
    expect(again.statusCode).toBe(200);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(again.body).toBe(first.body);
    const cart = (await f.as.viewer("GET", `/api/carts/${f.cartId}`)).json().cart;
    expect(cart.itemCount).toBe(2);
    // A refusal is an answer too: replayed as it was.
    const refused = await as("DELETE", `/api/carts/${f.cartId}/clear`, "clear-1");
    expect(refused.statusCode).toBe(403);
    const refusedAgain = await as("DELETE", `/api/carts/${f.cartId}/clear`, "clear-1");
    expect([refusedAgain.statusCode, refusedAgain.body]).toEqual([403, refused.body]);
  });

  it("20 parallel requests with one key change the cart once", async () => {
    const f = await sessionWithEveryRole(t);
    const as = keyed(f.people.participant.token);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        as("POST", `/api/carts/${f.cartId}/product`, "burst-key", { productId, quantity: 1 }),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(200));
    expect(new Set(answers.map((a) => a.body)).size).toBe(1);
    const cart = (await f.as.viewer("GET", `/api/carts/${f.cartId}`)).json().cart;
    expect(cart.itemCount).toBe(1);
  });

  it("refuses the same key with another body or on another route (422), and bad keys (400)", async () => {
    const f = await sessionWithEveryRole(t);
    const as = keyed(f.people.creator.token);
    const url = `/api/carts/${f.cartId}/product`;
    expect((await as("POST", url, "k-1", { productId, quantity: 1 })).statusCode).toBe(200);
    const other = await as("POST", url, "k-1", { productId, quantity: 3 });
    expect(other.statusCode).toBe(422);
    expect(other.json().code).toBe("IDEMPOTENCY_MISMATCH");
    const elsewhere = await as("PATCH", `/api/sessions/${f.sessionId}`, "k-1", { budget: 10 });
    expect(elsewhere.statusCode).toBe(422);
    for (const bad of ["x".repeat(101), "naïve", ""]) {
      const res = await as("POST", url, bad, { productId, quantity: 1 });
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
    }
    const cart = (await f.as.viewer("GET", `/api/carts/${f.cartId}`)).json().cart;
    expect(cart.itemCount).toBe(1);
    // Keys are per user: Ben may use the same one.
    const ben = keyed(f.people.participant.token);
    expect((await ben("POST", url, "k-1", { productId, quantity: 1 })).statusCode).toBe(200);
  });

  it("forgets a key after 24 hours: the same key is then a new request", async () => {
    const f = await sessionWithEveryRole(t);
    const as = keyed(f.people.creator.token);
    const url = `/api/carts/${f.cartId}/product`;
    expect((await as("POST", url, "day-key", { productId, quantity: 1 })).statusCode).toBe(200);
    // A day and a minute ago (moving the clock would expire the token too).
    await t.database.db
      .update(idempotencyKeys)
      .set({ createdAt: new Date(t.clock.now().getTime() - 24 * 3_600_000 - 60_000) })
      .where(eq(idempotencyKeys.key, "day-key"));
    const again = await as("POST", url, "day-key", { productId, quantity: 1 });
    expect(again.statusCode).toBe(200);
    expect(again.headers["idempotent-replayed"]).toBeUndefined();
    expect(again.json().cart.itemCount).toBe(2);
  });

  it("keeps only a keyed hash of the request: a password sent is not testable by plain SHA-256", async () => {
    const zoe = await signUp(t, "Zoe");
    const as = keyed(zoe.token);
    const change = { currentPassword: PASSWORD, password: "new-secret-passphrase-1" };
    const url = "/api/auth/update-credentials";
    expect((await as("PATCH", url, "pw-1", change)).statusCode).toBe(200);
    const wrong = { password: "guess-of-my-password" };
    expect((await as("DELETE", "/api/users/me", "del-1", wrong)).statusCode).toBe(403);

    for (const [key, method, path, body] of [
      ["pw-1", "PATCH", url, change],
      ["del-1", "DELETE", "/api/users/me", wrong],
    ] as const) {
      const [row] = await t.database.db
        .select()
        .from(idempotencyKeys)
        .where(and(eq(idempotencyKeys.userId, zoe.userId), eq(idempotencyKeys.key, key)));
      const sha256 = (text: string) => crypto.createHash("sha256").update(text).digest("hex");
      expect(row!.requestHash).not.toBe(sha256(`${method} ${path}\n${JSON.stringify(body)}`));
      expect(row!.requestHash).not.toBe(sha256(JSON.stringify(body)));
      for (const secret of Object.values(body)) expect(JSON.stringify(row)).not.toContain(secret);
    }
    // The keyed hash still tells requests apart, and the answers replay as before.
    const again = await as("PATCH", url, "pw-1", change);
    expect([again.statusCode, again.headers["idempotent-replayed"]]).toEqual([200, "true"]);
    const other = { ...change, password: "another-passphrase-2" };
    expect((await as("PATCH", url, "pw-1", other)).statusCode).toBe(422);
    const refusedAgain = await as("DELETE", "/api/users/me", "del-1", wrong);
    expect([refusedAgain.statusCode, refusedAgain.headers["idempotent-replayed"]]).toEqual([
      403,
      "true",
    ]);
  });

  it("never keeps an answer that carries a secret: a new invite link's token is not stored, its replay is 409", async () => {
    const f = await sessionWithEveryRole(t);
    const as = keyed(f.people.creator.token);
    const url = `/api/sessions/${f.sessionId}/links`;
    const body = { role: "viewer", expiresInHours: 2, maxUses: 3 };
    const made = await as("POST", url, "link-1", body);
    expect(made.statusCode).toBe(201);
    const { token } = made.json().link;
    const [row] = await t.database.db
      .select()
      .from(idempotencyKeys)
      .where(
        and(eq(idempotencyKeys.userId, f.people.creator.userId), eq(idempotencyKeys.key, "link-1")),
      );
    expect(row).toMatchObject({ status: 201, body: null });
    expect(JSON.stringify(row)).not.toContain(token);

    // Done once: the same key and request is refused, not done again; the list shows the link.
    const again = await as("POST", url, "link-1", body);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe("IDEMPOTENCY_ANSWER_NOT_KEPT");
    expect(again.body).not.toContain(token);
    const links = (await f.as.creator("GET", url)).json().links;
    expect(links.map((l: { token: string }) => l.token)).toEqual([token]);
    expect((await as("POST", url, "link-1", { ...body, maxUses: 4 })).statusCode).toBe(422);
    // A refusal carries no secret: it replays as on every route.
    const ben = keyed(f.people.participant.token);
    const refused = await ben("POST", url, "link-2", body);
    expect(refused.statusCode).toBe(403);
    const refusedAgain = await ben("POST", url, "link-2", body);
    expect([refusedAgain.statusCode, refusedAgain.body]).toEqual([403, refused.body]);
    expect(refusedAgain.headers["idempotent-replayed"]).toBe("true");
  });

  it("sign-in steps and token renewal take no key: their tokens are never stored", async () => {
    const zoe = await signUp(t, "Zoe");
    const renewed = await t.app.inject({
      method: "POST",
      url: "/api/auth/refresh-token",
      headers: { authorization: `Bearer ${zoe.token}`, "idempotency-key": "refresh-1" },
    });
    expect(renewed.statusCode).toBe(200);
    const login = await t.app.inject({
      method: "POST",
      url: "/api/auth/login",
      headers: { authorization: `Bearer ${zoe.token}`, "idempotency-key": "login-1" },
      payload: { email: zoe.email, password: PASSWORD },
    });
    expect(login.statusCode).toBe(200);
    const rows = await t.database.db
      .select()
      .from(idempotencyKeys)
      .where(eq(idempotencyKeys.userId, zoe.userId));
    expect(rows).toEqual([]);
    // No stored answer anywhere holds a token.
    const bodies = await t.database.db.select({ body: idempotencyKeys.body }).from(idempotencyKeys);
    for (const { body } of bodies) expect(body ?? "").not.toMatch(/"token"\s*:/);
  });
});
