import {
  can,
  fromCents,
  toCents,
  type Invite,
  type InviteRole,
  type JoinRequest,
  type LiveEventType,
  type Member,
  type Session,
  type SessionStatus,
  type Action,
  type UpdateSessionBody,
  type User,
} from "@cartner/contract";
import { and, count, desc, eq, gt, inArray, ne, sql, type SQL } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import {
  cartLines,
  carts,
  joinFailures,
  products,
  sessionInvites,
  sessionMembers,
  sessions,
  users,
} from "../../db/schema.ts";
import type { Clock } from "../../lib/clock.ts";
import {
  conflict,
  forbidden,
  isUniqueViolation,
  notFound,
  tooManyRequests,
} from "../../lib/errors.ts";
import { requireAllowed, visibleMembers } from "../../lib/permissions.ts";
import type { Media } from "../../lib/media.ts";
import type { EventBus } from "../realtime/bus.ts";
import { newSessionCode, sameSecret } from "./codes.ts";

type SessionRow = typeof sessions.$inferSelect;

/** Members who see the session (a pending join request does not). */
const JOIN_WINDOW_MS = 15 * 60 * 1000;
const MAX_JOIN_FAILURES_PER_USER = 10;
const MAX_JOIN_FAILURES_PER_SESSION = 30;
/** Several accounts behind one address (a household, an office) share this. */
const MAX_JOIN_FAILURES_PER_ADDRESS = 30;

const sessionNotFound = () => notFound("Session not found");
const invalidJoin = () => forbidden("Invalid session code or passcode");

export interface CreateSessionInput {
  sessionName: string;
  sessionType: SessionRow["type"];
  participants: SessionRow["participants"];
  passcode?: string | undefined;
  budget?: number | null | undefined;
}

export function createSessionService(deps: {
  db: Db;
  clock: Clock;
  /** Told of every committed change (never of a rolled-back one). */
  events: Pick<EventBus, "publish">;
  media: Media;
}) {
  const { db, clock, events, media } = deps;

  /** Tells the session's members (and `users`) about a committed change. */
  const announce = (
    type: LiveEventType,
    sessionId: string,
    version: number | undefined,
    users?: string[],
  ) =>
    events.publish({
      event: { type, sessionId, ...(version === undefined ? {} : { version }) },
      members: sessionId,
      ...(users ? { users } : {}),
    });

  /** The members who hear a session's events: everyone in it but pending join requests. */
  async function memberIds(sessionId: string): Promise<string[]> {
    const rows = await db
      .select({ userId: sessionMembers.userId })
      .from(sessionMembers)
      .where(and(eq(sessionMembers.sessionId, sessionId), ne(sessionMembers.role, "pending")));
    return rows.map((r) => r.userId);
  }

  /** Everyone in these sessions (pending requests included), in joining order, per session. */
  async function membersOf(sessionIds: string[]): Promise<Map<string, Member[]>> {
    const rows = await db
      .select({
        sessionId: sessionMembers.sessionId,
        userId: sessionMembers.userId,
        role: sessionMembers.role,
        name: users.name,
      })
      .from(sessionMembers)
      .innerJoin(users, eq(users.id, sessionMembers.userId))
      .where(inArray(sessionMembers.sessionId, sessionIds))
      .orderBy(sessionMembers.createdAt);
    const bySession = new Map<string, Member[]>();
    for (const r of rows) {
      const list = bySession.get(r.sessionId) ?? [];
      list.push({
        userId: r.userId,
        name: r.name,
        avatar: media.userAvatar(r.userId),
        role: r.role,
      });
      bySession.set(r.sessionId, list);
    }
    return bySession;
  }

  /** Builds API.md's Session shape for several sessions with three queries. */
  async function views(rows: SessionRow[], viewerId: string): Promise<Session[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.id);
    const members = await membersOf(ids);
    const cartRows = await db
      .select({
        id: carts.id,
        sessionId: carts.sessionId,
        totalCents: sql<string>`coalesce(sum(${cartLines.quantity} * coalesce(${cartLines.unitPriceCents}, ${products.priceCents})), 0)`,
        itemCount: sql<string>`coalesce(sum(${cartLines.quantity}), 0)`,
      })
      .from(carts)
      .leftJoin(cartLines, eq(cartLines.cartId, carts.id))
      .leftJoin(products, eq(products.id, cartLines.productId))
      .where(inArray(carts.sessionId, ids))
      .groupBy(carts.id, carts.sessionId);
    const cartBySession = new Map(cartRows.map((c) => [c.sessionId, c]));

    return rows.map((row) => {
      const invitedUsers = visibleMembers(members.get(row.id) ?? [], viewerId);
      const creator = invitedUsers.find((m) => m.role === "creator");
      const myRole = invitedUsers.find((m) => m.userId === viewerId)?.role;
      const cart = cartBySession.get(row.id)!;
      return {
        _id: row.id,
        id: row.id,
        sessionName: row.name,
        sessionType: row.type,
        participants: row.participants,
        status: row.status,
        budget: row.budgetCents === null ? null : fromCents(row.budgetCents),
        sessionCode: row.code,
        // Viewers see the session, not its passcode (DESIGN section 4).
        ...(row.passcode && can(myRole, "session.passcode") ? { passcode: row.passcode } : {}),
        hasPasscode: row.passcode !== null,
        creator: {
          _id: row.creatorId,
          name: creator?.name ?? "Unknown",
          avatar: media.userAvatar(row.creatorId),
        },
        invitedUsers,
        cartId: cart.id,
        cart: {
          _id: cart.id,
          totalPrice: fromCents(Number(cart.totalCents)),
          itemCount: Number(cart.itemCount),
        },
        version: row.version,
        createdAt: row.createdAt.toISOString(),
        updatedAt: row.updatedAt.toISOString(),
      };
    });
  }

  async function view(row: SessionRow, viewerId: string): Promise<Session> {
    return (await views([row], viewerId))[0]!;
  }

  /**
   * The session and the caller's role in it. Anyone who is not a member (pending included) gets
   * 404, so session ids reveal nothing; a member without the needed role gets 403.
   */
  async function access(sessionId: string, userId: string, action: Action) {
    const [found] = await db
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
  async function accessByCode(code: string, userId: string, action: Action) {
    const [row] = await db
      .select({ id: sessions.id })
      .from(sessions)
      .where(eq(sessions.code, code));
    if (!row) throw sessionNotFound();
    return access(row.id, userId, action);
  }

  const requireActive = (session: SessionRow) => {
    if (session.status !== "active") throw conflict("This session has ended.");
  };

  /** Marks a change: bumps the version clients compare, and returns the new one. */
  async function touch(sessionId: string): Promise<number | undefined> {
    const [row] = await db
      .update(sessions)
      .set({ version: sql`${sessions.version} + 1`, updatedAt: clock.now() })
      .where(eq(sessions.id, sessionId))
      .returning({ version: sessions.version });
    return row?.version;
  }

  async function create(user: User, input: CreateSessionInput): Promise<Session> {
    const passcode = input.passcode?.trim() || null;
    for (let attempt = 0; ; attempt++) {
      try {
        const row = await db.transaction(async (tx) => {
          const now = clock.now();
          const [session] = await tx
            .insert(sessions)
            .values({
              name: input.sessionName,
              type: input.sessionType,
              participants: input.participants,
              budgetCents: input.budget == null ? null : toCents(input.budget),
              code: newSessionCode(),
              passcode,
              creatorId: user._id,
              createdAt: now,
              updatedAt: now,
            })
            .returning();
          await tx
            .insert(sessionMembers)
            .values({ sessionId: session!.id, userId: user._id, role: "creator", createdAt: now });
          await tx.insert(carts).values({ sessionId: session!.id, createdAt: now, updatedAt: now });
          return session!;
        });
        announce("session.updated", row.id, row.version); // the creator's other tabs
        return view(row, user._id);
      } catch (error) {
        // A code collision (1 in 31^8 per pair) is retried with a new code.
        if (attempt < 3 && isUniqueViolation(error, "sessions_code_unique")) continue;
        throw error;
      }
    }
  }

  async function list(userId: string, status?: SessionStatus): Promise<Session[]> {
    const rows = await db
      .select({ session: sessions })
      .from(sessionMembers)
      .innerJoin(sessions, eq(sessions.id, sessionMembers.sessionId))
      .where(
        and(
          eq(sessionMembers.userId, userId),
          ne(sessionMembers.role, "pending"),
          status ? eq(sessions.status, status) : undefined,
        ),
      )
      .orderBy(desc(sessions.updatedAt), desc(sessions.createdAt));
    return views(
      rows.map((r) => r.session),
      userId,
    );
  }

  async function get(sessionId: string, userId: string): Promise<Session> {
    const { session } = await access(sessionId, userId, "session.read");
    return view(session, userId);
  }

  async function update(
    sessionId: string,
    userId: string,
    body: UpdateSessionBody,
  ): Promise<Session> {
    const { session } = await access(sessionId, userId, "session.edit");
    requireActive(session);
    const changes: Partial<typeof sessions.$inferInsert> = {};
    if (body.sessionName !== undefined) changes.name = body.sessionName;
    if (body.sessionType !== undefined) changes.type = body.sessionType;
    if (body.participants !== undefined) changes.participants = body.participants;
    if (body.passcode !== undefined) changes.passcode = body.passcode?.trim() || null;
    if (body.budget !== undefined)
      changes.budgetCents = body.budget === null ? null : toCents(body.budget);
    const [row] = await db
      .update(sessions)
      .set({ ...changes, version: sql`${sessions.version} + 1`, updatedAt: clock.now() })
      .where(eq(sessions.id, sessionId))
      .returning();
    announce("session.updated", sessionId, row!.version);
    return view(row!, userId);
  }

  async function leave(sessionId: string, userId: string) {
    const { session, role } = await access(sessionId, userId, "session.leave");
    requireActive(session);
    // Only while the session is still active: an ended session's members are its history.
    const left = await db
      .delete(sessionMembers)
      .where(
        and(
          eq(sessionMembers.sessionId, sessionId),
          eq(sessionMembers.userId, userId),
          sql`exists (select 1 from ${sessions} where ${sessions.id} = ${sessionId} and ${sessions.status} = 'active')`,
        ),
      )
      .returning({ userId: sessionMembers.userId });
    if (left.length === 0) {
      // Ended (or left) meanwhile: answer what is true now, 409 or 404.
      requireActive((await access(sessionId, userId, "session.leave")).session);
    }
    announce("member.left", sessionId, await touch(sessionId), [userId]);
    return { message: role === "pending" ? "Join request withdrawn" : "You left the session" };
  }

  async function end(sessionId: string, userId: string) {
    const { session } = await access(sessionId, userId, "session.end");
    requireActive(session);
    const now = clock.now();
    const version = await db.transaction(async (tx) => {
      // The cart row first, as every cart change (cart_write) locks it first: taking the session
      // row first would deadlock against a change waiting for the session's version bump.
      // The cart stays, as history; nothing is deleted by ending. Its prices are frozen.
      const [cart] = await tx
        .update(carts)
        .set({ status: "completed", updatedAt: now })
        .where(eq(carts.sessionId, sessionId))
        .returning({ id: carts.id });
      const [ended] = await tx
        .update(sessions)
        .set({
          status: "ended",
          endedAt: now,
          updatedAt: now,
          version: sql`${sessions.version} + 1`,
        })
        .where(eq(sessions.id, sessionId))
        .returning({ version: sessions.version });
      await tx.execute(
        sql`update ${cartLines} set unit_price_cents = ${products.priceCents} from ${products}
            where ${cartLines.productId} = ${products.id} and ${cartLines.cartId} = ${cart!.id}`,
      );
      return ended!.version;
    });
    announce("session.ended", sessionId, version);
    return { message: "Session ended", sessionId };
  }

  /** Failed joins in the last 15 minutes matching a condition. */
  async function recentFailures(where: SQL | undefined): Promise<number> {
    const since = new Date(clock.now().getTime() - JOIN_WINDOW_MS);
    const [row] = await db
      .select({ n: count() })
      .from(joinFailures)
      .where(and(where, gt(joinFailures.createdAt, since)));
    return row?.n ?? 0;
  }

  const refuseJoins = (message: string) => tooManyRequests(message, JOIN_WINDOW_MS / 1000);

  /**
   * Guessing is limited per account and per client address. A session whose code is under attack
   * (many failures from anyone) does not close to everyone: it refuses only accounts that have
   * already failed against it, so someone with the right passcode still gets in, while an
   * attacker gets one guess per account per 15 minutes there.
   */
  async function checkJoinBudget(userId: string, address: string, sessionId: string | undefined) {
    if ((await recentFailures(eq(joinFailures.userId, userId))) >= MAX_JOIN_FAILURES_PER_USER) {
      throw refuseJoins("Too many failed attempts to join. Please wait a few minutes.");
    }
    if (
      (await recentFailures(eq(joinFailures.address, address))) >= MAX_JOIN_FAILURES_PER_ADDRESS
    ) {
      throw refuseJoins(
        "Too many failed attempts to join from this network. Please wait a few minutes.",
      );
    }
    if (
      sessionId &&
      (await recentFailures(eq(joinFailures.sessionId, sessionId))) >=
        MAX_JOIN_FAILURES_PER_SESSION &&
      (await recentFailures(
        and(eq(joinFailures.sessionId, sessionId), eq(joinFailures.userId, userId)),
      )) > 0
    ) {
      throw refuseJoins("This session is refusing your join requests for a few minutes.");
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
      await db
        .insert(joinFailures)
        .values({ userId, sessionId: session?.id ?? null, address, createdAt: clock.now() });
      throw invalidJoin();
    }
    const inserted = await db
      .insert(sessionMembers)
      .values({ sessionId: session.id, userId, role: "pending", createdAt: clock.now() })
      .onConflictDoNothing()
      .returning({ role: sessionMembers.role });
    if (inserted.length === 0)
      throw conflict("You are already in this session or waiting to join it.");
    const version = await touch(session.id);
    // Only the creator decides on join requests, so only the creator hears of them.
    events.publish({
      event: {
        type: "joinrequest.created",
        sessionId: session.id,
        ...(version ? { version } : {}),
      },
      users: [session.creatorId],
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

  async function decide(
    userId: string,
    code: string,
    target: { userId?: string; email?: string },
    approve: boolean,
  ) {
    const { session } = await accessByCode(code, userId, "session.decideJoin");
    requireActive(session);
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
    // Conditional on role = pending: concurrent decisions act once.
    const changed = approve
      ? await db.update(sessionMembers).set({ role: "participant" }).where(pendingRow).returning()
      : await db.delete(sessionMembers).where(pendingRow).returning();
    if (changed.length === 0) throw notFound("No pending join request from that person");
    const version = await touch(session.id);
    // An approved member is a member now; a refused one is told too, so their page updates.
    if (approve) announce("member.joined", session.id, version);
    else announce("member.left", session.id, version, [targetId!]);
    return { message: approve ? "Join request approved" : "Join request rejected" };
  }

  async function invite(user: User, code: string, emailOrUsername: string, role: InviteRole) {
    const { session } = await accessByCode(code, user._id, "session.invite");
    requireActive(session);
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
    const inserted = await db
      .insert(sessionInvites)
      .values({ sessionId: session.id, email, role, invitedBy: user._id, createdAt: clock.now() })
      .onConflictDoNothing()
      .returning({ id: sessionInvites.id });
    if (inserted.length === 0) throw conflict("That person already has an invite to this session.");
    const [invitee] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
    if (invitee) {
      events.publish({
        event: { type: "invite.received", sessionId: session.id },
        users: [invitee.id],
      });
    }
    // The same answer whether or not the email has an account: it reveals nothing.
    return { message: `Invite sent to ${emailOrUsername}` };
  }

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
    const now = clock.now();
    const outcome = await db.transaction(async (tx) => {
      const [found] = await tx
        .select({ invite: sessionInvites, session: sessions })
        .from(sessionInvites)
        .innerJoin(sessions, eq(sessions.id, sessionInvites.sessionId))
        .where(
          and(
            eq(sessions.code, code),
            eq(sessionInvites.email, user.email),
            eq(sessionInvites.status, "pending"),
          ),
        );
      if (!found || found.session.status !== "active")
        throw notFound("No pending invite to that session");
      const [claimed] = await tx
        .update(sessionInvites)
        .set({ status: accept ? "accepted" : "rejected", respondedAt: now })
        .where(and(eq(sessionInvites.id, found.invite.id), eq(sessionInvites.status, "pending")))
        .returning({ id: sessionInvites.id });
      if (!claimed) throw notFound("No pending invite to that session");
      if (accept) {
        // An earlier join request by the same person becomes the invited role.
        await tx
          .insert(sessionMembers)
          .values({
            sessionId: found.session.id,
            userId: user._id,
            role: found.invite.role,
            createdAt: now,
          })
          .onConflictDoUpdate({
            target: [sessionMembers.sessionId, sessionMembers.userId],
            set: { role: found.invite.role },
            setWhere: eq(sessionMembers.role, "pending"),
          });
      }
      const [touched] = await tx
        .update(sessions)
        .set({ version: sql`${sessions.version} + 1`, updatedAt: now })
        .where(eq(sessions.id, found.session.id))
        .returning({ version: sessions.version });
      return { accepted: accept, sessionId: found.session.id, version: touched!.version };
    });
    // The invitee's other tabs drop the invite either way; the members see who joined.
    announce(
      outcome.accepted ? "member.joined" : "session.updated",
      outcome.sessionId,
      outcome.version,
      [user._id],
    );
    return outcome.accepted
      ? { message: "Invite accepted", sessionId: outcome.sessionId }
      : { message: "Invite rejected" };
  }

  return {
    create,
    list,
    get,
    update,
    leave,
    end,
    joinByCode,
    joinRequests,
    decide,
    invite,
    myInvites,
    respond,
    access,
    membersOf,
    memberIds,
  };
}

export type SessionService = ReturnType<typeof createSessionService>;
