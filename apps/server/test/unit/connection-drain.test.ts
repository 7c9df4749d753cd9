/**
 * The connections' drain on a bare Fastify server (plugins/shutdown.ts): a keep-alive connection
 * whose answer began before the stop (so it went out keep-alive) is closed once that answer is
 * written, where Node would leave it open and hold close(). The half-sent request and the request
 * kept in its handler are in api/drain-connections.test.ts.
 */
import net from "node:net";
import Fastify from "fastify";
import { afterEach, expect, it } from "vitest";
import type { Database } from "../../src/db/client.ts";
import { CONNECTION_DRAIN_MS, installShutdown } from "../../src/plugins/shutdown.ts";

const app = Fastify({ return503OnClosing: true, forceCloseConnections: "idle" });
let client: net.Socket | undefined;

afterEach(() => {
  client?.destroy();
});

it("closes a keep-alive connection once an answer begun before the stop is written", async () => {
  installShutdown(app, { close: async () => {} } as unknown as Database);
  let finish!: () => void;
  const begun = new Promise<void>((resolve) => {
    app.get("/slow", (_request, reply) => {
      reply.hijack();
      reply.raw.writeHead(200, { "content-type": "text/plain", "content-length": "5" });
      reply.raw.write("he");
      finish = () => reply.raw.end("llo");
      resolve();
    });
  });
  await app.listen({ port: 0, host: "127.0.0.1" });
  const address = app.server.address();
  if (!address || typeof address === "string") throw new Error("no port");

  const socket = net.connect(address.port, "127.0.0.1");
  client = socket;
  let received = "";
  socket.on("data", (chunk) => (received += String(chunk)));
  const closedBy = new Promise<string>((resolve) => {
    socket.once("end", () => resolve("closed by the server"));
    socket.once("data", () => setTimeout(() => resolve("still open"), CONNECTION_DRAIN_MS + 3_000));
  });
  socket.write("GET /slow HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n");
  await begun;

  const closing = app.close();
  // Past the drain the answer is still being written: the connection is kept.
  await new Promise((resolve) => setTimeout(resolve, CONNECTION_DRAIN_MS + 300));
  expect(socket.destroyed).toBe(false);
  finish();
  expect(await closedBy).toBe("closed by the server");
  expect(received).toMatch(/keep-alive/i);
  expect(received.endsWith("hello")).toBe(true);
  await closing;
});
