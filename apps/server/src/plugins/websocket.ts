import { once } from "node:events";
import { setTimeout as sleep } from "node:timers/promises";
import websocket from "@fastify/websocket";
import { LiveClose } from "@cartner/contract";
import type { FastifyInstance } from "fastify";
import type { WebSocketServer } from "ws";

/** The only message a client sends is its auth message. */
const LIVE_MAX_MESSAGE_BYTES = 8 * 1024;

/** How long a draining instance waits for its sockets' closing handshakes before cutting them. */
export const LIVE_DRAIN_MS = 2_000;

/**
 * Drain (app.close(), on SIGTERM): every live socket, signed in or not yet, is closed with
 * GOING_AWAY, so its client reconnects at once (through the load balancer, to another instance)
 * and refetches; a socket still open after LIVE_DRAIN_MS is cut. Upgrades arriving meanwhile get
 * Fastify's 503 (return503OnClosing), and none once the server stops listening. Requests in
 * flight are not waited for here: close() lets them finish after this.
 */
export async function drainLiveSockets(wss: WebSocketServer): Promise<void> {
  const sockets = [...wss.clients];
  const closed = sockets.map((socket) =>
    // once() rejects on an "error" event; the socket is done either way.
    socket.readyState === socket.CLOSED ? undefined : once(socket, "close").catch(() => undefined),
  );
  for (const socket of sockets) {
    socket.close(LiveClose.GOING_AWAY, "This server is restarting: reconnect");
  }
  const cutOff = new AbortController();
  await Promise.race([
    Promise.all(closed),
    sleep(LIVE_DRAIN_MS, undefined, { signal: cutOff.signal }).catch(() => undefined),
  ]);
  cutOff.abort();
  for (const socket of sockets) if (socket.readyState !== socket.CLOSED) socket.terminate();
  wss.close();
}

/** The WebSocket server under the live route: small frames only; drained on close. */
export async function registerWebSocket(app: FastifyInstance): Promise<void> {
  await app.register(websocket, {
    options: { maxPayload: LIVE_MAX_MESSAGE_BYTES },
    // A frame over the limit or a malformed one is the client's fault, not ours: a warning
    // without a stack (ws has already sent the close code, 1009 or 1002), then the socket goes.
    errorHandler: (error, socket, request) => {
      request.log.warn(
        { code: (error as { code?: string }).code, message: error.message },
        "live: socket closed after a bad frame",
      );
      socket.terminate();
    },
    preClose: async function (this: FastifyInstance) {
      await drainLiveSockets(this.websocketServer);
    },
  });
}
