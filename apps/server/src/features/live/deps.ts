import type { LookView } from "@cartner/contract";
import type { AuthDeps } from "../auth/index.ts";
import type { LiveHub } from "./hub.ts";

/** What the live socket's route needs (routes.ts), built once in src/services.ts. */
export interface LiveDeps {
  /** This instance's signed-in sockets (hub.ts), created once. */
  hub: LiveHub;
  /** What checking a socket's token takes (authenticate()). */
  auth: Pick<AuthDeps, "db" | "clock" | "tokens" | "sessionCache">;
  /** Origins whose pages may open the socket (config.allowedOrigins). */
  allowedOrigins: readonly string[];
  /** Opens a look-only link by its token (`?look=`): its view and link; throws 404 when it does not work. */
  openLook: (
    token: string,
  ) => Promise<{ view: LookView; link: { linkId: string; sessionId: string } }>;
}
