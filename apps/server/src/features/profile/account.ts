/**
 * Export and deletion of an account (DESIGN section 9, "Accounts").
 */
import crypto from "node:crypto";
import {
  ErrorCode,
  fromCents,
  orderNumber,
  type UnsettledShare,
  type User,
} from "@cartner/contract";
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { executeRows, type Db, type Tx } from "../../db/client.ts";
import {
  authSessions,
  cartLines,
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
import { unsettledShares } from "../orders/service.ts";
import type { EventBus } from "../realtime/bus.ts";
import { announceActivity, record } from "../sessions/activity.ts";
import { bumpVersion, endInTransaction, lockSession } from "../sessions/service.ts";

/** What a deleted account is called wherever others still see it (their carts' lines). */
export const DELETED_USER_NAME = "Deleted user";

/** "You have 2 unsettled shares: ..." (409 UNSETTLED_SHARES). */
export function unsettledMessage(count: number): string {
  const shares = count === 1 ? "1 unsettled share" : `${count} unsettled shares`;
  return `You have ${shares} on orders. Settle up first, or delete anyway: what you owe stays on the orders for the payee, and what you are owed is written off.`;
}

/**
 * Writes off, inside the deletion's transaction, what others still owe the user as payee: nobody
 * is left to be paid or to confirm it, so it would stay on their balances for good. Each share
 * leaves an `order.confirmed` entry (how "written_off", reason "account_deleted") under the
 * user's name. Answers the shares written off.
 */
async function writeOffOwedToThem(tx: Tx, userId: string, now: Date) {
  const shares = await executeRows<{
    orderId: string;
    sessionId: string;
    number: number;
    memberId: string;
    member: string;
    totalCents: number;
  }>(
    tx,
    sql`update order_shares s
      set status = 'confirmed', settled_as = 'written_off', confirmed_at = ${now}
      from orders o
      where o.id = s.order_id and o.payee_id = ${userId} and s.user_id <> ${userId}
        and s.status <> 'confirmed'
      returning s.order_id as "orderId", o.session_id as "sessionId", o.number,
        s.user_id as "memberId", s.name as member, s.total_cents as "totalCents"`,
  );
  for (const s of shares) {
    await record(tx, {
      sessionId: s.sessionId,
      actorId: userId,
      type: "order.confirmed",
      details: {
        orderId: s.orderId,
        number: orderNumber(Number(s.number)),
        member: s.member,
        memberId: s.memberId,
        amount: fromCents(Number(s.totalCents)),
        how: "written_off",
        reason: "account_deleted",
      },
      at: now,
    });
  }
  return shares;
}

/**
 * Removes the user's lines from every cart not yet checked out (active: it could still become an
 * order) and takes them off others' lines' sharers, inside the deletion's transaction: each cart
 * is locked as every session write locks it, each line leaves an `item.removed` entry with
 * reason "account_deleted", and the session's version moves. Answers the carts changed.
 */
async function removeOpenLines(
  tx: Tx,
  userId: string,
  userName: string,
  now: Date,
): Promise<{ sessionId: string; cartId: string; version: number }[]> {
  const touched = await executeRows<{ cartId: string; sessionId: string }>(
    tx,
    sql`select distinct c.id as "cartId", c.session_id as "sessionId"
      from ${carts} c join ${cartLines} l on l.cart_id = c.id
      where c.status = 'active' and (l.added_by = ${userId} or ${userId} = any(l.shared_with))
      order by c.id`,
  );
  const changed: { sessionId: string; cartId: string; version: number }[] = [];
  for (const { cartId, sessionId } of touched) {
    await lockSession(tx, sessionId);
    // A checkout or an end that committed while we waited for the lock made it history.
    const [cart] = await tx
      .select({ status: carts.status })
      .from(carts)
      .where(eq(carts.id, cartId));
    if (cart?.status !== "active") continue;
    const removed = await executeRows<{ productId: string; product: string; quantity: number }>(
      tx,
      sql`delete from ${cartLines} l using products p
        where l.cart_id = ${cartId} and l.added_by = ${userId} and p.id = l.product_id
        returning p.id as "productId", p.name as product, l.quantity`,
    );
    await tx.execute(
      sql`update ${cartLines} set shared_with = array_remove(shared_with, ${userId}::uuid)
        where cart_id = ${cartId} and ${userId} = any(shared_with)`,
    );
    for (const line of removed) {
      await record(tx, {
        sessionId,
        actorId: userId,
        type: "item.removed",
        details: { ...line, lineOf: userName, reason: "account_deleted" },
        at: now,
      });
    }
    await tx.update(carts).set({ updatedAt: now }).where(eq(carts.id, cartId));
    changed.push({ sessionId, cartId, version: (await bumpVersion(tx, sessionId, now)).version });
  }
  return changed;
}

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

  /** The shares the user still owes or is owed, as the deletion's 409 lists them. */
  async function unsettled(userId: string): Promise<UnsettledShare[]> {
    return (await unsettledShares(db, userId)).map((r) => ({
      orderId: r.orderId,
      number: orderNumber(r.number),
      amount: fromCents(r.cents),
      counterparty: { _id: r.otherId, name: r.otherName },
    }));
  }

  /**
   * Deletes the account: sessions they created and still run end (their carts stay as history
   * for the others; hand one over first to keep it going), their lines leave every other cart not
   * yet checked out, every membership and every invite to their address goes, the profile, codes,
   * devices and stored answers go, and the user row keeps only an anonymous name so others' carts
   * and orders still add up. Orders keep the names they were placed with; what they owe stays for
   * the payee to settle, what others owe them is written off (nobody is left to confirm it). With
   * unsettled shares (owed or owing) it is refused with the list unless `acknowledgeUnsettled`.
   */
  async function deleteAccount(
    user: User,
    body: { password: string; acknowledgeUnsettled?: boolean | undefined },
  ): Promise<void> {
    const [row] = await db.select().from(users).where(eq(users.id, user._id));
    if (!row || !(await verifyPassword(row.passwordHash, body.password))) {
      throw new AppError(403, ErrorCode.INVALID_CREDENTIALS, "Your password is incorrect.", {
        fields: { password: "Your password is incorrect." },
      });
    }
    if (!body.acknowledgeUnsettled) {
      const shares = await unsettled(user._id);
      if (shares.length > 0) {
        throw new AppError(409, ErrorCode.UNSETTLED_SHARES, unsettledMessage(shares.length), {
          details: { shares },
        });
      }
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
      // Before the rename: the entries name them as the others knew them.
      const linesLeft = await removeOpenLines(tx, user._id, row.name, now);
      const writtenOff = await writeOffOwedToThem(tx, user._id, now);
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
      // Others' sessions see the change in their member lists (carts changed above moved already).
      const others = memberOf.filter((m) => !endedNow.some((e) => e.sessionId === m.sessionId));
      const unbumped = others.filter((m) => !linesLeft.some((c) => c.sessionId === m.sessionId));
      if (unbumped.length > 0) {
        await tx
          .update(sessions)
          .set({ version: sql`${sessions.version} + 1`, updatedAt: now })
          .where(
            inArray(
              sessions.id,
              unbumped.map((m) => m.sessionId),
            ),
          );
      }
      return { endedNow, linesLeft, writtenOff, others: others.map((m) => m.sessionId) };
    });
    deps.signOutEverywhere(user._id);
    for (const { sessionId, version } of ended.endedNow) {
      events.publish({ event: { type: "session.ended", sessionId, version }, members: sessionId });
    }
    for (const { sessionId, cartId, version } of ended.linesLeft) {
      // Shares moved: cart pages and split panels (and ready marks) refetch.
      for (const type of ["cart.updated", "session.updated"] as const) {
        events.publish({ event: { type, sessionId, cartId, version }, members: sessionId });
      }
      announceActivity(events, sessionId);
    }
    for (const sessionId of ended.others) {
      events.publish({ event: { type: "member.left", sessionId }, members: sessionId });
    }
    for (const { orderId, sessionId, memberId } of ended.writtenOff) {
      events.publish({ event: { type: "order.updated", sessionId, orderId }, users: [memberId] });
    }
    for (const sessionId of new Set(ended.writtenOff.map((s) => s.sessionId))) {
      announceActivity(events, sessionId);
    }
  }

  return { exportData, deleteAccount };
}

export type AccountService = ReturnType<typeof createAccountService>;
