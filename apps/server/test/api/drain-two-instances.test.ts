/**
 * A rolling restart with two instances on one PostgreSQL database (this file runs only there), as
 * behind a load balancer: a member's live socket is on A when A drains. The socket is told to go
 * elsewhere (GOING_AWAY), A still answers the request it had in flight, and the member, back on B,
 * misses no change: what was written while the socket moved is in what B answers (the session's
 * version says so), and what is written after arrives live.
 */
import { LiveClose, type LiveServerMessage } from "@cartner/contract";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, expect, it } from "vitest";
import { buildApp } from "../../src/app.ts";
import { openDatabase } from "../../src/db/client.ts";
import { holdPaymentDetails, requestInFlight, tracked } from "../drain-support.ts";
import {
  client,
  createTestApp,
  sessionWithEveryRole,
  testConfig,
  type TestApp,
} from "../helpers.ts";
import { signedIn, within } from "../live-peers.ts";

/** One secret for both, as docs/deploy.md says: a token from one works on the other. */
const env = { JWT_SECRET: "drain-two-instances-".padEnd(48, "x") };
let b: TestApp;
let a: FastifyInstance;
let closingA: Promise<void> | undefined;

beforeAll(async () => {
  b = await createTestApp({ env });
  const database = await openDatabase({
    databaseUrl: b.database.url!,
    dataDir: "memory://",
    migrate: false,
  });
  a = await buildApp(testConfig(env), { database });
  await a.ready();
});
afterAll(async () => {
  await (closingA ?? a.close());
  await b.close();
});

async function liveUrl(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: "127.0.0.1" });
  const address = app.server.address();
  if (!address || typeof address === "string") throw new Error("no port");
  return `ws://127.0.0.1:${address.port}/api/live`;
}

const cartUpdate = (m: LiveServerMessage) => m.type === "cart.updated";

it("moves a live client from a draining instance to the other without losing a change", async () => {
  expect(b.database.kind).toBe("postgres");
  const [onA, onB] = [await liveUrl(a), await liveUrl(b.app)];
  const { people, as, sessionId, cartId } = await sessionWithEveryRole(b);
  const products = (await as.creator("GET", "/api/products?limit=50")).json().products as Array<{
    _id: string;
    stock: number;
  }>;
  const [p1, p2, p3, p4] = products.filter((p) => p.stock >= 5);
  const add = async (productId: string) => {
    const res = await as.creator("POST", `/api/carts/${cartId}/product`, { productId });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().cart.version as number;
  };

  // Ben's socket is on A; a change made through B reaches him there.
  const benOnA = await signedIn(onA, people.participant.token);
  const before = await add(p1!._id);
  const event = await within(benOnA.next(cartUpdate), 3_000);
  expect(event).toMatchObject({ sessionId, cartId, version: before });

  // A drains with a request in flight (Ann's payment details, held up by the test's lock).
  const held = await holdPaymentDetails(b.database);
  const { answer } = await requestInFlight(a, people.creator.token);
  closingA = a.close();
  const closedA = tracked(closingA);
  expect((await within(benOnA.closed, 3_000)).code).toBe(LiveClose.GOING_AWAY);

  // While Ben's socket moves and A still finishes its request, Ann changes the cart through B.
  const whileMoving = await add(p2!._id);
  expect(closedA()).toBe(false);
  await held.release();
  const inFlight = await within(answer, 5_000);
  expect(inFlight.status, JSON.stringify(inFlight.body)).toBe(200);
  await within(closingA, 5_000);
  const afterDrain = await add(p3!._id);

  // Ben reconnects (the balancer sends him to B) and catches up from the session's version.
  const benOnB = await signedIn(onB, people.participant.token);
  const ben = client(b, people.participant.token);
  const sync = (await ben("GET", "/api/sessions/sync")).json() as {
    sessions: Array<{ _id: string; version: number }>;
  };
  const session = sync.sessions.find((s) => s._id === sessionId)!;
  expect(session.version).toBeGreaterThan(before);
  expect(session.version).toBe(afterDrain);
  expect(afterDrain).toBeGreaterThan(whileMoving);
  const cart = (await ben("GET", `/api/carts/${cartId}`)).json().cart as {
    products: Array<{ productId: { _id: string } }>;
    version: number;
  };
  expect(cart.version).toBe(afterDrain);
  expect(cart.products.map((line) => line.productId._id).sort()).toEqual(
    [p1!._id, p2!._id, p3!._id].sort(),
  );

  // And what changes next arrives live on B (an event of a version he already read may still
  // come first: the client skips it by its version).
  const next = await add(p4!._id);
  const arrived = benOnB.next((m) => cartUpdate(m) && "version" in m && (m.version ?? 0) >= next);
  expect(await within(arrived, 3_000)).toMatchObject({ cartId, version: next });
  benOnB.socket.close();
});
