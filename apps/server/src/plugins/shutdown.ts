import type { Socket } from "node:net";
import type { FastifyInstance } from "fastify";
import type { Database } from "../db/client.ts";

/**
 * How long a stop waits before it closes the connections that carry no request being answered.
 * Longer than the live sockets' drain (LIVE_DRAIN_MS, plugins/websocket.ts), so the server has
 * stopped listening by then, and short enough that the job queue and the database still close
 * within the stop's 10 s (main.ts).
 */
export const CONNECTION_DRAIN_MS = 3_000;

/**
 * Shutdown: the database closes with the app; while shutting down, each keep-alive connection
 * ends after its response, so close() does not wait out idle sockets after the in-flight requests
 * have finished; and the connections no request is being answered on are closed after the drain.
 */
export function installShutdown(app: FastifyInstance, database: Database): void {
  app.addHook("onClose", async () => {
    await database.close();
  });
  let closing = false;
  app.addHook("preClose", async () => {
    closing = true;
  });
  // Synchronous (done, no promise): it runs on every answer.
  app.addHook("onSend", (_request, reply, payload, done) => {
    if (closing) reply.header("connection", "close");
    done(null, payload);
  });
  installConnectionDrain(app, CONNECTION_DRAIN_MS);
}

/**
 * The server's close() waits for every connection. Node closes the idle keep-alive ones when
 * close() is called (Fastify's forceCloseConnections: "idle"), and those whose answer is sent
 * after the stop began end after it (Connection: close). Two kinds would still hold the stop until
 * the 10 s grace cuts the process off, the database left open: a connection whose request never
 * finished arriving (its headers never end, so it never reaches a handler), and a keep-alive one
 * whose answer had started before the stop and ended after close() (idle only then).
 *
 * So each connection is tracked with the number of its requests being answered: from the
 * server's "request" (headers complete) to the end of its response. drainMs after the stop
 * began, every connection with none is closed; one with a request in a handler is kept, however
 * long the handler takes (the 10 s grace stays the last resort), and closed once its last answer
 * has been written. Upgraded connections (live sockets) are the WebSocket drain's.
 */
function installConnectionDrain(app: FastifyInstance, drainMs: number): void {
  const server = app.server;
  /** Each open connection, with how many of its requests are being answered. */
  const connections = new Map<Socket, number>();
  let drained = false;

  server.on("connection", (socket: Socket) => {
    connections.set(socket, 0);
    socket.once("close", () => connections.delete(socket));
  });
  server.on("upgrade", (_request, socket: Socket) => {
    connections.delete(socket);
  });
  // Before Fastify's own listener, which may answer at once (a 503 while closing).
  server.prependListener("request", (request, response) => {
    const socket = request.socket;
    const answering = connections.get(socket);
    if (answering === undefined) return;
    connections.set(socket, answering + 1);
    // A response emits "close" once it has finished, or when its connection ended before: one
    // listener per request (this runs on every request).
    response.once("close", () => {
      const left = connections.get(socket);
      if (left === undefined) return; // the connection has closed
      connections.set(socket, left - 1);
      // Past the drain, a connection is not kept for a next request: closed once what was
      // written has gone out.
      if (drained && left === 1) socket.destroySoon();
    });
  });

  app.addHook("preClose", async () => {
    if (!server.listening) return;
    const timer = setTimeout(() => {
      drained = true;
      for (const [socket, answering] of connections) if (answering === 0) socket.destroy();
    }, drainMs);
    timer.unref();
    server.once("close", () => clearTimeout(timer));
  });
}
