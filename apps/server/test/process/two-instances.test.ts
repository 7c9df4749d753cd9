import crypto from "node:crypto";
import { LiveClose, type LiveServerMessage } from "@cartner/contract";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import pg from "pg";
import { WebSocket } from "ws";
import {
  call,
  createPostgresDatabase,
  sharedCart,
  signUp,
  startServer,
  type ServerProcess,
} from "./server-process.ts";

// Two real server processes on one PostgreSQL database, as behind a load balancer (docs/deploy.md).
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
const servers: ServerProcess[] = [];

beforeAll(async () => {
  database = await createPostgresDatabase(process.env.TEST_DATABASE_URL!, "cartner_test_two");
  // Both as docs/deploy.md says: one database, one JWT secret. They start at once, as after a
  // deploy: one migrates while the other waits on the migration lock.
  const env = {
    DATABASE_URL: database.url,
    DATA_DIR: "memory://",
    JWT_SECRET: crypto.randomBytes(32).toString("hex"),
  };
  servers.push(...(await Promise.all([startServer(env), startServer(env)])));
});

afterAll(async () => {
  for (const s of servers) {
    s.child.kill("SIGTERM");
    await s.exited;
  }
  await database?.drop();
});

function listen(base: string, token: string) {
  const socket = new WebSocket(`${base.replace("http", "ws")}/api/live`);
  const messages: LiveServerMessage[] = [];
  const received = (match: (m: LiveServerMessage) => boolean, ms = 3_000) =>
    new Promise<LiveServerMessage>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`nothing within ${ms} ms`)), ms);
      const check = () => {
        const found = messages.find(match);
        if (found) {
          clearTimeout(timer);
          socket.off("message", check);
          resolve(found);
        }
      };
      socket.on("message", check);
      check();
    });
  socket.on("message", (data) => messages.push(JSON.parse(String(data)) as LiveServerMessage));
  socket.on("open", () => socket.send(JSON.stringify({ type: "auth", token })));
  return { socket, messages, received };
}

it("a member connected to one instance hears of a change made through the other", async () => {
  const [one, two] = servers as [ServerProcess, ServerProcess];
  const suffix = Date.now().toString(36);
  const ann = await signUp(one.url, "Ann", `ann.${suffix}@example.com`);
  const ben = await signUp(two.url, "Ben", `ben.${suffix}@example.com`);
  const { sessionId, cartId, products } = await sharedCart(one.url, [ann, ben], {
    products: 1,
    perLine: 1,
  });

  const annLive = listen(one.url, ann.token);
  await annLive.received((m) => m.type === "ready");

  const added = await call(two.url, "POST", `/api/carts/${cartId}/product`, {
    token: ben.token,
    body: { productId: products[0]!._id },
  });
  expect(added.status).toBe(200);
  const event = await annLive.received((m) => m.type === "cart.updated");
  expect(event).toEqual({
    type: "cart.updated",
    sessionId,
    cartId,
    version: (added.body.cart as { version: number }).version,
  });

  // And what the event names is what instance one now answers.
  const cart = await call(one.url, "GET", `/api/carts/${cartId}`, { token: ann.token });
  expect((cart.body.cart as { products: unknown[] }).products).toHaveLength(1);
  annLive.socket.close();
});

it("after losing its LISTEN connection, an instance reconnects and tells its sockets to catch up", async () => {
  const [one, two] = servers as [ServerProcess, ServerProcess];
  const suffix = Date.now().toString(36);
  const ann = await signUp(one.url, "Ann", `ann2.${suffix}@example.com`);
  const ben = await signUp(two.url, "Ben", `ben2.${suffix}@example.com`);
  const { cartId, products } = await sharedCart(one.url, [ann, ben], { products: 1, perLine: 2 });
  const annLive = listen(one.url, ann.token);
  await annLive.received((m) => m.type === "ready");
  const closed = new Promise<number>((resolve) => annLive.socket.on("close", resolve));

  // As when PostgreSQL restarts or a network blip drops the connection: end every LISTEN session.
  const admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
  const { rowCount } = await admin.query(
    "select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query ilike 'listen%'",
  );
  await admin.end();
  expect(rowCount).toBe(2);

  // Events sent while it was away are lost, so the socket is closed for the client to refetch.
  expect(await closed).toBe(LiveClose.RESYNC);
  const again = listen(one.url, ann.token);
  await again.received((m) => m.type === "ready");
  const added = await call(two.url, "POST", `/api/carts/${cartId}/product`, {
    token: ben.token,
    body: { productId: products[0]!._id },
  });
  expect(added.status).toBe(200);
  await again.received((m) => m.type === "cart.updated" && m.cartId === cartId);
  again.socket.close();
});

it("logging out through one instance closes the socket on the other at once (4401)", async () => {
  const [one, two] = servers as [ServerProcess, ServerProcess];
  const ann = await signUp(one.url, "Ann", `ann3.${Date.now().toString(36)}@example.com`);
  const annLive = listen(one.url, ann.token);
  await annLive.received((m) => m.type === "ready");
  const closed = new Promise<number>((resolve) => annLive.socket.on("close", resolve));
  const started = Date.now();
  const out = await call(two.url, "POST", "/api/auth/logout", { token: ann.token });
  expect(out.status).toBe(204);
  expect(await closed).toBe(LiveClose.UNAUTHORIZED);
  // Well before the 30 s re-check that used to be the only way it ended.
  expect(Date.now() - started).toBeLessThan(2_000);
});

/** Polls `probe` every 25 ms until it returns true; how long that took, or a failure after `ms`. */
async function within(ms: number, probe: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  while (!(await probe())) {
    if (Date.now() - started > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return Date.now() - started;
}

it("both instances remember auth sessions and reads, and forget them within 1 s of a change on the other", async () => {
  const [one, two] = servers as [ServerProcess, ServerProcess];
  const suffix = Date.now().toString(36);
  const ann = await signUp(one.url, "Ann", `ann4.${suffix}@example.com`);
  const ben = await signUp(two.url, "Ben", `ben4.${suffix}@example.com`);
  const { sessionId, cartId, products } = await sharedCart(one.url, [ann, ben], {
    products: 1,
    perLine: 1,
  });
  // Ben's token and his view of the cart are now remembered on instance one.
  const cartOnOne = () => call(one.url, "GET", `/api/carts/${cartId}`, { token: ben.token });
  expect((await cartOnOne()).status).toBe(200);
  expect((await cartOnOne()).status).toBe(200);

  // A change through two: one's cached cart is dropped.
  const added = await call(two.url, "POST", `/api/carts/${cartId}/product`, {
    token: ann.token,
    body: { productId: products[0]!._id },
  });
  expect(added.status).toBe(200);
  await within(1_000, async () => {
    const cart = (await cartOnOne()).body.cart as { products: unknown[] };
    return cart.products.length === 1;
  });

  // Ann removes Ben through two: one refuses him the cart.
  const removed = await call(
    two.url,
    "DELETE",
    `/api/sessions/${sessionId}/members/${ben.userId}`,
    {
      token: ann.token,
    },
  );
  expect(removed.status).toBe(200);
  await within(1_000, async () => (await cartOnOne()).status === 404);

  // Ann's token, remembered on one, is refused there within 1 s of her logout through two.
  const productsOnOne = () => call(one.url, "GET", "/api/products", { token: ann.token });
  expect((await productsOnOne()).status).toBe(200);
  expect((await call(two.url, "POST", "/api/auth/logout", { token: ann.token })).status).toBe(204);
  const took = await within(1_000, async () => (await productsOnOne()).status === 401);
  console.info(`logout through two refused on one after ${took} ms`);
});

it("while its LISTEN connection is down, an instance answers from the database, not its caches", async () => {
  const [one, two] = servers as [ServerProcess, ServerProcess];
  const suffix = Date.now().toString(36);
  const ann = await signUp(one.url, "Ann", `ann5.${suffix}@example.com`);
  const ben = await signUp(two.url, "Ben", `ben5.${suffix}@example.com`);
  const { cartId, products } = await sharedCart(one.url, [ann, ben], { products: 1, perLine: 1 });
  const cartOnOne = () => call(one.url, "GET", `/api/carts/${cartId}`, { token: ann.token });
  expect((await cartOnOne()).status).toBe(200);
  expect((await call(one.url, "GET", "/api/products", { token: ben.token })).status).toBe(200);

  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await admin.connect();
  // A connection to the test database opened now, for the changes below: no instance can open new
  // ones meanwhile (instance two's pool might need one, and would answer 500).
  const direct = new pg.Client({ connectionString: database.url });
  await direct.connect();
  const dbName = new URL(database.url).pathname.slice(1);
  try {
    // No new connections to the database, so the LISTEN connections cannot come back (instance
    // one's pool keeps the connections it holds); then end both LISTEN sessions.
    await admin.query(`ALTER DATABASE "${dbName}" ALLOW_CONNECTIONS false`);
    await admin.query(
      "select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and query ilike 'listen%'",
      [dbName],
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Losing the connection emptied one's caches; these reads would fill them again.
    expect((await cartOnOne()).status).toBe(200);
    expect((await call(one.url, "GET", "/api/products", { token: ben.token })).status).toBe(200);

    // Changes one cannot hear of, made in the database as another instance would: Ben adds a
    // line (cart_write(), as every instance writes) and his auth sessions are revoked.
    const { rows } = await direct.query(
      "select verdict from cart_write('add', $1, $2, $3, null, 1, null, null, 99, now())",
      [cartId, ben.userId, products[0]!._id],
    );
    expect(rows[0].verdict).toBe("ok");
    await direct.query("update auth_sessions set revoked_at = now() where user_id = $1", [
      ben.userId,
    ]);

    // One answers from the database: the line is there, and Ben's token is refused.
    const cart = (await cartOnOne()).body.cart as { products: unknown[] };
    expect(cart.products).toHaveLength(1);
    expect((await call(one.url, "GET", "/api/products", { token: ben.token })).status).toBe(401);
  } finally {
    await admin.query(`ALTER DATABASE "${dbName}" ALLOW_CONNECTIONS true`);
    await Promise.all([admin.end(), direct.end()]);
  }
});

// Last: it stops instance one.
it("SIGTERM drains an instance: its live socket is told to go elsewhere (1001) and it exits cleanly", async () => {
  const [one, two] = servers as [ServerProcess, ServerProcess];
  const ann = await signUp(two.url, "Ann", `ann5.${Date.now().toString(36)}@example.com`);
  const annLive = listen(one.url, ann.token);
  await annLive.received((m) => m.type === "ready");
  const closed = new Promise<number>((resolve) => annLive.socket.on("close", resolve));
  one.child.kill("SIGTERM");
  expect(await closed).toBe(LiveClose.GOING_AWAY);
  expect(await one.exited, one.output()).toBe(0);
  // The client reconnects to the instance left.
  const again = listen(two.url, ann.token);
  await again.received((m) => m.type === "ready");
  again.socket.close();
});
