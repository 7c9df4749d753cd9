/**
 * Who gets into a session and how: join requests by code and passcode (with their guessing
 * limits), the creator's decisions on them, and invites by email or name. The session service
 * owns sessions themselves; this one only changes their members.
 */
import type { Invite, InviteRole, JoinRequest, MyJoinRequest, User } from "@cartner/contract";
import { and, desc, eq, isNull, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "../../db/client.ts";
import { joinFailures, sessionInvites, sessionMembers, sessions, users } from "../../db/schema.ts";
import { createAttemptLimit } from "../../lib/attempt-limit.ts";
import type { Clock } from "../../lib/clock.ts";
import { conflict, forbidden, notFound } from "../../lib/errors.ts";
import type { Media } from "../../lib/media.ts";
import type { Mailer, MailQueue } from "../mail/index.ts";
import type { NotificationService } from "../notifications/index.ts";
import type { EventBus } from "../realtime/index.ts";
import { inviteMail } from "./invite-mail.ts";
import { sameSecret } from "./codes.ts";
import type { SessionService } from "./service.ts";
import { toMembers, writeSession, type TypedEntry } from "./write.ts";
import { isMemberRole } from "../../lib/permissions.ts";

const JOIN_WINDOW_MS = 15 * 60 * 1000;
const MAX_JOIN_FAILURES_PER_USER = 10;
const MAX_JOIN_FAILURES_PER_SESSION = 30;
/** Several accounts behind one address (a household, an office) share this. */
const MAX_JOIN_FAILURES_PER_ADDRESS = 30;

const invalidJoin = () => forbidden("Invalid session code or passcode");

export function createMembershipService(deps: {
  db: Db;
  clock: Clock;
  events: Pick<EventBus, "publish">;
  media: Media;
  sessions: SessionService;
  /**
   * Invite mails: a job sent with the invite, which mails it while it is pending (retried with
   * backoff; a failure never undoes the invite).
   */
  mails?: MailQueue;
  mailer?: Mailer;
  /** Tells creators of join requests, requesters of the answer, invitees of their invite. */
  notices?: Pick<NotificationService, "later"> | undefined;
}) {
  const { db, clock, events, media } = deps;

  async function nameOf(userId: string): Promise<string> {
    const [who] = await db.select({ name: users.name }).from(users).where(eq(users.id, userId));
    return who?.name ?? "Someone";
  }
  const { accessByCode } = deps.sessions;

  /** Failed joins, counted over the last 15 minutes. */
  const joinLimit = createAttemptLimit({
    db,
    clock,
    table: joinFailures,
    windowMs: JOIN_WINDOW_MS,
  });

  /**
   * Guessing is limited per account and per client address. A session whose code is under attack
   * (many failures from anyone) does not close to everyone: it refuses only accounts that have
   * already failed against it, so someone with the right passcode still gets in, while an
   * attacker gets one guess per account per 15 minutes there.
   */
  async function checkJoinBudget(userId: string, address: string, sessionId: string | undefined) {
    await joinLimit.enforce(
      eq(joinFailures.userId, userId),
      MAX_JOIN_FAILURES_PER_USER,
      "Too many failed attempts to join. Please wait a few minutes.",
    );
    await joinLimit.enforce(
      eq(joinFailures.address, address),
      MAX_JOIN_FAILURES_PER_ADDRESS,
      "Too many failed attempts to join from this network. Please wait a few minutes.",
    );
    if (
      sessionId &&
      (await joinLimit.failures(eq(joinFailures.sessionId, sessionId))) >=
        MAX_JOIN_FAILURES_PER_SESSION &&
      (await joinLimit.failures(
        and(eq(joinFailures.sessionId, sessionId), eq(joinFailures.userId, userId)),
      )) > 0
    ) {
      throw joinLimit.refuse("This session is refusing your join requests for a few minutes.");
    }
  }

  async function joinByCode(userId: string, address: string, code: string, passcode: string) {
    const [session] = await db.select().from(sessions).where(eq(sessions.code, code));
    await checkJoinBudget(userId, address, session?.id);
    // A session without a passcode lets the code alone through; otherwise both must match.
    const ok =
      session !== undefined &&
      session.status === "active" &&
      (session.passcode === null || sameSecret(session.passcode, passcode));
    if (!ok) {
      await joinLimit.record({ userId, sessionId: session?.id ?? null, address });
      throw invalidJoin();
    }
    // A request waiting behind a checkout or an end finds the session over. A join request is
    // not yet a member: no entry (approving it is one).
    await writeSession(db, deps, {
      sessionId: session.id,
      userId,
      action: null,
      ended: invalidJoin,
      change: async ({ tx, now }) => {
        const inserted = await tx
          .insert(sessionMembers)
          .values({ sessionId: session.id, userId, role: "pending", createdAt: now })
          .onConflictDoNothing()
          .returning({ role: sessionMembers.role });
        if (inserted.length === 0)
          throw conflict("You are already in this session or waiting to join it.");
        return { result: null };
      },
      // Only the creator decides on join requests, so only the creator hears of them.
      events: (_, row) => [
        {
          event: { type: "joinrequest.created", sessionId: row.id, version: row.version },
          users: [session.creatorId],
        },
      ],
    });
    const requester = await nameOf(userId);
    deps.notices?.later({
      kind: "membership",
      userIds: [session.creatorId],
      actorId: userId,
      sessionId: session.id,
      title: "New join request",
      body: `${requester} asked to join ${session.name}`,
      url: `/session/${session.id}`,
    });
    return { message: "Join request sent", sessionId: session.id };
  }

  async function joinRequests(userId: string, code: string): Promise<JoinRequest[]> {
    const { session } = await accessByCode(code, userId, "session.decideJoin");
    const rows = await db
      .select({
        userId: users.id,
        email: users.email,
        name: users.name,
        requestedAt: sessionMembers.createdAt,
      })
      .from(sessionMembers)
      .innerJoin(users, eq(users.id, sessionMembers.userId))
      .where(and(eq(sessionMembers.sessionId, session.id), eq(sessionMembers.role, "pending")))
      .orderBy(sessionMembers.createdAt);
    return rows.map((r) => ({
      ...r,
      avatar: media.userAvatar(r.userId),
      requestedAt: r.requestedAt.toISOString(),
    }));
  }

  /**
   * The caller's own requests still waiting, newest first: pending rows of active sessions (an
   * ended session's requests will never be answered). A request is its pending membership row,
   * so `requestedAt` is when that row was made.
   */
  async function myJoinRequests(userId: string): Promise<MyJoinRequest[]> {
    const creators = alias(users, "creators");
    const rows = await db
      .select({
        sessionId: sessions.id,
        sessionName: sessions.name,
        creatorId: creators.id,
        creatorName: creators.name,
        requestedAt: sessionMembers.createdAt,
      })
      .from(sessionMembers)
      .innerJoin(sessions, eq(sessions.id, sessionMembers.sessionId))
      .innerJoin(creators, eq(creators.id, sessions.creatorId))
      .where(
        and(
          eq(sessionMembers.userId, userId),
          eq(sessionMembers.role, "pending"),
          eq(sessions.status, "active"),
        ),
      )
      .orderBy(desc(sessionMembers.createdAt), desc(sessions.id));
    return rows.map((r) => ({
      sessionId: r.sessionId,
      sessionName: r.sessionName,
      creator: { _id: r.creatorId, name: r.creatorName },
      requestedAt: r.requestedAt.toISOString(),
    }));
  }

  async function decide(
    userId: string,
    code: string,
    target: { userId?: string; email?: string },
    approve: boolean,
  ) {
    const { session } = await accessByCode(code, userId, "session.decideJoin");
    let targetId = target.userId;
    if (!targetId && target.email) {
      const [u] = await db
        .select({ id: users.id })
        .from(users)
        .where(eq(users.email, target.email.toLowerCase()));
      targetId = u?.id;
    }
    const pendingRow = and(
      eq(sessionMembers.sessionId, session.id),
      eq(sessionMembers.userId, targetId ?? "00000000-0000-0000-0000-000000000000"),
      eq(sessionMembers.role, "pending"),
    );
    // Conditional on role = pending: concurrent decisions act once. The new member's entry is
    // theirs (the creator let them in); a refused request was never a member: no entry.
    await writeSession(db, deps, {
      sessionId: session.id,
      userId,
      action: "session.decideJoin",
      change: async ({ tx }) => {
        const changed = approve
          ? await tx
              .update(sessionMembers)
              .set({ role: "participant" })
              .where(pendingRow)
              .returning()
          : await tx.delete(sessionMembers).where(pendingRow).returning();
        if (changed.length === 0) throw notFound("No pending join request from that person");
        const joined: TypedEntry = {
          type: "member.joined",
          actorId: targetId!,
          details: { approvedBy: userId },
        };
        return { result: null, activity: approve ? joined : undefined };
      },
      // An approved member is a member now, so hears it with the members; a refused one is told
      // too. Both events name the requester and the outcome, so their pages can say which.
      events: (_, row) => [
        approve
          ? toMembers("member.joined", row, { userId: targetId!, joinRequest: "approved" })
          : toMembers("member.left", row, {
              users: [targetId!],
              userId: targetId!,
              joinRequest: "rejected",
            }),
      ],
    });
    // Approved: a member now, told as one. Declined: no longer in the session, told once.
    const creator = await nameOf(userId);
    deps.notices?.later(
      approve
        ? {
            kind: "membership",
            userIds: [targetId!],
            actorId: userId,
            sessionId: session.id,
            title: "You're in",
            body: `${creator} let you into ${session.name}`,
            url: `/session/${session.id}`,
          }
        : {
            kind: "membership",
            userIds: [targetId!],
            actorId: userId,
            title: "Join request declined",
            body: `${creator} declined your request to join ${session.name}`,
            url: "/sessions",
          },
    );
    return { message: approve ? "Join request approved" : "Join request rejected" };
  }

  async function invite(user: User, code: string, emailOrUsername: string, role: InviteRole) {
    const { session } = await accessByCode(code, user._id, "session.invite");
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
      change: async ({ tx, now }) => {
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
      deps.notices?.later({
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
  async function mailInvite({ inviteId }: { inviteId: string }): Promise<void> {
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
  deps.mails?.handle("invite", mailInvite);

  async function myInvites(user: User): Promise<Invite[]> {
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

  async function respond(user: User, code: string, accept: boolean) {
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

  return { joinByCode, joinRequests, myJoinRequests, decide, invite, myInvites, respond };
}

export type MembershipService = ReturnType<typeof createMembershipService>;
