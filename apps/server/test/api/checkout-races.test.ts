/**
 * Writes to a session racing its checkout land before the order's snapshot or are refused with
 * 409; never after it. On PGlite one transaction runs at a time, so the race is real only on
 * PostgreSQL, where this file runs too.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, createTestApp, signUp, type Client, type TestApp } from "../helpers.ts";

let t: TestApp;
let ann: Client;
let people: { userId: string; as: Client }[];
let productId: string;

beforeAll(async () => {
  t = await createTestApp();
  ann = client(t, (await signUp(t, "Ann")).token);
  people = [];
  for (const name of ["Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ida"]) {
    const p = await signUp(t, name);
    people.push({ userId: p.userId, as: client(t, p.token) });
  }
  const products = (await ann("GET", "/api/products?limit=50")).json().products as {
    _id: string;
    price: number;
    stock: number;
  }[];
  productId = products.find((p) => p.price >= 2 && p.stock >= 10)!._id;
});
afterAll(async () => t.close());

/** Ann's session with everyone as a participant, one line of Ann's, split equally. */
async function equalSession() {
  const created = await ann("POST", "/api/sessions", {
    sessionName: "Race night",
    sessionType: "Friends",
    participants: "3+",
  });
  expect(created.statusCode, created.body).toBe(201);
  const { _id: sessionId, cartId } = created.json().session;
  const link = await ann("POST", `/api/sessions/${sessionId}/links`, {
    role: "participant",
    expiresInHours: 1,
    maxUses: 20,
  });
  for (const p of people) {
    const joined = await p.as("POST", `/api/invite/${link.json().link.token}/accept`);
    expect(joined.statusCode, joined.body).toBe(200);
  }
  expect((await ann("POST", `/api/carts/${cartId}/product`, { productId })).statusCode).toBe(200);
  const policy = await ann("PUT", `/api/sessions/${sessionId}/split-policy`, {
    mode: "equal",
    weights: {},
    fees: "proportional",
  });
  expect(policy.statusCode, policy.body).toBe(200);
  return sessionId as string;
}

/** The activity entries after the order's own: there must be none. */
async function entriesAfterOrder(sessionId: string) {
  const { events } = (await ann("GET", `/api/sessions/${sessionId}/activity?limit=200`)).json();
  const placed = events.findIndex((e: { type: string }) => e.type === "order.placed");
  expect(placed).toBeGreaterThanOrEqual(0);
  return events.slice(placed + 1).map((e: { type: string }) => e.type);
}

describe("member changes racing a checkout", () => {
  it("a demotion or removal answered 200 is in the order; every other one is refused with 409", async () => {
    let landed = 0;
    let refused = 0;
    for (let round = 0; round < 6; round++) {
      const sessionId = await equalSession();
      const remove = round % 2 === 1;
      const checkout = ann("POST", `/api/sessions/${sessionId}/checkout`);
      const changes = people.map((p) =>
        remove
          ? ann("DELETE", `/api/sessions/${sessionId}/members/${p.userId}`)
          : ann("PATCH", `/api/sessions/${sessionId}/members/${p.userId}`, { role: "viewer" }),
      );
      const placed = await checkout;
      expect(placed.statusCode, placed.body).toBe(201);
      const sharers = new Set(
        placed.json().order.split.map((s: { userId: string }) => s.userId) as string[],
      );
      const answers = await Promise.all(changes);
      answers.forEach((answer, i) => {
        const { userId } = people[i]!;
        if (answer.statusCode === 200) {
          landed++;
          // Changed before the snapshot: no longer a payer, so no share in the order.
          expect(sharers.has(userId), `${remove ? "removed" : "demoted"} but charged`).toBe(false);
        } else {
          refused++;
          expect(answer.statusCode, answer.body).toBe(409);
          expect(sharers.has(userId)).toBe(true);
        }
      });
      expect(await entriesAfterOrder(sessionId)).toEqual([]);
    }
    expect(landed + refused).toBe(6 * people.length);
  });

  it("budgets, ready marks, roles and session edits racing a checkout leave no entry after the order", async () => {
    for (let round = 0; round < 4; round++) {
      const sessionId = await equalSession();
      const checkout = ann("POST", `/api/sessions/${sessionId}/checkout`);
      const writes = people.flatMap((p, i) => [
        p.as("PATCH", `/api/sessions/${sessionId}/members/${p.userId}`, { budget: 10 + i }),
        p.as("PUT", `/api/sessions/${sessionId}/ready`, { ready: true }),
        i % 2 === 0
          ? ann("PATCH", `/api/sessions/${sessionId}/members/${p.userId}`, { role: "viewer" })
          : p.as("DELETE", `/api/sessions/${sessionId}/leave`),
      ]);
      writes.push(
        ann("PATCH", `/api/sessions/${sessionId}`, { sessionName: "Race night, late" }),
        ann("PUT", `/api/sessions/${sessionId}/split-policy`, {
          mode: "by_adder",
          weights: {},
          fees: "equal",
        }),
        ann("POST", `/api/sessions/${sessionId}/rotate-code`),
      );
      expect((await checkout).statusCode).toBe(201);
      // 404: a participant's own write after they left. 403: a ready mark after the creator made
      // them a viewer (viewers never take part in the cart).
      const answers = await Promise.all(writes);
      answers.forEach((answer, n) => {
        const readyMark = n % 3 === 1 && n < people.length * 3;
        if (readyMark && answer.statusCode === 403) {
          expect(answer.json().message).toBe("Viewers do not take part in the cart.");
          return;
        }
        expect([200, 404, 409], answer.body).toContain(answer.statusCode);
      });
      expect(await entriesAfterOrder(sessionId)).toEqual([]);
    }
  });
});
