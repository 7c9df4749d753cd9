/**
 * What every part of the auth service is given: the options of createAuthService, with their
 * defaults applied, and this instance's memory of checked auth sessions.
 */
import type { User } from "@cartner/contract";
import type { Db } from "../../db/client.ts";
import type { Clock } from "../../lib/clock.ts";
import type { Mailer } from "../mail/index.ts";
import type { EventBus } from "../live/index.ts";
import type { TokenService } from "./tokens.ts";

export interface AuthDeps {
  db: Db;
  clock: Clock;
  tokens: TokenService;
  otpKey: Buffer;
  mailer: Mailer;
  /** How long a checked auth session may be trusted without reading its row again (0: never). */
  sessionCacheMs?: number;
  /**
   * Whether remembered auth sessions may be trusted now: not while this instance might miss
   * another's revocation (its LISTEN connection is down). Always, by default.
   */
  cacheUsable?: () => boolean;
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

/** The auth sessions this instance has checked (see session-check.ts). */
export interface SessionMemory {
  /** Checked auth sessions, trusted until `until` without reading their row. */
  live: Map<string, { context: AuthContext; until: number }>;
  /** Bumped by every drop: a session read before it is not remembered after it. */
  epoch: number;
  /** When each auth session's last seen was last known to be written. */
  seenAt: Map<string, number>;
}

/** The options with their defaults, and the session memory: what the auth functions take. */
export interface Auth extends AuthDeps {
  sessionCacheMs: number;
  cacheUsable: () => boolean;
  memory: SessionMemory;
}

export const toUser = (row: { id: string; name: string; email: string }): User => ({
  _id: row.id,
  name: row.name,
  email: row.email,
});
