import {
  can,
  fromCents,
  toCents,
  type LiveEvent,
  type LiveEventType,
  type Member,
  type Session,
  type ShareCents,
  type SessionStatus,
  type Action,
  type SessionRole,
  type UpdateSessionBody,
  type User,
} from "@cartner/contract";
import { and, desc, eq, inArray, ne, sql } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.ts";
import { cartLines, carts, products, sessionMembers, sessions, users } from "../../db/schema.ts";
import type { Clock } from "../../lib/clock.ts";
import { conflict, isUniqueViolation, notFound } from "../../lib/errors.ts";
import { requireAllowed, visibleMembers } from "../../lib/permissions.ts";
import type { Media } from "../../lib/media.ts";
import type { EventBus } from "../realtime/bus.ts";
import { splitOf, type CartView } from "../carts/service.ts";
import { announceActivity, listActivity, record } from "./activity.ts";
import { newSessionCode } from "./codes.ts";
import { readyMark } from "./ready.ts";

export type SessionRow = typeof sessions.$inferSelect;

const sessionNotFound = () => notFound("Session not found");

export interface CreateSessionInput {
  sessionName: string;
  sessionType: SessionRow["type"];
  participants: SessionRow["participants"];
  passcode?: string | undefined;
  budget?: number | null | undefined;
}

/**
 * Ends a session inside the caller's transaction (ending, and checking out): the cart becomes
 * history with its prices frozen, the session is ended and its version bumped. Callers lock the
 * cart row first, as every cart change (cart_write) does: taking the session row first would
 * deadlock against a change waiting for the session's version bump. Answers the new version.
 */
export async function endInTransaction(tx: Tx, sessionId: string, now: Date): Promise<number> {
  // The cart stays, as history; nothing is deleted by ending. A session ended (or checked out)
  // while this request waited for the cart's lock is not ended twice.
  const [cart] = await tx
    .update(carts)
    .set({ status: "completed", updatedAt: now })
    .where(and(eq(carts.sessionId, sessionId), eq(carts.status, "active")))
    .returning({ id: carts.id });
  if (!cart) throw conflict("This session has ended.");
  const [ended] = await tx
    .update(sessions)
    .set({ status: "ended", endedAt: now, updatedAt: now, version: sql`${sessions.version} + 1` })
    .where(eq(sessions.id, sessionId))
    .returning({ version: sessions.version });
  await tx.execute(
    sql`update ${cartLines} set unit_price_cents = ${products.priceCents} from ${products}
        where ${cartLines.productId} = ${products.id} and ${cartLines.cartId} = ${cart.id}`,
  );
  return ended!.version;
}

/**
 * The start of every write to a session, inside its transaction: locks the session's cart row,
 * then the session row (the order checkout and cart writes take them in, so writes never
 * deadlock), and answers the session as it is now. A write waiting behind a checkout, an end or a
 * removal then sees their outcome: it lands before them or is refused, never after.
 */
export async function lockSession(tx: Tx, sessionId: string): Promise<SessionRow | undefined> {
  await tx.select({ id: carts.id }).from(carts).where(eq(carts.sessionId, sessionId)).for("update");
  const [row] = await tx.select().from(sessions).where(eq(sessions.id, sessionId)).for("update");
  return row;
}

/**
 * `lockSession`, then the caller's role as it is now, checked against the permissions table
 * (404 for anyone outside, 403 or 409 per the table), and 409 unless the session is active.
 */
export async function lockForWrite(
  tx: Tx,
  sessionId: string,
  userId: string,
  action: Action,
  options: { active?: boolean } = {},
): Promise<{ session: SessionRow; role: SessionRole }> {
  const session = await lockSession(tx, sessionId);
  const [member] = session
    ? await tx
        .select({ role: sessionMembers.role })
        .from(sessionMembers)
        .where(and(eq(sessionMembers.sessionId, sessionId), eq(sessionMembers.userId, userId)))
    : [];
  requireAllowed(member?.role, action, "Session not found");
  if ((options.active ?? true) && session!.status !== "active") {
    throw conflict("This session has ended.");
  }
  return { session: session!, role: member!.role };
}

/** Bumps the version clients compare, inside the write's transaction; answers the new row. */
export async function bumpVersion(tx: Tx, sessionId: string, now: Date): Promise<SessionRow> {
  const [row] = await tx
    .update(sessions)
    .set({ version: sql`${sessions.version} + 1`, updatedAt: now })
    .where(eq(sessions.id, sessionId))
    .returning();
  return row!;
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
    details?: Pick<LiveEvent, "userId" | "joinRequest">,
  ) =>
    events.publish({
      event: { type, sessionId, ...(version === undefined ? {} : { version }), ...details },
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

  /**
   * Everyone in these sessions (pending requests included), in joining order, per session, with
   * their ready marks as readyMark() shows them: sessions where someone is marked also read their
   * cart's view, for the shares the marks are checked against.
   */
  async function membersOf(sessionIds: string[]): Promise<Map<string, Member[]>> {
    const rows = await db
      .select({
        sessionId: sessionMembers.sessionId,
        userId: sessionMembers.userId,
        role: sessionMembers.role,
        name: users.name,
        budgetCents: sessionMembers.budgetCents,
        ready: sessionMembers.ready,
        readyTotalCents: sessionMembers.readyTotalCents,
      })
      .from(sessionMembers)
      .innerJoin(users, eq(users.id, sessionMembers.userId))
      .where(inArray(sessionMembers.sessionId, sessionIds))
      .orderBy(sessionMembers.createdAt);
    const marked = [...new Set(rows.filter((r) => r.ready).map((r) => r.sessionId))];
    const sharesBySession = new Map<string, ShareCents[]>();
    if (marked.length > 0) {
      const views = await db
        .select({ sessionId: carts.sessionId, view: sql<CartView>`cart_view(${carts.id})` })
        .from(carts)
        .where(inArray(carts.sessionId, marked));
      for (const { sessionId, view } of views) {
        sharesBySession.set(sessionId, splitOf(view).shares);
      }
    }
    const bySession = new Map<string, Member[]>();
    for (const r of rows) {
      const list = bySession.get(r.sessionId) ?? [];
      list.push({
        userId: r.userId,
        name: r.name,
        avatar: media.userAvatar(r.userId),
        role: r.role,
        budget: r.budgetCents === null ? null : fromCents(r.budgetCents),
        ...readyMark(r, sharesBySession.get(r.sessionId) ?? []),
      });
      bySession.set(r.sessionId, list);
    }
    return bySession;
  }

  /** Builds API.md's Session shape for several sessions with three queries (four when a member is marked ready). */
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
        splitPolicy: row.splitPolicy,
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
    const changes: Partial<typeof sessions.$inferInsert> = {};
    if (body.sessionName !== undefined) changes.name = body.sessionName;
    if (body.sessionType !== undefined) changes.type = body.sessionType;
    if (body.participants !== undefined) changes.participants = body.participants;
    if (body.passcode !== undefined) changes.passcode = body.passcode?.trim() || null;
    if (body.budget !== undefined)
      changes.budgetCents = body.budget === null ? null : toCents(body.budget);
    const now = clock.now();
    const row = await db.transaction(async (tx) => {
      await lockForWrite(tx, sessionId, userId, "session.edit");
      const [updated] = await tx
        .update(sessions)
        .set({ ...changes, version: sql`${sessions.version} + 1`, updatedAt: now })
        .where(eq(sessions.id, sessionId))
        .returning();
      // What changed, never the passcode itself.
      const changed = Object.keys(body).filter(
        (k) => (body as Record<string, unknown>)[k] !== undefined,
      );
      await record(tx, {
        sessionId,
        actorId: userId,
        type: "session.updated",
        details: {
          changed,
          ...(body.sessionName !== undefined ? { sessionName: body.sessionName } : {}),
          ...(body.budget !== undefined ? { budget: body.budget } : {}),
        },
        at: now,
      });
      return updated!;
    });
    announce("session.updated", sessionId, row.version);
    announceActivity(events, sessionId);
    return view(row, userId);
  }

  async function leave(sessionId: string, userId: string) {
    // Only while the session is still active: an ended session's members are its history.
    const now = clock.now();
    const { role, version } = await db.transaction(async (tx) => {
      const { role } = await lockForWrite(tx, sessionId, userId, "session.leave");
      await tx
        .delete(sessionMembers)
        .where(and(eq(sessionMembers.sessionId, sessionId), eq(sessionMembers.userId, userId)));
      // A member leaving is history; a join request withdrawn never made them one.
      if (role !== "pending") {
        await record(tx, { sessionId, actorId: userId, type: "member.left", at: now });
      }
      return { role, version: (await bumpVersion(tx, sessionId, now)).version };
    });
    if (role !== "pending") announceActivity(events, sessionId);
    announce(
      "member.left",
      sessionId,
      version,
      [userId],
      role === "pending" ? { userId, joinRequest: "withdrawn" } : undefined,
    );
    return { message: role === "pending" ? "Join request withdrawn" : "You left the session" };
  }

  async function end(sessionId: string, userId: string) {
    const now = clock.now();
    const version = await db.transaction(async (tx) => {
      await lockForWrite(tx, sessionId, userId, "session.end");
      const ended = await endInTransaction(tx, sessionId, now);
      await record(tx, {
        sessionId,
        actorId: userId,
        type: "session.updated",
        details: { status: "ended" },
        at: now,
      });
      return ended;
    });
    announce("session.ended", sessionId, version);
    announceActivity(events, sessionId);
    return { message: "Session ended", sessionId };
  }

  /** The activity log, to members (pending requesters and strangers get 404). */
  async function activityOf(sessionId: string, userId: string, after: number, limit: number) {
    await access(sessionId, userId, "session.read");
    return listActivity(db, sessionId, after, limit);
  }

  return {
    create,
    list,
    get,
    update,
    leave,
    end,
    activityOf,
    access,
    accessByCode,
    membersOf,
    memberIds,
    // For the membership and split services, which change who is in a session and how it splits.
    view,
    announce,
  };
}

export type SessionService = ReturnType<typeof createSessionService>;
