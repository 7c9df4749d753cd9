/** The user's signed-in devices: each is an auth session, listed until it is revoked or lapses. */
import { AUTH_SESSION_IDLE_MS, AUTH_SESSION_MAX_AGE_MS, ErrorCode } from "@cartner/contract";
import { and, desc, eq, isNull } from "drizzle-orm";
import { authSessions } from "../../db/schema.ts";
import { AppError } from "../../lib/errors.ts";
import type { AuthContext, AuthDeps } from "./deps.ts";
import { disconnect, dropCachedSessions } from "./session-check.ts";

/** The user's signed-in devices, newest first. */
export async function devices(auth: Pick<AuthDeps, "db" | "clock">, context: AuthContext) {
  const now = auth.clock.now().getTime();
  const rows = await auth.db
    .select()
    .from(authSessions)
    .where(and(eq(authSessions.userId, context.user._id), isNull(authSessions.revokedAt)))
    .orderBy(desc(authSessions.lastSeenAt));
  return rows
    .filter(
      (r) =>
        now - r.lastSeenAt.getTime() <= AUTH_SESSION_IDLE_MS &&
        now - r.createdAt.getTime() <= AUTH_SESSION_MAX_AGE_MS,
    )
    .map((r) => ({
      _id: r.id,
      createdAt: r.createdAt.toISOString(),
      lastSeenAt: r.lastSeenAt.toISOString(),
      userAgent: r.userAgent,
      current: r.id === context.sid,
    }));
}

/** Signs one of the user's devices out (its token and live socket stop at once). */
export async function revokeDevice(auth: AuthDeps, context: AuthContext, sid: string) {
  const [revoked] = await auth.db
    .update(authSessions)
    .set({ revokedAt: auth.clock.now() })
    .where(
      and(
        eq(authSessions.id, sid),
        eq(authSessions.userId, context.user._id),
        isNull(authSessions.revokedAt),
      ),
    )
    .returning({ id: authSessions.id });
  if (!revoked) throw new AppError(404, ErrorCode.NOT_FOUND, "Device not found");
  dropCachedSessions(auth.sessionCache, { sid });
  disconnect(auth.events, context.user._id, sid);
}
