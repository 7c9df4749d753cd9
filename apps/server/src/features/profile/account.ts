/**
 * Deletion of an account (its export is export.ts): it asks for the password and takes the
 * person out while others' carts and orders still add up.
 */
import crypto from "node:crypto";
import {
  ErrorCode,
  fromCents,
  orderNumber,
  type UnsettledShare,
  type User,
} from "@cartner/contract";
import { and, eq, isNull, sql } from "drizzle-orm";
import { executeRows, type Tx } from "../../db/client.ts";
import {
  authSessions,
  cartLines,
  carts,
  idempotencyKeys,
  joinFailures,
  notificationPreferences,
  notifications,
  mailDigestItems,
  mailDigests,
  otpCodes,
  otpFailures,
  paymentDetails,
  profiles,
  pushSubscriptions,
  sessionInvites,
  sessionMembers,
  sessions,
  users,
} from "../../db/schema.ts";
import { AppError } from "../../lib/errors.ts";
import { hashPassword, verifyPassword } from "../auth/index.ts";
import { owingOf, pairsOfOrder, post, settlementOf, type Pair } from "../ledger/index.ts";
import { sharesOf, unsettledShares } from "../orders/index.ts";
import {
  endInTransaction,
  linesTakenEvents,
  takeLinesOf,
  toMembers,
  writeSessionsTogether,
  type SessionWrite,
  type Written,
} from "../sessions/index.ts";
import type { ProfileDeps } from "./deps.ts";

/** What a deleted account is called wherever others still see it (their carts' lines). */
export const DELETED_USER_NAME = "Deleted user";

/** "You have 2 unsettled shares: ..." (409 UNSETTLED_SHARES). */
export function unsettledMessage(count: number): string {
  const shares = count === 1 ? "1 unsettled share" : `${count} unsettled shares`;
  return `You have ${shares} on orders. Settle up first, or delete anyway: what you owe stays on the orders for the payee, and what you are owed is written off.`;
}

type SessionWriter = <R>(w: SessionWrite<R>) => Promise<Written<R>>;

/**
 * Writes off what others still owe the user, one session write per order's session: nobody is
 * left to be paid or to confirm it, so it would stay on their balances for good. Each debt is a
 * "written_off" entry in the book (its waiting claims voided) under the user's name, with an
 * `order.confirmed` activity entry (how "written_off", reason "account_deleted"); the (ended)
 * session's version stays, and `order.updated` tells that member. What the user owes stays owed.
 */
async function writeOffOwedToThem(
  tx: Tx,
  write: SessionWriter,
  user: { id: string; name: string },
) {
  const orderRows = await executeRows<{ orderId: string; sessionId: string; number: number }>(
    tx,
    sql`select o.id as "orderId", o.session_id as "sessionId", o.number from orders o
      where exists (select 1 from ledger_entries e where e.order_id = o.id and e.to_id = ${user.id})
      order by o.session_id, o.number`,
  );
  const bySession = new Map<string, typeof orderRows>();
  for (const r of orderRows) bySession.set(r.sessionId, [...(bySession.get(r.sessionId) ?? []), r]);
  for (const [sessionId, inSession] of bySession) {
    await write({
      sessionId,
      userId: user.id,
      action: null,
      active: false,
      change: async ({ tx, now }) => {
        const debts: {
          order: (typeof inSession)[number];
          pair: Pair;
          member: string;
          memberId: string;
          cents: number;
        }[] = [];
        for (const order of inSession) {
          const pairs = await pairsOfOrder(tx, order.orderId);
          const shares = await sharesOf(tx, [order.orderId]);
          for (const pair of pairs) {
            // Whoever owes the deleted person on this pair.
            const other = pair.debtor === user.id ? pair.creditor : pair.debtor;
            const owing = owingOf(pair, other);
            if (owing?.other !== user.id || owing.owes <= 0) continue;
            const member = shares.find((s) => s.userId === other)?.name ?? "";
            debts.push({ order, pair, member, memberId: other, cents: owing.owes });
          }
        }
        const activity = debts.map(({ order, member, memberId, cents }) => ({
          type: "order.confirmed" as const,
          details: {
            orderId: order.orderId,
            number: orderNumber(Number(order.number)),
            member,
            memberId,
            amount: fromCents(cents),
            how: "written_off" as const,
            reason: "account_deleted" as const,
          },
        }));
        return {
          result: debts.map((d) => ({ orderId: d.order.orderId, memberId: d.memberId })),
          activity,
          version: "unchanged" as const,
          afterActivity: async (seqs: number[]) => {
            const event = { at: now, by: { id: user.id, name: user.name } };
            for (const [i, { order, pair, memberId }] of debts.entries()) {
              const postings = settlementOf(order.orderId, pair, memberId, "written_off").map(
                (p) => ({
                  ...p,
                  note: "Account deleted",
                }),
              );
              await post(tx, event, postings, seqs[i] ?? null);
            }
          },
        };
      },
      events: (shares) =>
        shares.map(({ orderId, memberId }) => ({
          event: { type: "order.updated" as const, sessionId, orderId },
          users: [memberId],
        })),
    });
  }
}

/**
 * Takes the user out of every session they are in but do not run, one session write each: their
 * lines leave its cart while it is not yet checked out (active: it could still become an order),
 * each with an `item.removed` entry (reason "account_deleted"), they leave others' lines'
 * sharers, and their membership goes. The version moves when the cart or the members changed.
 */
async function leaveOtherSessions(
  tx: Tx,
  write: SessionWriter,
  user: { id: string; name: string },
  memberOf: string[],
) {
  const withLines = await executeRows<{ sessionId: string }>(
    tx,
    sql`select distinct c.session_id as "sessionId"
      from ${carts} c join ${cartLines} l on l.cart_id = c.id
      where c.status = 'active' and (l.added_by = ${user.id} or ${user.id} = any(l.shared_with))`,
  );
  const sessionIds = [...new Set([...memberOf, ...withLines.map((r) => r.sessionId)])].sort();
  for (const sessionId of sessionIds) {
    await write({
      sessionId,
      userId: user.id,
      action: null,
      active: false,
      change: async ({ tx, cartId, now }) => {
        const left = await tx
          .delete(sessionMembers)
          .where(and(eq(sessionMembers.sessionId, sessionId), eq(sessionMembers.userId, user.id)))
          .returning({ role: sessionMembers.role });
        // A checkout or an end that committed while we waited for the lock made the cart history.
        const { activity, cartChanged } = await takeLinesOf(tx, {
          cartId,
          leaver: user,
          choice: { lines: "remove" },
          reason: "account_deleted",
          self: true,
          now,
        });
        const result = { cartChanged, member: left.length > 0 };
        return cartChanged || result.member
          ? { result, activity }
          : { result, version: "unchanged" as const };
      },
      events: ({ cartChanged, member }, row, cartId) => [
        ...linesTakenEvents(cartChanged, row, cartId),
        ...(member
          ? [{ event: { type: "member.left" as const, sessionId }, members: sessionId }]
          : []),
      ],
    });
  }
}

/** The shares the user still owes or is owed, as the deletion's 409 lists them. */
export async function unsettled(
  deps: Pick<ProfileDeps, "db">,
  userId: string,
): Promise<UnsettledShare[]> {
  return (await unsettledShares(deps.db, userId)).map((r) => ({
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
 * devices (signed in, and subscribed to Web Push), digests and stored answers go, and the user row keeps only an anonymous name so others' carts
 * and orders still add up. Orders keep the names they were placed with; what they owe stays for
 * the payee to settle, what others owe them is written off (nobody is left to confirm it). With
 * unsettled shares (owed or owing) it is refused with the list unless `acknowledgeUnsettled`.
 */
export async function deleteAccount(
  deps: ProfileDeps,
  user: User,
  body: { password: string; acknowledgeUnsettled?: boolean | undefined },
): Promise<void> {
  const [row] = await deps.db.select().from(users).where(eq(users.id, user._id));
  if (!row || !(await verifyPassword(row.passwordHash, body.password))) {
    throw new AppError(403, ErrorCode.INVALID_CREDENTIALS, "Your password is incorrect.", {
      fields: { password: "Your password is incorrect." },
    });
  }
  if (!body.acknowledgeUnsettled) {
    const shares = await unsettled(deps, user._id);
    if (shares.length > 0) {
      throw new AppError(409, ErrorCode.UNSETTLED_SHARES, unsettledMessage(shares.length), {
        details: { shares },
      });
    }
  }
  const now = deps.clock.now();
  const unusable = await hashPassword(crypto.randomBytes(32).toString("base64url"));
  const memberOf = await deps.db
    .select({ sessionId: sessionMembers.sessionId, role: sessionMembers.role })
    .from(sessionMembers)
    .where(eq(sessionMembers.userId, user._id));
  await writeSessionsTogether(deps.db, deps, async (write, tx) => {
    const own = await tx
      .select({ id: sessions.id })
      .from(sessions)
      .where(and(eq(sessions.creatorId, user._id), eq(sessions.status, "active")))
      .orderBy(sessions.id);
    for (const { id } of own) {
      // Nobody is left to run it: it ends, its cart kept as history for the others.
      await write({
        sessionId: id,
        userId: user._id,
        action: null,
        change: async ({ tx, now }) => {
          await endInTransaction(tx, id, now);
          return { result: null };
        },
        events: (_, row) => [toMembers("session.ended", row)],
      });
    }
    // Before the rename: the entries name them as the others knew them.
    const others = memberOf.filter((m) => !own.some((o) => o.id === m.sessionId));
    await leaveOtherSessions(
      tx,
      write,
      { id: user._id, name: row.name },
      others.map((m) => m.sessionId),
    );
    await writeOffOwedToThem(tx, write, { id: user._id, name: row.name });
    // The memberships of the sessions that ended above, and any made since they were read.
    await tx.delete(sessionMembers).where(eq(sessionMembers.userId, user._id));
    // Every invite to the address, answered ones too: the next account on it must not see them.
    await tx.delete(sessionInvites).where(eq(sessionInvites.email, row.email));
    await tx.delete(profiles).where(eq(profiles.userId, user._id));
    // Their bank details: the payees' shares they leave are settled without them.
    await tx.delete(paymentDetails).where(eq(paymentDetails.userId, user._id));
    await tx.delete(otpCodes).where(eq(otpCodes.userId, user._id));
    await tx.delete(otpFailures).where(eq(otpFailures.userId, user._id));
    await tx.delete(joinFailures).where(eq(joinFailures.userId, user._id));
    await tx.delete(notifications).where(eq(notifications.userId, user._id));
    await tx.delete(notificationPreferences).where(eq(notificationPreferences.userId, user._id));
    // Stored answers to their keyed writes (profile, invites sent) are personal data too.
    await tx.delete(idempotencyKeys).where(eq(idempotencyKeys.userId, user._id));
    // No device of theirs is notified again, and no digest waits for them.
    await tx.delete(pushSubscriptions).where(eq(pushSubscriptions.userId, user._id));
    await tx.delete(mailDigestItems).where(eq(mailDigestItems.userId, user._id));
    await tx.delete(mailDigests).where(eq(mailDigests.userId, user._id));
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
  });
  deps.signOutEverywhere(user._id);
}
