/**
 * Export and deletion of an account (DESIGN section 9, "Accounts").
 */
import crypto from "node:crypto";
import { ErrorCode, fromCents, orderNumber, type User } from "@cartner/contract";
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { executeRows, type Db } from "../../db/client.ts";
import {
  authSessions,
  carts,
  idempotencyKeys,
  joinFailures,
  otpCodes,
  otpFailures,
  profiles,
  sessionInvites,
  sessionMembers,
  sessions,
  users,
} from "../../db/schema.ts";
import type { Clock } from "../../lib/clock.ts";
import { AppError } from "../../lib/errors.ts";
import { hashPassword, verifyPassword } from "../auth/index.ts";
import type { EventBus } from "../realtime/bus.ts";
import { endInTransaction } from "../sessions/service.ts";

/** What a deleted account is called wherever others still see it (their carts' lines). */
export const DELETED_USER_NAME = "Deleted user";

export function createAccountService(deps: {
  db: Db;
  clock: Clock;
  events: Pick<EventBus, "publish">;
  /** Closes the user's live sockets and forgets their cached auth sessions. */
  signOutEverywhere: (userId: string) => void;
}) {
  const { db, clock, events } = deps;

  /** Everything the app holds about the user, as one JSON document (no password, no codes). */
  async function exportData(user: User) {
    const [account] = await db
      .select({
        id: users.id,
        name: users.name,
        email: users.email,
        createdAt: users.createdAt,
        emailVerifiedAt: users.emailVerifiedAt,
      })
      .from(users)
      .where(eq(users.id, user._id));
    const [profile] = await db
      .select({
        bio: profiles.bio,
        location: profiles.location,
        languages: profiles.languages,
        occupation: profiles.occupation,
        phoneNumber: profiles.phoneNumber,
        hasAvatar: sql<boolean>`${profiles.avatarWebp} is not null`,
        updatedAt: profiles.updatedAt,
      })
      .from(profiles)
      .where(eq(profiles.userId, user._id));
    const devices = await db
      .select({
        createdAt: authSessions.createdAt,
        lastSeenAt: authSessions.lastSeenAt,
        revokedAt: authSessions.revokedAt,
        userAgent: authSessions.userAgent,
      })
      .from(authSessions)
      .where(eq(authSessions.userId, user._id));
    const memberships = await db
      .select({
        sessionId: sessions.id,
        sessionName: sessions.name,
        status: sessions.status,
        role: sessionMembers.role,
        budgetCents: sessionMembers.budgetCents,
        joinedAt: sessionMembers.createdAt,
      })
      .from(sessionMembers)
      .innerJoin(sessions, eq(sessions.id, sessionMembers.sessionId))
      .where(eq(sessionMembers.userId, user._id));
    const lines = await executeRows<{
      sessionName: string;
      product: string;
      quantity: number;
      unitPriceCents: number;
      addedAt: string;
    }>(
      db,
      sql`select s.name as "sessionName", p.name as product, l.quantity,
          coalesce(l.unit_price_cents, p.price_cents) as "unitPriceCents", l.added_at as "addedAt"
        from cart_lines l join carts c on c.id = l.cart_id join sessions s on s.id = c.session_id
        join products p on p.id = l.product_id
        where l.added_by = ${user._id} order by l.added_at`,
    );
    const shares = await executeRows<{
      number: number;
      sessionName: string;
      placedAt: string;
      payee: string;
      totalCents: number;
      status: string;
    }>(
      db,
      sql`select o.number, o.session_name as "sessionName", o.placed_at as "placedAt",
          o.payee_name as payee, s.total_cents as "totalCents", s.status
        from order_shares s join orders o on o.id = s.order_id
        where s.user_id = ${user._id} order by o.placed_at`,
    );
    const invites = await db
      .select({
        sessionName: sessions.name,
        role: sessionInvites.role,
        status: sessionInvites.status,
        createdAt: sessionInvites.createdAt,
      })
      .from(sessionInvites)
      .innerJoin(sessions, eq(sessions.id, sessionInvites.sessionId))
      .where(eq(sessionInvites.email, user.email));
    return {
      exportedAt: clock.now().toISOString(),
      account,
      profile: profile ?? null,
      devices,
      sessions: memberships.map(({ budgetCents, ...m }) => ({
        ...m,
        budget: budgetCents === null ? null : fromCents(budgetCents),
      })),
      cartLines: lines.map(({ unitPriceCents, ...l }) => ({
        ...l,
        unitPrice: fromCents(Number(unitPriceCents)),
      })),
      orderShares: shares.map(({ number, totalCents, ...s }) => ({
        ...s,
        number: orderNumber(Number(number)),
        total: fromCents(Number(totalCents)),
      })),
      invitesReceived: invites,
    };
  }

  /**
   * Deletes the account: sessions they created and still run end (their carts stay as history
   * for the others; hand one over first to keep it going), every membership and every invite to
   * their address goes, the profile, codes, devices and stored answers go, and the user row keeps
   * only an anonymous name so others' carts and orders still add up. Orders keep the names they
   * were placed with.
   */
  async function deleteAccount(user: User, password: string): Promise<void> {
    const [row] = await db.select().from(users).where(eq(users.id, user._id));
    if (!row || !(await verifyPassword(row.passwordHash, password))) {
      throw new AppError(403, ErrorCode.INVALID_CREDENTIALS, "Your password is incorrect.", {
        fields: { password: "Your password is incorrect." },
      });
    }
    const now = clock.now();
    const unusable = await hashPassword(crypto.randomBytes(32).toString("base64url"));
    const memberOf = await db
      .select({ sessionId: sessionMembers.sessionId, role: sessionMembers.role })
      .from(sessionMembers)
      .where(eq(sessionMembers.userId, user._id));
    const ended = await db.transaction(async (tx) => {
      const own = await tx
        .select({ id: sessions.id })
        .from(sessions)
        .innerJoin(carts, eq(carts.sessionId, sessions.id))
        .where(and(eq(sessions.creatorId, user._id), eq(sessions.status, "active")));
      const endedNow: { sessionId: string; version: number }[] = [];
      for (const { id } of own) {
        endedNow.push({ sessionId: id, version: await endInTransaction(tx, id, now) });
      }
      await tx.delete(sessionMembers).where(eq(sessionMembers.userId, user._id));
      // Every invite to the address, answered ones too: the next account on it must not see them.
      await tx.delete(sessionInvites).where(eq(sessionInvites.email, row.email));
      await tx.delete(profiles).where(eq(profiles.userId, user._id));
      await tx.delete(otpCodes).where(eq(otpCodes.userId, user._id));
      await tx.delete(otpFailures).where(eq(otpFailures.userId, user._id));
      await tx.delete(joinFailures).where(eq(joinFailures.userId, user._id));
      // Stored answers to their keyed writes (profile, invites sent) are personal data too.
      await tx.delete(idempotencyKeys).where(eq(idempotencyKeys.userId, user._id));
      await tx
        .update(authSessions)
        .set({ revokedAt: now, userAgent: "" })
        .where(and(eq(authSessions.userId, user._id), isNull(authSessions.revokedAt)));
      await tx
        .update(users)
        .set({
          name: DELETED_USER_NAME,
          // Unique and unusable: the address is free for a new account at once.
          email: `deleted.${user._id}@invalid`,
          passwordHash: unusable,
          emailVerifiedAt: null,
          otpSentAt: null,
          resetOtpSentAt: null,
          deletedAt: now,
          updatedAt: now,
        })
        .where(eq(users.id, user._id));
      // Others' sessions see the change in their member lists.
      const others = memberOf.filter((m) => !endedNow.some((e) => e.sessionId === m.sessionId));
      if (others.length > 0) {
        await tx
          .update(sessions)
          .set({ version: sql`${sessions.version} + 1`, updatedAt: now })
          .where(
            inArray(
              sessions.id,
              others.map((m) => m.sessionId),
            ),
          );
      }
      return { endedNow, others: others.map((m) => m.sessionId) };
    });
    deps.signOutEverywhere(user._id);
    for (const { sessionId, version } of ended.endedNow) {
      events.publish({ event: { type: "session.ended", sessionId, version }, members: sessionId });
    }
    for (const sessionId of ended.others) {
      events.publish({ event: { type: "member.left", sessionId }, members: sessionId });
    }
  }

  return { exportData, deleteAccount };
}

export type AccountService = ReturnType<typeof createAccountService>;
