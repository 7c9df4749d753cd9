/**
 * The Session answer as members read it: members with their ready marks, the deadline, the
 * cart's total and count, and the series' neighbours, for many sessions in a few queries.
 */
import {
  can,
  deadlineAt,
  fromCents,
  type Member,
  type Session,
  type ShareCents,
} from "@cartner/contract";
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import {
  cartLines,
  carts,
  products,
  sessionDeadlines,
  sessionMembers,
  sessions,
  users,
} from "../../../db/schema.ts";
import { visibleMembers } from "../../../lib/permissions.ts";
import { splitOf, type CartView } from "../../carts/index.ts";
import { readyMark } from "../../../lib/ready-mark.ts";
import type { SessionDeps } from "../deps.ts";
import type { SessionRow } from "./write.ts";

/** What the Session answer is read with. */
export type ViewDeps = Pick<SessionDeps, "db" | "clock" | "media">;

/**
 * Everyone in these sessions (pending requests included), in joining order, per session, with
 * their ready marks as readyMark() shows them: sessions where someone is marked also read their
 * cart's view, for the shares the marks are checked against.
 */
export async function membersOf(
  deps: Pick<SessionDeps, "db" | "media">,
  sessionIds: string[],
): Promise<Map<string, Member[]>> {
  const { db, media } = deps;
  const rows = await db
    .select({
      sessionId: sessionMembers.sessionId,
      userId: sessionMembers.userId,
      role: sessionMembers.role,
      name: users.name,
      budgetCents: sessionMembers.budgetCents,
      budgetMode: sessionMembers.budgetMode,
      child: sessionMembers.child,
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
      budgetMode: r.budgetMode,
      child: r.child,
      ...readyMark(r, sharesBySession.get(r.sessionId) ?? []),
    });
    bySession.set(r.sessionId, list);
  }
  return bySession;
}

/** Builds the Session answer for several sessions in four queries (five if someone is ready). */
export async function sessionViews(
  deps: ViewDeps,
  rows: SessionRow[],
  viewerId: string,
): Promise<Session[]> {
  const { db, clock, media } = deps;
  if (rows.length === 0) return [];
  const now = clock.now();
  const ids = rows.map((r) => r.id);
  const members = await membersOf(deps, ids);
  const deadlineRows = await db
    .select()
    .from(sessionDeadlines)
    .where(inArray(sessionDeadlines.sessionId, ids));
  const deadlineBySession = new Map(deadlineRows.map((d) => [d.sessionId, d]));
  const cartRows = await db
    .select({
      id: carts.id,
      sessionId: carts.sessionId,
      totalCents: sql<string>`coalesce(sum(${cartLines.quantity} * coalesce(${cartLines.unitPriceCents}, ${products.priceCents})), 0)`,
      itemCount: sql<string>`coalesce(sum(${cartLines.quantity}), 0)`,
    })
    .from(carts)
    // Lines waiting for approval are not in the totals.
    .leftJoin(cartLines, and(eq(cartLines.cartId, carts.id), isNull(cartLines.pendingAt)))
    .leftJoin(products, eq(products.id, cartLines.productId))
    .where(inArray(carts.sessionId, ids))
    .groupBy(carts.id, carts.sessionId);
  const cartBySession = new Map(cartRows.map((c) => [c.sessionId, c]));
  // The series' sessions that followed these (each is followed at most once).
  const followers = await db
    .select({ id: sessions.id, previous: sessions.previousSessionId })
    .from(sessions)
    .where(inArray(sessions.previousSessionId, ids));
  const nextOf = new Map(followers.map((f) => [f.previous, f.id]));

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
      // Viewers see the session, not its passcode: only creator and participants do.
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
      checkoutBy: row.checkoutBy,
      // Only those still members: one who left or was removed approves no more.
      approvers: row.approvers.filter((id) =>
        invitedUsers.some((m) => m.userId === id && m.role !== "pending"),
      ),
      series:
        row.seriesRule && row.seriesTimeZone && row.seriesNextAt
          ? {
              rule: row.seriesRule,
              timeZone: row.seriesTimeZone,
              nextAt: row.seriesNextAt.toISOString(),
            }
          : null,
      previousSessionId: row.previousSessionId,
      nextSessionId: nextOf.get(row.id) ?? null,
      deadline: deadlineAt(deadlineBySession.get(row.id) ?? null, now),
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

/** The Session answer for one session. */
export async function sessionView(
  deps: ViewDeps,
  row: SessionRow,
  viewerId: string,
): Promise<Session> {
  return (await sessionViews(deps, [row], viewerId))[0]!;
}
