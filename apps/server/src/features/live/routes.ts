import {
  ErrorCode,
  LIVE_AUTH_TIMEOUT_MS,
  LIVE_MAX_PENDING_PER_ADDRESS,
  LiveAuthMessageSchema,
  LiveClose,
  type LiveLookMessage,
} from "@cartner/contract";
import type { FastifyInstance } from "fastify";
import type { WebSocket } from "ws";
import { AppError } from "../../lib/errors.ts";
import { allowedOriginTest } from "../../lib/origin.ts";
import { authenticate } from "../auth/index.ts";
import type { LiveDeps } from "./deps.ts";

/** A client sends one auth message and then nothing much; more than this is misuse. */
const MAX_MESSAGES_PER_MINUTE = 30;

/**
 * GET /api/live: the live socket, which signs in with its first message and then only listens;
 * with `?look={token}`, a look-only link's socket, which needs no account.
 */
export async function liveRoutes(app: FastifyInstance, deps: LiveDeps): Promise<void> {
  const { hub } = deps;
  const isAllowed = allowedOriginTest(deps.allowedOrigins);
  /** Sockets per client address not yet signed in, capped: one client opened 1,000 in 346 ms. */
  const pendingByAddress = new Map<string, number>();
  app.get(
    "/live",
    {
      websocket: true,
      // A browser always sends its Origin: only the allowed origins' pages may open the socket.
      preValidation: async (request) => {
        const origin = request.headers.origin;
        if (origin !== undefined && !isAllowed(origin)) {
          throw new AppError(403, ErrorCode.FORBIDDEN, "This origin may not connect.");
        }
      },
    },
    (socket, request) => {
      const { look } = request.query as Record<string, unknown>;
      if (look !== undefined) {
        openLookSocket(deps, socket, look);
        return;
      }
      const address = request.ip;
      const pending = pendingByAddress.get(address) ?? 0;
      if (pending >= LIVE_MAX_PENDING_PER_ADDRESS) {
        socket.close(LiveClose.TOO_MANY, "Too many connections waiting to sign in");
        return;
      }
      pendingByAddress.set(address, pending + 1);
      let counted = true;
      /** Leaves the address's pending count once: on sign-in or on close. */
      const signedInOrGone = () => {
        if (!counted) return;
        counted = false;
        const left = (pendingByAddress.get(address) ?? 1) - 1;
        if (left <= 0) pendingByAddress.delete(address);
        else pendingByAddress.set(address, left);
      };
      socket.on("close", signedInOrGone);

      let state: "waiting" | "checking" | "ready" = "waiting";
      let windowStart = Date.now();
      let messages = 0;
      const authTimer = setTimeout(() => {
        if (state !== "ready") socket.close(LiveClose.UNAUTHORIZED, "Sign in first");
      }, LIVE_AUTH_TIMEOUT_MS);
      socket.on("close", () => clearTimeout(authTimer));

      socket.on("message", (data, isBinary) => {
        const now = Date.now();
        if (now - windowStart > 60_000) [windowStart, messages] = [now, 0];
        if (++messages > MAX_MESSAGES_PER_MINUTE) {
          socket.close(LiveClose.POLICY, "Too many messages");
          return;
        }
        // After the auth message the server only talks; anything else is ignored.
        if (state !== "waiting") return;
        let parsed;
        try {
          parsed = isBinary ? undefined : LiveAuthMessageSchema.safeParse(JSON.parse(String(data)));
        } catch {
          parsed = undefined;
        }
        if (!parsed?.success) {
          socket.close(LiveClose.UNAUTHORIZED, 'Send {"type":"auth","token":...} first');
          return;
        }
        const { token } = parsed.data;
        state = "checking";
        authenticate(deps.auth, token).then(
          (context) => {
            if (socket.readyState !== socket.OPEN) return;
            state = "ready";
            clearTimeout(authTimer);
            signedInOrGone();
            if (hub.add(socket, { userId: context.user._id, sid: context.sid, token })) {
              socket.send(JSON.stringify({ type: "ready" }));
            }
          },
          () => socket.close(LiveClose.UNAUTHORIZED, "Your session has ended"),
        );
      });
    },
  );
}

/**
 * A socket opened by a look-only link: ready and the view at once while the link works, then the
 * view after each change of the cart; closed with 4404 once the link no longer works (or at once,
 * when it does not). It listens only: whatever the client sends is ignored, too much of it closes.
 */
function openLookSocket(deps: LiveDeps, socket: WebSocket, token: unknown): void {
  let windowStart = Date.now();
  let messages = 0;
  socket.on("message", () => {
    const now = Date.now();
    if (now - windowStart > 60_000) [windowStart, messages] = [now, 0];
    if (++messages > MAX_MESSAGES_PER_MINUTE) socket.close(LiveClose.POLICY, "Too many messages");
  });
  if (typeof token !== "string") {
    socket.close(LiveClose.LINK_GONE, "This link does not work any more");
    return;
  }
  deps.openLook(token).then(
    ({ view, link }) => {
      if (socket.readyState !== socket.OPEN) return;
      if (!deps.hub.addLook(socket, link)) return;
      socket.send(JSON.stringify({ type: "ready" }));
      socket.send(JSON.stringify({ type: "look.view", view } satisfies LiveLookMessage));
    },
    (error: unknown) => {
      if (error instanceof AppError && error.status === 404) {
        socket.close(LiveClose.LINK_GONE, "This link does not work any more");
      } else socket.close(LiveClose.RESYNC, "Try again");
    },
  );
}

/**
 * An upgrade request answered over HTTP instead (429 from the rate limit, 403 Origin, 401, 404)
 * arrived on a socket that Node handed over for the upgrade and no longer manages: end it after
 * the answer, or it stays open in CLOSE-WAIT for ever (2,000 refused upgrades once kept 2,000
 * descriptors). @fastify/websocket does this only when its own onRequest hook ran, which a
 * hook answering earlier (the general rate limit) prevents.
 */
export function endRefusedUpgrades(app: FastifyInstance): void {
  app.addHook("onResponse", (request, _reply, done) => {
    const { socket, headers } = request.raw;
    if (headers.upgrade && !socket.destroyed && socket.listenerCount("data") === 0) {
      socket.destroy();
    }
    done();
  });
}
