/**
 * The creator's hold on the member list: removing a member (their access, live events included,
 * ends at once), handing the session over, and a fresh code (members keep their access). Each is
 * one session write (write.ts).
 */
import type { MemberLinesQuery, Session, SessionField } from "@cartner/contract";
import { and, eq } from "drizzle-orm";
import type { Tx } from "../../../db/client.ts";
import { sessionMembers, sessions, users } from "../../../db/schema.ts";
import { conflict, isUniqueViolation, notFound } from "../../../lib/errors.ts";
import { newPasscode, newSessionCode } from "../codes.ts";
import { linesTakenEvents, takeLinesOf } from "./leaving-lines.ts";
import type { SessionDeps } from "../deps.ts";
import { sessionView } from "../lifecycle/view.ts";
import { toMembers, writeSession } from "../lifecycle/write.ts";
import { later } from "../../notifications/index.ts";

async function nameOf(tx: Tx, userId: string): Promise<string> {
  const [who] = await tx.select({ name: users.name }).from(users).where(eq(users.id, userId));
  return who?.name ?? "";
}

/**
 * Removes a member (pending requests included): their access ends at once (every later call
 * is a 404, and the live channel stops telling them anything), and they are told so. Lines
 * they added go as `choice` says (409 MEMBER_HAS_LINES without one), and they leave every
 * line's sharers: nobody who is not a member pays for anything.
 */
export async function removeMember(
  deps: SessionDeps,
  sessionId: string,
  actorId: string,
  targetId: string,
  choice: MemberLinesQuery = {},
) {
  const { db } = deps;
  const { session } = await writeSession(db, deps, {
    sessionId,
    userId: actorId,
    action: "session.manageMembers",
    change: async ({ tx, cartId, now }) => {
      if (targetId === actorId) {
        throw conflict("You cannot remove yourself; hand the session over or end it.");
      }
      const gone = await tx
        .delete(sessionMembers)
        .where(and(eq(sessionMembers.sessionId, sessionId), eq(sessionMembers.userId, targetId)))
        .returning({ role: sessionMembers.role });
      if (gone.length === 0) throw notFound("Member not found");
      const name = await nameOf(tx, targetId);
      const lines = await takeLinesOf(tx, {
        cartId,
        leaver: { id: targetId, name },
        choice,
        reason: "member_left",
        self: false,
        now,
      });
      const details = { member: name, memberId: targetId };
      return {
        result: lines.cartChanged,
        activity: [...lines.activity, { type: "member.removed", details }],
      };
    },
    events: (cartChanged, row, cartId) => [
      toMembers("member.removed", row, { users: [targetId], userId: targetId }),
      ...linesTakenEvents(cartChanged, row, cartId),
    ],
  });
  const [actor] = await db.select({ name: users.name }).from(users).where(eq(users.id, actorId));
  // No session named: they are no longer in it, and this one notice is all they hear.
  if (deps.notices)
    later(deps.notices, {
      kind: "membership",
      userIds: [targetId],
      actorId,
      title: `Removed from ${session.name}`,
      body: `${actor?.name ?? "The creator"} removed you from ${session.name}`,
      url: "/sessions",
    });
  return sessionView(deps, session, actorId);
}

/** Hands the session to a participant: they become its creator, the old one a participant. */
export async function transferSession(
  deps: SessionDeps,
  sessionId: string,
  actorId: string,
  targetId: string,
): Promise<Session> {
  const { db } = deps;
  const { session } = await writeSession(db, deps, {
    sessionId,
    userId: actorId,
    action: "session.transfer",
    change: async ({ tx }) => {
      if (targetId === actorId) throw conflict("You already own this session.");
      const [target] = await tx
        .select({ role: sessionMembers.role })
        .from(sessionMembers)
        .where(and(eq(sessionMembers.sessionId, sessionId), eq(sessionMembers.userId, targetId)));
      if (!target) throw notFound("Member not found");
      if (target.role !== "participant") {
        throw conflict("Hand the session over to a participant (make them one first).");
      }
      await tx.update(sessions).set({ creatorId: targetId }).where(eq(sessions.id, sessionId));
      await tx
        .update(sessionMembers)
        .set({ role: "creator" })
        .where(and(eq(sessionMembers.sessionId, sessionId), eq(sessionMembers.userId, targetId)));
      await tx
        .update(sessionMembers)
        .set({ role: "participant" })
        .where(and(eq(sessionMembers.sessionId, sessionId), eq(sessionMembers.userId, actorId)));
      const details = {
        member: await nameOf(tx, targetId),
        memberId: targetId,
        role: "creator" as const,
      };
      return { result: null, activity: { type: "member.role", details } };
    },
    events: (_, row) => [toMembers("session.updated", row)],
  });
  return sessionView(deps, session, actorId);
}

/** A new code, and a new passcode when the session has one; members keep their access. */
export async function rotateCode(
  deps: SessionDeps,
  sessionId: string,
  actorId: string,
): Promise<Session> {
  const { db } = deps;
  for (let attempt = 0; ; attempt++) {
    try {
      const { session } = await writeSession(db, deps, {
        sessionId,
        userId: actorId,
        action: "session.rotateCode",
        change: async ({ tx, session }) => {
          await tx
            .update(sessions)
            .set({
              code: newSessionCode(),
              ...(session.passcode !== null ? { passcode: newPasscode() } : {}),
            })
            .where(eq(sessions.id, sessionId));
          // Never the code itself: the log is for every member, viewers included.
          const changed: SessionField[] =
            session.passcode !== null ? ["code", "passcode"] : ["code"];
          return { result: null, activity: { type: "session.updated", details: { changed } } };
        },
        events: (_, row) => [toMembers("session.updated", row)],
      });
      return sessionView(deps, session, actorId);
    } catch (error) {
      if (attempt < 5 && isUniqueViolation(error, "sessions_code_unique")) continue;
      throw error;
    }
  }
}
