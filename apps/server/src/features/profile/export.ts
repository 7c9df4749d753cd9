/**
 * An account's export: everything the app holds about the user, as
 * one JSON document: account, profile without the picture, devices (signed in, and subscribed to
 * Web Push), memberships, cart lines, order shares and the ledger's entries about them, invites,
 * notifications and notification
 * choices, payment details. No password, no codes.
 */
import { fromCents, orderNumber, type User } from "@cartner/contract";
import { eq, sql } from "drizzle-orm";
import { executeRows } from "../../db/client.ts";
import { orderOf } from "../orders/index.ts";
import {
  authSessions,
  notificationPreferences,
  notifications,
  paymentDetails,
  profiles,
  pushSubscriptions,
  sessionInvites,
  sessionMembers,
  sessions,
  users,
} from "../../db/schema.ts";
import type { ProfileDeps } from "./deps.ts";

/** Everything the app holds about the user, as one JSON document. */
export async function exportAccount(deps: Pick<ProfileDeps, "db" | "clock">, user: User) {
  const { db, clock } = deps;
  const [account] = await db
    .select({
      id: users.id,
      name: users.name,
      email: users.email,
      createdAt: users.createdAt,
      emailVerifiedAt: users.emailVerifiedAt,
      timeZone: users.timeZone,
      timeZoneChosen: users.timeZoneChosen,
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
    note: string | null;
    substitute: string;
  }>(
    db,
    sql`select s.name as "sessionName", coalesce(p.name, l.name) as product, l.quantity,
        coalesce(l.unit_price_cents, p.price_cents) as "unitPriceCents", l.added_at as "addedAt",
        l.note, l.substitute
      from cart_lines l join carts c on c.id = l.cart_id join sessions s on s.id = c.session_id
      left join products p on p.id = l.product_id
      where l.added_by = ${user._id} order by l.added_at`,
  );
  const shareRows = await executeRows<{
    orderId: string;
    number: number;
    sessionName: string;
    placedAt: string;
    payee: string;
    totalCents: number;
  }>(
    db,
    sql`select o.id as "orderId", o.number, o.session_name as "sessionName",
        o.placed_at as "placedAt", o.payee_name as payee, s.total_cents as "totalCents"
      from order_shares s join orders o on o.id = s.order_id
      where s.user_id = ${user._id} order by o.placed_at`,
  );
  // Each share's status as the order's book says it.
  const shares = await Promise.all(
    shareRows.map(async ({ orderId, ...s }) => ({
      ...s,
      status: (await orderOf(db, orderId))?.split.find((x) => x.userId === user._id)?.status,
    })),
  );
  // What the book holds of the user: every entry they are a party to or wrote.
  const entries = await executeRows<{
    number: number;
    at: string;
    kind: string;
    fromName: string;
    toName: string;
    amountCents: number;
    pending: boolean;
    note: string | null;
  }>(
    db,
    sql`select o.number, e.at, e.kind, f.name as "fromName", t.name as "toName",
        e.amount_cents as "amountCents", e.pending, e.note
      from ledger_entries e join orders o on o.id = e.order_id
      join users f on f.id = e.from_id join users t on t.id = e.to_id
      where e.from_id = ${user._id} or e.to_id = ${user._id} or e.by_id = ${user._id}
      order by e.seq`,
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
  const notices = await db
    .select({
      kind: notifications.kind,
      title: notifications.title,
      body: notifications.body,
      url: notifications.url,
      createdAt: notifications.createdAt,
      readAt: notifications.readAt,
    })
    .from(notifications)
    .where(eq(notifications.userId, user._id))
    .orderBy(notifications.createdAt, notifications.seq);
  const [choices] = await db
    .select({ prefs: notificationPreferences.prefs })
    .from(notificationPreferences)
    .where(eq(notificationPreferences.userId, user._id));
  const pushDevices = await db
    .select({
      endpoint: pushSubscriptions.endpoint,
      createdAt: pushSubscriptions.createdAt,
      lastSuccessAt: pushSubscriptions.lastSuccessAt,
    })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, user._id));
  const [payment] = await db
    .select({
      iban: paymentDetails.iban,
      accountName: paymentDetails.accountName,
      payLink: paymentDetails.payLink,
      note: paymentDetails.note,
      updatedAt: paymentDetails.updatedAt,
    })
    .from(paymentDetails)
    .where(eq(paymentDetails.userId, user._id));
  return {
    exportedAt: clock.now().toISOString(),
    account,
    profile: profile ?? null,
    devices,
    pushDevices,
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
    ledgerEntries: entries.map(({ number, amountCents, fromName, toName, ...e }) => ({
      ...e,
      order: orderNumber(Number(number)),
      from: fromName,
      to: toName,
      amount: fromCents(Number(amountCents)),
    })),
    invitesReceived: invites,
    notifications: notices,
    notificationPreferences: choices?.prefs ?? null,
    paymentDetails: payment ?? null,
  };
}
