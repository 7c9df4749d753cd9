import { afterEach, expect, it, vi } from "vitest";
import {
  serverFixture,
  activityOf,
  call,
  setDeadline,
  sharedCart,
  signUp,
  waitUntil,
} from "./server-process.ts";

/**
 * A deadline that passes while no server runs, in real time and seconds: the server is killed
 * (kill -9) a moment before the deadline and started again after it. The lock and the automatic
 * checkout happen once, on the next start, and a later restart repeats neither. Runs on the
 * embedded database (project server:pglite) and on PostgreSQL (project server:postgres).
 */
const onPostgres = process.env.TEST_DB === "postgres";
// Three starts of the real server; on a busy 2-core machine one start can take half a minute.
vi.setConfig({ testTimeout: 180_000 });

const { backend, start, cleanup } = serverFixture("cartner-deadline-", onPostgres);
afterEach(cleanup);

it(`locks and checks out once after kill -9 just before the deadline (${onPostgres ? "PostgreSQL" : "embedded PGlite"})`, async () => {
  const env = await backend();
  const first = await start(env);
  const suffix = Date.now().toString(36);
  const ann = await signUp(first.url, "Ann", `ann.${suffix}@example.com`);
  const ben = await signUp(first.url, "Ben", `ben.${suffix}@example.com`);
  const { sessionId, cartId, products } = await sharedCart(first.url, [ann, ben], {
    products: 2,
    perLine: 1,
  });
  for (const [person, product] of [
    [ann, products[0]!],
    [ben, products[1]!],
  ] as const) {
    const added = await call(first.url, "POST", `/api/carts/${cartId}/product`, {
      token: person.token,
      body: { productId: product._id },
    });
    expect(added.status).toBe(200);
  }
  const closesAt = new Date(Date.now() + 3_000);
  await setDeadline(first.url, ann.token, sessionId, {
    closesAt: closesAt.toISOString(),
    remindAt: [],
    autoCheckout: true,
  });

  // Killed a moment before the deadline; nothing runs at it.
  await new Promise((r) => setTimeout(r, 1_500));
  first.child.kill("SIGKILL");
  await first.exited;
  await new Promise((r) => setTimeout(r, Math.max(0, closesAt.getTime() + 1_000 - Date.now())));

  const second = await start(env);
  const placed = await waitUntil(
    () => call(second.url, "GET", "/api/orders", { token: ben.token }),
    (res) =>
      res.status === 200 &&
      (res.body.orders as { sessionId: string }[]).some((o) => o.sessionId === sessionId),
  );
  const order = (placed.body.orders as { sessionId: string; placedBy: { name: string } }[]).find(
    (o) => o.sessionId === sessionId,
  )!;
  expect(order.placedBy.name).toBe("Ann");
  const late = await call(second.url, "POST", `/api/carts/${cartId}/product`, {
    token: ben.token,
    body: { productId: products[0]!._id },
  });
  expect(late.status).toBe(409);
  expect(late.body.code).toBe("CART_LOCKED");

  // Another restart repeats nothing.
  await second.stop();
  const third = await start(env);
  await new Promise((r) => setTimeout(r, 1_500));
  const log = await activityOf(third.url, ann.token, sessionId);
  expect(log.filter((e) => e.type === "deadline.locked")).toHaveLength(1);
  expect(log.filter((e) => e.type === "order.placed")).toMatchObject([{ automatic: true }]);
  const orders = await call(third.url, "GET", "/api/orders", { token: ann.token });
  expect(
    (orders.body.orders as { sessionId: string }[]).filter((o) => o.sessionId === sessionId),
  ).toHaveLength(1);
});
