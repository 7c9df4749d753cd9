import websocket from "@fastify/websocket";
import type { FastifyInstance } from "fastify";

/** The only message a client sends is its auth message. */
const LIVE_MAX_MESSAGE_BYTES = 8 * 1024;

/** The WebSocket server under the live route: small frames only. */
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
  });
}
