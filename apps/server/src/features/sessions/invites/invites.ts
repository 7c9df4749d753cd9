/**
 * Invites by email or name: sending one (and its mail job), the invitee's list, and answering.
 */
import {
  SOLO_NO_INVITES,
  takesInvites,
  type Invite,
  type InviteRole,
  type User,
} from "@cartner/contract";
import { and, desc, eq, isNull, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { sessionInvites, sessionMembers, sessions, users } from "../../../db/schema.ts";
import { conflict, notFound } from "../../../lib/errors.ts";
import { isMemberRole } from "../../../lib/permissions.ts";
import { inviteMail } from "./invite-mail.ts";
import type { SessionDeps } from "../deps.ts";
import { accessByCode } from "../lifecycle/access.ts";
import { toMembers, writeSession } from "../lifecycle/write.ts";
import { later } from "../../notifications/index.ts";

/**
 * Invites someone by email, or by name when exactly one account has it: the invite waits for
 * them (also for an address without an account yet), and its mail goes as a job.
 */
export async function sendInvite(
  deps: SessionDeps,
  user: User,
  code: string,
  emailOrUsername: string,
  role: InviteRole,
) {
  const { db, events } = deps;
  const { session } = await accessByCode(deps, code, user._id, "session.invite");
  let email: string;
  if (emailOrUsername.includes("@")) {
    email = emailOrUsername.toLowerCase();
  } else {
    const matches = await db
      .select({ email: users.email })
      .from(users)
      .where(sql`lower(${users.name}) = lower(${emailOrUsername})`)
      .limit(2);
    if (matches.length === 0)
      throw notFound("Nobody on Cartner has that name. Invite them by email instead.");
    if (matches.length > 1)
      throw conflict("Several people have that name. Invite them by email instead.");
    email = matches[0]!.email;
  }
  if (email === user.email) throw conflict("You are already in this session.");
  const [member] = await db
    .select({ role: sessionMembers.role })
    .from(sessionMembers)
    .innerJoin(users, eq(users.id, sessionMembers.userId))
    .where(and(eq(sessionMembers.sessionId, session.id), eq(users.email, email)));
  if (member && member.role !== "pending")
    throw conflict("That person is already in this session.");
  // An invite is the invitee's to answer: no entry, the version stays, until they accept.
  await writeSession(db, deps, {
    sessionId: session.id,
    userId: user._id,
    action: "session.invite",
    change: async ({ tx, now, session: locked }) => {
      // Read under the write's lock: a type changed to Solo meanwhile refuses the invite.
      if (!takesInvites(locked.type)) throw conflict(SOLO_NO_INVITES);
      const inserted = await tx
        .insert(sessionInvites)
        .values({ sessionId: session.id, email, role, invitedBy: user._id, createdAt: now })
        .onConflictDoNothing()
        .returning({ id: sessionInvites.id });
      if (inserted.length === 0) {
        throw conflict("That person already has an invite to this session.");
      }
      await deps.mails?.send("invite", { inviteId: inserted[0]!.id }, { tx });
      return { result: null, version: "unchanged" };
    },
  });
  deps.mails?.wake();
  const [invitee] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
  if (invitee) {
    events.publish({
      event: { type: "invite.received", sessionId: session.id },
      users: [invitee.id],
    });
    // Not a member yet: the invite is theirs to answer on the sessions page.
    if (deps.notices)
      later(deps.notices, {
        kind: "membership",
        userIds: [invitee.id],
        actorId: user._id,
        title: "You're invited",
        body: `${user.name} invited you to ${session.name} as a ${role}`,
        url: "/sessions",
      });
  }
  // The same answer whether or not the email has an account: it reveals nothing.
  return { message: `Invite sent to ${emailOrUsername}` };
}

/** The "invite" mail job: the invite as it is now, if still pending. */
async function mailInvite(
  deps: Pick<SessionDeps, "db" | "media" | "mailer">,
  { inviteId }: { inviteId: string },
): Promise<void> {
  const { db, media } = deps;
  if (!deps.mailer) return;
  const inviter = alias(users, "inviter");
  const [invite] = await db
    .select({
      email: sessionInvites.email,
      role: sessionInvites.role,
      status: sessionInvites.status,
      sessionName: sessions.name,
      inviterName: inviter.name,
    })
    .from(sessionInvites)
    .innerJoin(sessions, eq(sessions.id, sessionInvites.sessionId))
    .innerJoin(inviter, eq(inviter.id, sessionInvites.invitedBy))
    .where(eq(sessionInvites.id, inviteId));
  if (!invite || invite.status !== "pending") return;
  const [invitee] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.email, invite.email), isNull(users.deletedAt)));
  await deps.mailer.send(
    inviteMail({
      to: invite.email,
      inviterName: invite.inviterName,
      sessionName: invite.sessionName,
      role: invite.role,
      hasAccount: invitee !== undefined,
      link: media.page(
        invitee ? "/sessions" : `/register?email=${encodeURIComponent(invite.email)}`,
      ),
    }),
  );
}
/** An invite mail to an address with an account waits out that account's quiet hours. */
async function inviteeOf(
  deps: Pick<SessionDeps, "db">,
  { inviteId }: { inviteId: string },
): Promise<string | null> {
  const [invitee] = await deps.db
    .select({ id: users.id })
    .from(sessionInvites)
    .innerJoin(users, eq(users.email, sessionInvites.email))
    .where(and(eq(sessionInvites.id, inviteId), isNull(users.deletedAt)));
  return invitee?.id ?? null;
}

/** Registers the "invite" mail job's handler on the mail queue (before the queue starts). */
export function handleInviteMails(
  deps: Pick<SessionDeps, "db" | "media" | "mails" | "mailer">,
): void {
  deps.mails?.handle(
    "invite",
    (job) => mailInvite(deps, job),
    (job) => inviteeOf(deps, job),
  );
}

/** The caller's invites still waiting (active sessions they are not in yet), newest first. */
export async function myInvites(
  deps: Pick<SessionDeps, "db" | "media">,
  user: User,
): Promise<Invite[]> {
  const { db, media } = deps;
  const rows = await db
    .select({
      id: sessionInvites.id,
      role: sessionInvites.role,
      createdAt: sessionInvites.createdAt,
      sessionName: sessions.name,
      sessionCode: sessions.code,
      inviterId: users.id,
      inviterName: users.name,
    })
    .from(sessionInvites)
    .innerJoin(sessions, eq(sessions.id, sessionInvites.sessionId))
    .innerJoin(users, eq(users.id, sessionInvites.invitedBy))
    .where(
      and(
        eq(sessionInvites.email, user.email),
        eq(sessionInvites.status, "pending"),
        eq(sessions.status, "active"),
        // Someone who joined another way meanwhile has nothing left to answer.
        sql`not exists (select 1 from ${sessionMembers} m where m.session_id = ${sessions.id}
            and m.user_id = ${user._id} and ${isMemberRole(sql`m.role`)})`,
      ),
    )
    .orderBy(desc(sessionInvites.createdAt));
  return rows.map((r) => ({
    _id: r.id,
    sessionName: r.sessionName,
    sessionCode: r.sessionCode,
    role: r.role,
    invitedBy: { _id: r.inviterId, name: r.inviterName, avatar: media.userAvatar(r.inviterId) },
    createdAt: r.createdAt.toISOString(),
  }));
}

/** The invitee accepts (a member with the invited role) or refuses an invite. */
export async function respondToInvite(
  deps: Pick<SessionDeps, "db" | "clock" | "events">,
  user: User,
  code: string,
  accept: boolean,
) {
  const { db } = deps;
  const noInvite = () => notFound("No pending invite to that session");
  const [found] = await db
    .select({ invite: sessionInvites })
    .from(sessionInvites)
    .innerJoin(sessions, eq(sessions.id, sessionInvites.sessionId))
    .where(
      and(
        eq(sessions.code, code),
        eq(sessionInvites.email, user.email),
        eq(sessionInvites.status, "pending"),
      ),
    );
  if (!found) throw noInvite();
  const { invite } = found;
  // Accepting waits behind a checkout or an end, and then finds the session over.
  await writeSession(db, deps, {
    sessionId: invite.sessionId,
    userId: user._id,
    action: null,
    ended: noInvite,
    change: async ({ tx, now }) => {
      const [claimed] = await tx
        .update(sessionInvites)
        .set({ status: accept ? "accepted" : "rejected", respondedAt: now })
        .where(and(eq(sessionInvites.id, invite.id), eq(sessionInvites.status, "pending")))
        .returning({ id: sessionInvites.id });
      if (!claimed) throw noInvite();
      // A refused invite never made a member: no entry.
      if (!accept) return { result: null };
      // An earlier join request by the same person becomes the invited role; a member (joined
      // meanwhile another way, a link) changes nothing and gets 409: the rollback keeps the
      // invite pending and logs no second join.
      const added = await tx
        .insert(sessionMembers)
        .values({
          sessionId: invite.sessionId,
          userId: user._id,
          role: invite.role,
          createdAt: now,
        })
        .onConflictDoUpdate({
          target: [sessionMembers.sessionId, sessionMembers.userId],
          set: { role: invite.role },
          setWhere: eq(sessionMembers.role, "pending"),
        })
        .returning({ role: sessionMembers.role });
      if (added.length === 0) throw conflict("You are already in this session.");
      const details = { role: invite.role, via: "invite" as const };
      return { result: null, activity: { type: "member.joined", details } };
    },
    // The invitee's other tabs drop the invite either way; the members see who joined.
    events: (_, row) => [
      toMembers(accept ? "member.joined" : "session.updated", row, { users: [user._id] }),
    ],
  });
  return accept
    ? { message: "Invite accepted", sessionId: invite.sessionId }
    : { message: "Invite rejected" };
}
