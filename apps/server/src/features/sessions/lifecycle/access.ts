/**
 * Who may read or change a session, and who hears its events: the reads every sessions function
 * (and the live hub) starts from.
 */
import type { Action } from "@cartner/contract";
import { and, eq } from "drizzle-orm";
import { sessionMembers, sessions } from "../../../db/schema.ts";
import { notFound } from "../../../lib/errors.ts";
import { isMemberRole, requireAllowed } from "../../../lib/permissions.ts";
import type { SessionDeps } from "../deps.ts";

const sessionNotFound = () => notFound("Session not found");

/** The members who hear a session's events: everyone in it but pending join requests. */
export async function memberIds(
  deps: Pick<SessionDeps, "db">,
  sessionId: string,
): Promise<string[]> {
  const rows = await deps.db
    .select({ userId: sessionMembers.userId })
    .from(sessionMembers)
    .where(and(eq(sessionMembers.sessionId, sessionId), isMemberRole(sessionMembers.role)));
  return rows.map((r) => r.userId);
}

/**
 * The session and the caller's role in it. Anyone who is not a member (pending included) gets
 * 404, so session ids reveal nothing; a member without the needed role gets 403.
 */
export async function accessSession(
  deps: Pick<SessionDeps, "db">,
  sessionId: string,
  userId: string,
  action: Action,
) {
  const [found] = await deps.db
    .select({ session: sessions, role: sessionMembers.role })
    .from(sessions)
    .innerJoin(
      sessionMembers,
      and(eq(sessionMembers.sessionId, sessions.id), eq(sessionMembers.userId, userId)),
    )
    .where(eq(sessions.id, sessionId));
  requireAllowed(found?.role, action, "Session not found");
  return found!;
}

/** The same, for the calls that name a session by its code. */
export async function accessByCode(
  deps: Pick<SessionDeps, "db">,
  code: string,
  userId: string,
  action: Action,
) {
  const [row] = await deps.db
    .select({ id: sessions.id })
    .from(sessions)
    .where(eq(sessions.code, code));
  if (!row) throw sessionNotFound();
  return accessSession(deps, row.id, userId, action);
}
