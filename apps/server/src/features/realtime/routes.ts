import {
  ErrorCode,
  LIVE_AUTH_TIMEOUT_MS,
  LiveAuthMessageSchema,
  LiveClose,
} from "@cartner/contract";
import type { FastifyPluginAsync } from "fastify";
import { AppError } from "../../lib/errors.ts";
import type { AuthContext } from "../auth/service.ts";
import type { LiveHub } from "./hub.ts";

/** A client sends one auth message and then nothing much; more than this is misuse. */
const MAX_MESSAGES_PER_MINUTE = 30;

export const liveRoutes =
  (deps: {
    hub: LiveHub;
    authenticate: (token: string) => Promise<AuthContext>;
    appOrigin: string;
  }): FastifyPluginAsync =>
  async (app) => {
    const { hub, authenticate, appOrigin } = deps;
    app.get(
      "/live",
      {
        websocket: true,
        // A browser always sends its Origin: another site's page may not open our socket.
        preValidation: async (request) => {
          const origin = request.headers.origin;
          if (origin !== undefined && origin !== appOrigin) {
            throw new AppError(403, ErrorCode.FORBIDDEN, "This origin may not connect.");
          }
        },
      },
      (socket) => {
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
            parsed = isBinary
              ? undefined
              : LiveAuthMessageSchema.safeParse(JSON.parse(String(data)));
          } catch {
            parsed = undefined;
          }
          if (!parsed?.success) {
            socket.close(LiveClose.UNAUTHORIZED, 'Send {"type":"auth","token":...} first');
            return;
          }
          const { token } = parsed.data;
          state = "checking";
          authenticate(token).then(
            (context) => {
              if (socket.readyState !== socket.OPEN) return;
              state = "ready";
              clearTimeout(authTimer);
              hub.add(socket, context.user._id, token);
              socket.send(JSON.stringify({ type: "ready" }));
            },
            () => socket.close(LiveClose.UNAUTHORIZED, "Your session has ended"),
          );
        });
      },
    );
  };
