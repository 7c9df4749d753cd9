/**
 * A look-only link revoked on one instance closes the view open on another (PostgreSQL only, as
 * behind a load balancer): the revocation travels over the bus as every other one does.
 */
import { LiveClose } from "@cartner/contract";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestApp, filledSession, secondInstance, type TestApp } from "../helpers.ts";
import { open, within } from "../live-peers.ts";

/** One secret for both, as docs/deploy.md says: a token from one works on the other. */
const env = { JWT_SECRET: "two-instances-".padEnd(48, "x") };
let t: TestApp;
let other: FastifyInstance;

beforeAll(async () => {
  t = await createTestApp({ env });
  other = await secondInstance(t, env);
  await other.listen({ port: 0, host: "127.0.0.1" });
});
afterAll(async () => {
  await other.close();
  await t.close();
});

it("closes the other instance's look-only socket when the link is revoked, and tells it of changes", async () => {
  expect(t.database.kind).toBe("postgres");
  const f = await filledSession(t);
  const made = await f.as.creator("POST", `/api/sessions/${f.sessionId}/links`, {
    lookOnly: true,
    expiresInHours: 1,
  });
  expect(made.statusCode, made.body).toBe(201);
  const link = made.json().link as { _id: string; token: string };
  const address = other.server.address();
  if (!address || typeof address === "string") throw new Error("no port");
  const peer = open(`ws://127.0.0.1:${address.port}/api/live?look=${link.token}`);
  await within(
    peer.next((m) => m.type === "ready"),
    3_000,
  );
  // A change made on the first instance reaches the view on the second.
  await f.as.participant("POST", `/api/carts/${f.cartId}/free-lines`, { name: "Lanterns" });
  await within(
    peer.next((m) => m.type === "look.view" && m.view.lines.some((l) => l.name === "Lanterns")),
    3_000,
  );
  const revoked = await f.as.creator("DELETE", `/api/sessions/${f.sessionId}/links/${link._id}`);
  expect(revoked.statusCode).toBe(200);
  expect((await within(peer.closed, 2_000)).code).toBe(LiveClose.LINK_GONE);
  // And the other instance answers 404 for it at once.
  expect((await other.inject({ method: "GET", url: `/api/look/${link.token}` })).statusCode).toBe(
    404,
  );
});
