/**
 * What the auth functions need, built once in src/services.ts: the database, the clock, the token
 * service (the signing key), the code key, the mailer, and this instance's memory of checked auth
 * sessions (session-check.ts).
 */
import type { User } from "@cartner/contract";
import type { Db } from "../../db/client.ts";
import type { Clock } from "../../lib/clock.ts";
import type { Mailer } from "../mail/index.ts";
import type { EventBus } from "../live/index.ts";
import type { AuthSessionCache } from "./session-check.ts";
import type { TokenService } from "./tokens.ts";

export interface AuthDeps {
  db: Db;
  clock: Clock;
  tokens: TokenService;
  otpKey: Buffer;
  mailer: Mailer;
  /** The auth sessions this instance has checked, created once (createAuthSessionCache). */
  sessionCache: AuthSessionCache;
  /** Tells every instance to close the live sockets of a revoked auth session at once. */
  events?: Pick<EventBus, "publish">;
  /** Told of work done after an answer (reset mails), so shutdown and tests can wait for it. */
  trackJob?: (job: Promise<unknown>) => void;
}

/** Who a request is from: the signed-in user and their auth session (device). */
export interface AuthContext {
  user: User;
  sid: string;
}

export const toUser = (row: {
  id: string;
  name: string;
  email: string;
  roles: User["roles"];
}): User => ({
  _id: row.id,
  name: row.name,
  email: row.email,
  roles: row.roles,
});
