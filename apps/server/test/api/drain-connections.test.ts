/**
 * Drain of the connections (app.close(), which SIGTERM calls): after CONNECTION_DRAIN_MS a
 * connection whose request never finished arriving is closed, while one whose request is still in
 * its handler is kept until its answer is out. The whole process's stop is in
 * process/restart.test.ts.
 */
import net from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { CONNECTION_DRAIN_MS } from "../../src/plugins/shutdown.ts";
import { holdPaymentDetails, requestInFlight, tracked } from "../drain-support.ts";
import { createTestApp, signUp, type TestApp } from "../helpers.ts";
import { within } from "../live-peers.ts";

let t: TestApp;
let port: number;
let closing: Promise<void> | undefined;

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  const address = t.app.server.address();
  if (!address || typeof address === "string") throw new Error("no port");
  port = address.port;
});
afterAll(async () => {
  await (closing ?? t.close());
});

it("closes a half-sent request's connection after the drain and keeps the one being answered", async () => {
  const ann = await signUp(t, "Ann");
  // Half a request: its headers never end, so it never reaches a handler.
  const half = net.connect(port, "127.0.0.1");
  half.on("error", () => {});
  await new Promise((resolve) => half.once("connect", resolve));
  const halfClosed = new Promise((resolve) => half.once("close", resolve));
  half.write("GET /api/conhealth HTTP/1.1\r\nHost: localhost\r\n");

  // A request that waits in its handler, past the drain, for the table the test holds.
  const held = await holdPaymentDetails(t.database);
  try {
    const { answer } = await requestInFlight(t.app, ann.token);
    const answered = tracked(answer);
    const started = performance.now();
    closing = t.app.close();
    const closed = tracked(closing);

    await within(halfClosed, CONNECTION_DRAIN_MS + 3_000);
    expect(performance.now() - started).toBeGreaterThanOrEqual(CONNECTION_DRAIN_MS - 100);
    // The request in its handler was not cut with it: close() still waits for its answer.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(answered()).toBe(false);
    expect(closed()).toBe(false);

    await held.release();
    const res = await within(answer, 5_000);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await within(closing, 5_000);
  } finally {
    // Whatever failed, close() can end.
    half.destroy();
    await held.release();
  }
});
