import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, expect, it, vi } from "vitest";
import { findPostgresBin, startPrivatePostgres } from "./private-postgres.ts";
import {
  call,
  sharedCart,
  signUp,
  startServer,
  type Answer,
  type ServerProcess,
} from "./server-process.ts";

/**
 * PostgreSQL stops under load and comes back: the server must answer clear 503s meanwhile (not
 * hang, not 500, not crash) and recover by itself. It runs on a private throwaway cluster, never
 * on the shared PostgreSQL that other tests use.
 */
vi.setConfig({ testTimeout: 60_000 });
const bin = findPostgresBin();

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

const WORKERS = 8;
/** A request taking longer than this counts as hanging. */
const HANG_MS = 10_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Outcome {
  phase: string;
  op: string;
  answer?: Answer;
  error?: string;
}

it("answers 503 while PostgreSQL is down, does not crash, and recovers on its own", async (ctx) => {
  ctx.skip(
    !bin,
    "no PostgreSQL binaries (initdb, pg_ctl, postgres) in PG_BIN, /usr/lib/postgresql/*/bin or pg_config --bindir",
  );
  const pgsql = await startPrivatePostgres(bin!);
  cleanups.push(pgsql.destroy);
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "cartner-outage-"));
  cleanups.push(() => fs.rm(dataDir, { recursive: true, force: true }));
  const server: ServerProcess = await startServer({
    DATABASE_URL: pgsql.url,
    DATA_DIR: dataDir,
    LOG_LEVEL: "fatal",
  });
  cleanups.push(async () => {
    server.child.kill("SIGKILL");
    await server.exited;
  });
  const base = server.url;
  const people = [
    await signUp(base, "Ann", `outage.ann.${Date.now()}@example.com`),
    await signUp(base, "Ben", `outage.ben.${Date.now()}@example.com`),
  ];
  const { cartId, sessionId, products } = await sharedCart(base, people, {
    products: WORKERS,
    perLine: 4,
  });

  // Each worker owns one line (its person, its product) and moves it between 1 and 2 items, with
  // reads of the cart, the summary, the catalog and the health check in between.
  let phase = "up";
  let running = true;
  const outcomes: Outcome[] = [];
  const worker = async (w: number) => {
    const { token } = people[w % people.length]!;
    const productId = products[w]!._id;
    const ops: Array<[string, string, string, unknown?]> = [
      ["add to cart", "POST", `/api/carts/${cartId}/product`, { productId, quantity: 1 }],
      ["read cart", "GET", `/api/carts/${cartId}`],
      ["products", "GET", "/api/products?sort=price_asc"],
      ["minus one", "PATCH", `/api/carts/${cartId}/quantity`, { productId, change: -1 }],
      ["summary", "GET", `/api/sessions/${sessionId}/summary`],
      ["product", "GET", `/api/products/${productId}`],
      ["session", "GET", `/api/sessions/${sessionId}`],
      ["health", "GET", "/api/conhealth"],
    ];
    for (let i = w; running; i++) {
      const [op, method, url, body] = ops[i % ops.length]!;
      const at = phase;
      try {
        const answer = await call(base, method, url, { token, body, timeoutMs: HANG_MS });
        outcomes.push({ phase: at === phase ? at : `${at}->${phase}`, op, answer });
      } catch (error) {
        outcomes.push({ phase: at, op, error: String(error) });
      }
      await sleep(5);
    }
  };
  // Every worker starts with its line at quantity 1.
  for (let w = 0; w < WORKERS; w++) {
    const added = await call(base, "POST", `/api/carts/${cartId}/product`, {
      token: people[w % people.length]!.token,
      body: { productId: products[w]!._id, quantity: 1 },
    });
    expect(added.status).toBe(200);
  }
  const workers = Array.from({ length: WORKERS }, (_, w) => worker(w));
  try {
    await sleep(1_500);
    phase = "stopping";
    await pgsql.stopImmediately();
    phase = "down";
    await sleep(3_000);
    expect(server.child.exitCode, `the server died:\n${server.output()}`).toBeNull();
    const health = await call(base, "GET", "/api/conhealth");
    expect(health.status).toBe(503);
    expect(health.body).toEqual({
      code: "SERVICE_UNAVAILABLE",
      message: expect.stringMatching(/database is unavailable/i),
      requestId: expect.any(String),
    });

    phase = "starting";
    await pgsql.start();
    phase = "recovering";
    const upAt = performance.now();
    let recovered: number | undefined;
    while (performance.now() - upAt < 10_000) {
      const cart = await call(base, "GET", `/api/carts/${cartId}`, { token: people[0]!.token });
      if (cart.status === 200) {
        recovered = performance.now() - upAt;
        break;
      }
      await sleep(100);
    }
    expect(recovered, "no 2xx within 10 s of PostgreSQL being back").toBeDefined();
    phase = "after";
    await sleep(1_500);
    console.info(
      `PostgreSQL outage: ${outcomes.length} requests, first 2xx ${Math.round(recovered!)} ms after PostgreSQL was back`,
    );
  } finally {
    running = false;
    await Promise.all(workers);
  }

  // Never a hang, a cut connection or a 500; every 503 says what is wrong, as `{ message, code }`.
  const bad = outcomes.filter(
    (o) =>
      !o.answer ||
      !(
        (o.answer.status >= 200 && o.answer.status < 300) ||
        (o.answer.status === 503 &&
          o.answer.body?.code === "SERVICE_UNAVAILABLE" &&
          /database is unavailable/i.test(o.answer.body?.message))
      ),
  );
  expect(bad.slice(0, 10)).toEqual([]);
  const inPhase = (p: string) => outcomes.filter((o) => o.phase === p);
  // Before the stop and once recovered, everything works.
  expect(inPhase("up").length).toBeGreaterThan(20);
  expect(inPhase("up").filter((o) => o.answer!.status >= 300)).toEqual([]);
  expect(inPhase("after").length).toBeGreaterThan(20);
  expect(inPhase("after").filter((o) => o.answer!.status >= 300)).toEqual([]);
  // While it is down, every call that needs the database says so (the catalog is served from
  // memory, but every route here checks the signed-in user's auth session in the database).
  const down = inPhase("down");
  expect(down.length).toBeGreaterThan(20);
  expect(down.filter((o) => o.answer!.status !== 503)).toEqual([]);
  // Still the same process: it neither crashed nor was restarted.
  expect(server.child.exitCode, server.output()).toBeNull();

  // The cart is whole: each worker's line still exists (moving between 1 and 2 items, plus one
  // add across the outage whose minus failed, plus one whose answer was lost as the database
  // stopped) and the totals add up.
  const cart = (await call(base, "GET", `/api/carts/${cartId}`, { token: people[1]!.token })).body
    .cart as {
    products: Array<{ quantity: number; lineTotal: number; productId: { price: number } }>;
    itemCount: number;
    totalPrice: number;
  };
  expect(cart.products).toHaveLength(WORKERS);
  for (const line of cart.products) expect([1, 2, 3, 4]).toContain(line.quantity);
  expect(cart.itemCount).toBe(cart.products.reduce((n, l) => n + l.quantity, 0));
  const cents = (x: number) => Math.round(x * 100);
  expect(cents(cart.totalPrice)).toBe(
    cart.products.reduce((s, l) => s + cents(l.productId.price) * l.quantity, 0),
  );
});
