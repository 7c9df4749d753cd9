/**
 * Join requests: asking to join by code and passcode (with their guessing limits), the
 * requester's own waiting requests, and the creator's decisions on them.
 */
import type { JoinRequest, MyJoinRequest } from "@cartner/contract";
import { and, desc, eq } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { joinFailures, sessionMembers, sessions, users } from "../../../db/schema.ts";
import { createAttemptLimit, type AttemptLimit } from "../../../lib/attempt-limit.ts";
import { conflict, forbidden, notFound } from "../../../lib/errors.ts";
import { sameSecret } from "../codes.ts";
import type { SessionDeps } from "../deps.ts";
import { accessByCode } from "../lifecycle/access.ts";
import { toMembers, writeSession, type TypedEntry } from "../lifecycle/write.ts";
import { later } from "../../notifications/index.ts";

const JOIN_WINDOW_MS = 15 * 60 * 1000;
const MAX_JOIN_FAILURES_PER_USER = 10;
const MAX_JOIN_FAILURES_PER_SESSION = 30;
/** Several accounts behind one address (a household, an office) share this. */
const MAX_JOIN_FAILURES_PER_ADDRESS = 30;

const invalidJoin = () => forbidden("Invalid session code or passcode");

async function nameOf(deps: Pick<SessionDeps, "db">, userId: string): Promise<string> {
  const [who] = await deps.db.select({ name: users.name }).from(users).where(eq(users.id, userId));
  return who?.name ?? "Someone";
}

/** Failed joins, counted over the last 15 minutes. */
function joinLimitOf(deps: Pick<SessionDeps, "db" | "clock">) {
  return createAttemptLimit({
    db: deps.db,
    clock: deps.clock,
    table: joinFailures,
    windowMs: JOIN_WINDOW_MS,
  });
}

/**
 * Guessing is limited per account and per client address. A session whose code is under attack
 * (many failures from anyone) does not close to everyone: it refuses only accounts that have
 * already failed against it, so someone with the right passcode still gets in, while an
 * attacker gets one guess per account per 15 minutes there.
 */
async function checkJoinBudget(
  joinLimit: AttemptLimit<typeof joinFailures>,
  userId: string,
  address: string,
  sessionId: string | undefined,
) {
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

/**
 * Asks to join by code and passcode: a pending membership the creator decides on. Wrong ones
 * count against the guessing limits.
 */
export async function joinByCode(
  deps: SessionDeps,
  userId: string,
  address: string,
  code: string,
  passcode: string,
) {
  const { db } = deps;
  const joinLimit = joinLimitOf(deps);
  const [session] = await db.select().from(sessions).where(eq(sessions.code, code));
  await checkJoinBudget(joinLimit, userId, address, session?.id);
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
  const requester = await nameOf(deps, userId);
  if (deps.notices)
    later(deps.notices, {
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

/** The session's join requests waiting, to its creator, oldest first. */
export async function joinRequests(
  deps: Pick<SessionDeps, "db" | "media">,
  userId: string,
  code: string,
): Promise<JoinRequest[]> {
  const { db, media } = deps;
  const { session } = await accessByCode(deps, code, userId, "session.decideJoin");
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
export async function myJoinRequests(
  deps: Pick<SessionDeps, "db">,
  userId: string,
): Promise<MyJoinRequest[]> {
  const { db } = deps;
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

/** The creator approves or refuses a join request; the requester is told either way. */
export async function decide(
  deps: SessionDeps,
  userId: string,
  code: string,
  target: { userId?: string; email?: string },
  approve: boolean,
) {
  const { db } = deps;
  const { session } = await accessByCode(deps, code, userId, "session.decideJoin");
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
        ? await tx.update(sessionMembers).set({ role: "participant" }).where(pendingRow).returning()
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
  const creator = await nameOf(deps, userId);
  if (deps.notices)
    later(
      deps.notices,
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
