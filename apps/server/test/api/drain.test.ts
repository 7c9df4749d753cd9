/**
 * Drain on one instance (app.close(), which SIGTERM calls): live sockets are told to reconnect
 * elsewhere (GOING_AWAY) at once, new ones are refused, and a request in flight still completes.
 * Two instances, where the client moves and catches up, are in drain-two-instances.test.ts.
 */
import { LiveClose } from "@cartner/contract";
import { afterAll, beforeAll, expect, it } from "vitest";
import { holdPaymentDetails, requestInFlight, tracked } from "../drain-support.ts";
import { createTestApp, signUp, type TestApp } from "../helpers.ts";
import { listenForLive, open, signedIn, within } from "../live-peers.ts";

let t: TestApp;
let base: string;
let closing: Promise<void> | undefined;

beforeAll(async () => {
  t = await createTestApp();
  base = await listenForLive(t);
});
afterAll(async () => {
  await (closing ?? t.close());
});

it("tells live sockets to go elsewhere, refuses new ones and finishes the request in flight", async () => {
  const ann = await signUp(t, "Ann");
  const ben = await signUp(t, "Ben");
  const annLive = await signedIn(base, ann.token);
  const benLive = await signedIn(base, ben.token);
  // A socket still signing in is told too.
  const waiting = open(base);
  await new Promise((resolve) => waiting.socket.once("open", resolve));

  const held = await holdPaymentDetails(t.database);
  const { answer } = await requestInFlight(t.app, ann.token);
  closing = t.app.close();
  const closed = tracked(closing);

  for (const peer of [annLive, benLive, waiting]) {
    expect((await within(peer.closed, 3_000)).code).toBe(LiveClose.GOING_AWAY);
  }
  // Not one more socket while draining: the upgrade is refused or the port no longer listens.
  const late = open(base);
  const refused = await within(
    new Promise<string>((resolve) => {
      late.socket.once("open", () => resolve("opened"));
      late.socket.once("unexpected-response", (_req, res) => resolve(`HTTP ${res.statusCode}`));
      late.socket.once("error", (error) => resolve(`error ${error.message}`));
    }),
    3_000,
  );
  expect(refused).not.toBe("opened");
  expect(refused).toMatch(/HTTP 503|ECONNREFUSED|ECONNRESET/);

  // The request that arrived before the drain is still being answered: close() waits for it.
  expect(closed()).toBe(false);
  await held.release();
  const res = await within(answer, 5_000);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  await within(closing, 5_000);
});
