/**
 * What the deadline tests share: an app on pg-boss's TestClock (the app's clock follows it, and
 * the queue's jobs wait for it), a mailer that keeps what it sends, clients whose tokens are
 * renewed when a jump of the clock outlived them, and a session with a member of every kind.
 */
import { expect, vi } from "vitest";
import type { TestClock } from "pg-boss";
import { createDevOutbox, type Mail } from "../src/features/mail/mailer.ts";
import { signUp, type TestApp } from "./helpers.ts";

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;

/** Mails the app sent, kept here and in the dev outbox (sign-up codes are read from there). */
export function keptMails(app: () => TestApp) {
  const sent: Mail[] = [];
  const silent = { info: () => {} } as unknown as Parameters<typeof createDevOutbox>[1];
  return {
    sent,
    mailer: {
      async send(mail: Mail) {
        sent.push(mail);
        await createDevOutbox(app().database.db, silent).send(mail);
      },
      close: () => {},
    },
  };
}

export interface Person {
  userId: string;
  email: string;
  token: string;
}

/**
 * A signed-in client whose token is renewed (POST /api/auth/refresh-token) when the clock moved
 * past its 15 minutes; `app` may be another instance on the same database.
 */
export function clientOf(t: Pick<TestApp, "app">, person: Person) {
  const send = (method: string, url: string, payload?: unknown) =>
    t.app.inject({
      method: method as "GET",
      url,
      headers: {
        authorization: `Bearer ${person.token}`,
        ...(payload === undefined ? {} : { "content-type": "application/json" }),
      },
      // JSON as sent: `null` (clearing a deadline) is a body too.
      ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
    });
  return async (
    method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE",
    url: string,
    payload?: unknown,
  ) => {
    const res = await send(method, url, payload);
    if (res.statusCode !== 401 || res.json().code !== "TOKEN_EXPIRED") return res;
    const renewed = await t.app.inject({
      method: "POST",
      url: "/api/auth/refresh-token",
      headers: { authorization: `Bearer ${person.token}` },
    });
    expect(renewed.statusCode, renewed.body).toBe(200);
    person.token = renewed.json().token;
    return send(method, url, payload);
  };
}
export type DeadlineClient = ReturnType<typeof clientOf>;

/**
 * Ann's session: Ben and Cat take part, Vic views, Pat waits to join, Dan left and Eve was
 * removed (both took part first), Sam is a stranger. Ann and Ben have a line each.
 */
export async function crew(t: TestApp) {
  const names = ["Ann", "Ben", "Cat", "Vic", "Pat", "Dan", "Eve", "Sam"] as const;
  const people = {} as Record<(typeof names)[number], Person>;
  for (const name of names) people[name] = await signUp(t, name);
  const as = Object.fromEntries(names.map((n) => [n, clientOf(t, people[n])])) as Record<
    (typeof names)[number],
    DeadlineClient
  >;
  const created = await as.Ann("POST", "/api/sessions", {
    sessionName: "Friday shop",
    sessionType: "Friends",
    participants: "3+",
    passcode: "tulip",
  });
  expect(created.statusCode, created.body).toBe(201);
  const session = created.json().session as { _id: string; cartId: string; sessionCode: string };
  const join = async (name: (typeof names)[number], approve: boolean) => {
    const asked = await as[name]("POST", "/api/sessions/join/code", {
      sessionCode: session.sessionCode,
      passcode: "tulip",
    });
    expect(asked.statusCode, asked.body).toBe(202);
    if (approve) {
      const ok = await as.Ann("POST", `/api/sessions/approve/${session.sessionCode}`, {
        userId: people[name].userId,
      });
      expect(ok.statusCode, ok.body).toBe(200);
    }
  };
  for (const name of ["Ben", "Cat", "Dan", "Eve"] as const) await join(name, true);
  await join("Pat", false);
  const invited = await as.Ann("POST", "/api/sessions/invite", {
    sessionCode: session.sessionCode,
    emailOrUsername: people.Vic.email,
    role: "viewer",
  });
  expect(invited.statusCode, invited.body).toBe(201);
  expect(
    (await as.Vic("POST", "/api/sessions/accinvite", { sessionCode: session.sessionCode }))
      .statusCode,
  ).toBe(200);
  expect((await as.Dan("DELETE", `/api/sessions/${session._id}/leave`)).statusCode).toBe(200);
  expect(
    (await as.Ann("DELETE", `/api/sessions/${session._id}/members/${people.Eve.userId}`))
      .statusCode,
  ).toBe(200);
  const products = (await as.Ann("GET", "/api/products?limit=50")).json().products as {
    _id: string;
    stock: number;
    price: number;
  }[];
  const plenty = products.filter((p) => p.stock >= 60);
  for (const [name, product] of [
    ["Ann", plenty[0]!],
    ["Ben", plenty[1]!],
  ] as const) {
    const added = await as[name]("POST", `/api/carts/${session.cartId}/product`, {
      productId: product._id,
    });
    expect(added.statusCode, added.body).toBe(200);
  }
  return {
    people,
    as,
    sessionId: session._id,
    cartId: session.cartId,
    code: session.sessionCode,
    products: plenty,
  };
}

/** Moves the queue's clock (and so the app's) in small steps until `check` passes. */
export async function until(clock: TestClock, check: () => Promise<void> | void, timeout = 20_000) {
  await vi.waitFor(
    async () => {
      await clock.tick(200);
      await check();
    },
    { timeout, interval: 30 },
  );
}

/** Lets jobs that are due run, moving the clock a little: nothing more happens after this. */
export async function drain(clock: TestClock, rounds = 6) {
  for (let i = 0; i < rounds; i++) {
    await clock.tick(250);
    await new Promise((r) => setTimeout(r, 40));
  }
}
