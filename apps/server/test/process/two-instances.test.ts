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
