/**
 * Token checks: a bearer token resolves to its user only while its auth session (device) is live.
 * A checked auth session may be remembered for a short while (sessionCacheMs), and every drop
 * (a logout, a revocation, a changed name) forgets it here; signed-out devices lose their live
 * sockets at once.
 */
import { AUTH_SESSION_IDLE_MS, AUTH_SESSION_MAX_AGE_MS } from "@cartner/contract";
import { and, eq, isNull, lt } from "drizzle-orm";
import { authSessions, users } from "../../db/schema.ts";
import { unauthorized } from "../../lib/errors.ts";
import { meter } from "../../lib/metrics.ts";
import { toUser, type AuthContext, type AuthDeps } from "./deps.ts";

/** How often a device's use of the API moves its "last seen" (one write per auth session). */
export const LAST_SEEN_EVERY_MS = 60_000;

/** What an auth session cache remembers of one checked auth session. */
interface Remembered {
  context: AuthContext;
  until: number;
}

/**
 * The auth sessions this instance has checked: a created object, since it is state kept across
 * requests (the checked sessions, the drop counter, when each device was last marked seen).
 */
export interface AuthSessionCache {
  /** How long a checked auth session may be trusted without reading its row again (0: never). */
  readonly sessionCacheMs: number;
  /**
   * Whether remembered auth sessions may be trusted now: not while this instance might miss
   * another's revocation (its LISTEN connection is down).
   */
  readonly cacheUsable: () => boolean;
  /** Checked auth sessions, trusted until `until` without reading their row. */
  live: Map<string, Remembered>;
  /** Bumped by every drop: a session read before it is not remembered after it. */
  epoch: number;
  /** When each auth session's last seen was last known to be written. */
  seenAt: Map<string, number>;
}

/**
 * This instance's auth session cache, created once per app. By default nothing is remembered
 * (sessionCacheMs 0) and what is remembered is always usable.
 */
export function createAuthSessionCache(
  options: { sessionCacheMs?: number; cacheUsable?: () => boolean } = {},
): AuthSessionCache {
  return {
    sessionCacheMs: options.sessionCacheMs ?? 0,
    cacheUsable: options.cacheUsable ?? (() => true),
    live: new Map(),
    epoch: 0,
    // When each auth session's last seen was last known to be written (its row's value, or our own
    // write): a request moves it only once it is a minute old, so the devices list's "Last seen"
    // follows use without a write per request, and requests stay off the database.
    seenAt: new Map(),
  };
}

/** Revoked auth sessions stop hearing live events now, not at the next 30 s check. */
export function disconnect(events: AuthDeps["events"], userId: string, sid?: string) {
  events?.publish({
    disconnect: { userId, ...(sid ? { sid } : {}), code: 4401, reason: "Your session has ended" },
  });
}

/** Drops remembered auth sessions here: one (sid), a user's, or all (neither). */
export function dropCachedSessions(
  memory: AuthSessionCache,
  scope: { userId?: string | undefined; sid?: string | undefined },
) {
  memory.epoch += 1;
  if (scope.sid) memory.live.delete(scope.sid);
  else if (scope.userId) {
    for (const [sid, entry] of memory.live) {
      if (entry.context.user._id === scope.userId) memory.live.delete(sid);
    }
  } else memory.live.clear();
}

/**
 * A user's remembered sessions are out of date (their name changed, their account is gone): drop
 * them here, and on every other instance.
 */
export function forgetSessions(
  auth: Pick<AuthDeps, "sessionCache" | "events">,
  userId: string,
): void {
  dropCachedSessions(auth.sessionCache, { userId });
  auth.events?.publish({ invalidate: { auth: { userId } } });
}

/**
 * The account a token names when it verifies and has not expired, else undefined; no database
 * read (the rate limit's key, before authentication runs).
 */
export function accountOf(auth: Pick<AuthDeps, "tokens">, token: string) {
  return auth.tokens.verify(token).then(
    (claims) => claims.userId,
    () => undefined,
  );
}

/**
 * The auth context from memory alone, without a promise: a token verified before, its auth
 * session remembered and marked seen within the minute. Undefined when authenticate() has more to
 * do (verify, read the row, or move its last seen).
 */
export function rememberedContext(
  auth: Pick<AuthDeps, "clock" | "tokens" | "sessionCache">,
  token: string,
): AuthContext | undefined {
  const { sessionCache: memory } = auth;
  if (memory.sessionCacheMs <= 0) return undefined;
  const claims = auth.tokens.known(token);
  if (!claims || !memory.cacheUsable()) return undefined;
  const now = auth.clock.now().getTime();
  const context = cachedContext(memory, claims, now);
  if (!context) return undefined;
  const seen = memory.seenAt.get(claims.sid);
  if (seen === undefined || now - seen >= LAST_SEEN_EVERY_MS) return undefined;
  meter.cacheLookup("auth_sessions", true);
  return context;
}

/** The auth session's context remembered for these claims, if it is still within its time. */
function cachedContext(
  memory: AuthDeps["sessionCache"],
  claims: { sid: string; userId: string },
  now: number,
): AuthContext | undefined {
  const cached = memory.live.get(claims.sid);
  return cached && cached.until > now && cached.context.user._id === claims.userId
    ? cached.context
    : undefined;
}

/** Resolves a bearer token to its user; a revoked, idle or too old auth session is refused. */
export async function authenticate(
  auth: Pick<AuthDeps, "db" | "clock" | "tokens" | "sessionCache">,
  token: string,
): Promise<AuthContext> {
  const { clock, tokens, sessionCache: memory } = auth;
  const { sessionCacheMs, cacheUsable } = memory;
  const claims = await tokens.verify(token);
  const caching = sessionCacheMs > 0 && cacheUsable();
  if (caching) {
    const cached = cachedContext(memory, claims, clock.now().getTime());
    if (cached) {
      meter.cacheLookup("auth_sessions", true);
      await markSeen(auth, claims.sid);
      return cached;
    }
    meter.cacheLookup("auth_sessions", false);
  }
  const started = memory.epoch;
  const { context, lastSeenAt } = await readSession(auth, claims.sid, claims.userId);
  // Not when a revocation arrived while the row was read: the row may predate it.
  if (caching && started === memory.epoch && cacheUsable()) {
    if (memory.live.size > 10_000) memory.live.clear();
    memory.live.set(claims.sid, { context, until: clock.now().getTime() + sessionCacheMs });
  }
  if (lastSeenAt > (memory.seenAt.get(claims.sid) ?? 0)) memory.seenAt.set(claims.sid, lastSeenAt);
  await markSeen(auth, claims.sid);
  return context;
}

/**
 * Moves the auth session's last seen to now when it is at least a minute old: one conditional
 * UPDATE a minute per device (it changes nothing if another instance wrote it meanwhile, or if
 * the session was revoked). The cached path comes here too, so a device served from the cache
 * is still seen.
 */
export async function markSeen(auth: Pick<AuthDeps, "db" | "clock" | "sessionCache">, sid: string) {
  const { db, clock, sessionCache: memory } = auth;
  const now = clock.now();
  const known = memory.seenAt.get(sid);
  if (known !== undefined && now.getTime() - known < LAST_SEEN_EVERY_MS) return;
  if (memory.seenAt.size > 10_000) memory.seenAt.clear();
  memory.seenAt.set(sid, now.getTime());
  await db
    .update(authSessions)
    .set({ lastSeenAt: now })
    .where(
      and(
        eq(authSessions.id, sid),
        isNull(authSessions.revokedAt),
        lt(authSessions.lastSeenAt, new Date(now.getTime() - LAST_SEEN_EVERY_MS)),
      ),
    );
}

/** Reads an auth session's row: its user, when it is live, and when it was last seen. */
export async function readSession(
  auth: Pick<AuthDeps, "db" | "clock">,
  sid: string,
  userId: string,
): Promise<{ context: AuthContext; lastSeenAt: number }> {
  const now = auth.clock.now().getTime();
  const [row] = await auth.db
    .select({
      id: users.id,
      name: users.name,
      email: users.email,
      roles: users.roles,
      createdAt: authSessions.createdAt,
      lastSeenAt: authSessions.lastSeenAt,
      revokedAt: authSessions.revokedAt,
    })
    .from(authSessions)
    .innerJoin(users, eq(users.id, authSessions.userId))
    .where(and(eq(authSessions.id, sid), eq(authSessions.userId, userId)));
  if (
    !row ||
    row.revokedAt ||
    now - row.lastSeenAt.getTime() > AUTH_SESSION_IDLE_MS ||
    now - row.createdAt.getTime() > AUTH_SESSION_MAX_AGE_MS
  ) {
    throw unauthorized("Your session has ended. Please sign in again.");
  }
  return { context: { user: toUser(row), sid }, lastSeenAt: row.lastSeenAt.getTime() };
}
