import type { FastifyInstance } from "fastify";
import { sql } from "drizzle-orm";
import type { Database } from "../src/db/client.ts";

/**
 * Holds the payment_details table in a transaction of the test's own until release(): on PGlite
 * (one connection) every query waits meanwhile, on PostgreSQL only those that read that table.
 * Resolves once the lock is taken.
 */
export async function holdPaymentDetails(
  database: Database,
): Promise<{ release(): Promise<void> }> {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let taken!: () => void;
  const locked = new Promise<void>((resolve) => (taken = resolve));
  const done = database.db.transaction(async (tx) => {
    await tx.execute(sql`lock table payment_details in access exclusive mode`);
    taken();
    await gate;
  });
  await locked;
  return {
    release: async () => {
      release();
      await done;
    },
  };
}

/**
 * GET /api/users/me/payment-details over real HTTP, answered once the request has reached the
 * server (it waits there while holdPaymentDetails() holds the table).
 */
export async function requestInFlight(
  app: FastifyInstance,
  token: string,
): Promise<{ answer: Promise<{ status: number; body: unknown }> }> {
  const address = app.server.address();
  if (!address || typeof address === "string") throw new Error("not listening");
  const arrived = new Promise((resolve) => app.server.once("request", resolve));
  const answer = fetch(`http://127.0.0.1:${address.port}/api/users/me/payment-details`, {
    headers: { authorization: `Bearer ${token}` },
  }).then(
    async (res) => ({ status: res.status, body: (await res.json()) as unknown }),
    // A connection cut off mid-way is an answer too: the test expects 200.
    (error: Error) => ({ status: 0, body: error.message }),
  );
  await arrived;
  return { answer };
}

/** A check that answers whether the promise has settled yet. */
export function tracked(promise: Promise<unknown>): () => boolean {
  let settled = false;
  void promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  return () => settled;
}
