/**
 * How a session splits its cart (DESIGN section 9, "Split" and "Budgets and readiness"): the
 * creator's split policy, members' roles and budgets, and "I'm done" marks. Every change bumps the
 * session's version and is pushed live as session.updated and cart.updated (the shares move).
 */
import { can, toCents, type Session, type SessionRole, type SplitPolicy } from "@cartner/contract";
import { and, eq, ne, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { carts, sessionMembers, sessions, users } from "../../db/schema.ts";
import type { Clock } from "../../lib/clock.ts";
import { AppError, badRequest, conflict, notFound } from "../../lib/errors.ts";
import { requireAllowed } from "../../lib/permissions.ts";
import type { EventBus } from "../realtime/bus.ts";
import { announceActivity, record } from "./activity.ts";
import type { SessionRow, SessionService } from "./service.ts";

const payer = (role: SessionRole) => can(role, "cart.add");

export function createSplitService(deps: {
  db: Db;
  clock: Clock;
  events: Pick<EventBus, "publish">;
  sessions: SessionService;
}) {
  const { db, clock, events } = deps;
  const { access, requireActive, view } = deps.sessions;

  /** Bumps the version and tells the members: the session changed, and so did the cart's shares. */
  async function changed(sessionId: string, viewerId: string): Promise<Session> {
    const [row] = await db
      .update(sessions)
      .set({ version: sql`${sessions.version} + 1`, updatedAt: clock.now() })
      .where(eq(sessions.id, sessionId))
      .returning();
    const [cart] = await db
      .select({ id: carts.id })
      .from(carts)
      .where(eq(carts.sessionId, sessionId));
    announceActivity(events, sessionId);
    for (const type of ["session.updated", "cart.updated"] as const) {
      events.publish({
        event: { type, sessionId, version: row!.version, ...(cart ? { cartId: cart.id } : {}) },
        members: sessionId,
      });
    }
    return view(row as SessionRow, viewerId);
  }

  async function members(sessionId: string) {
    return db
      .select({ userId: sessionMembers.userId, role: sessionMembers.role })
      .from(sessionMembers)
      .where(and(eq(sessionMembers.sessionId, sessionId), ne(sessionMembers.role, "pending")));
  }

  async function setPolicy(sessionId: string, userId: string, policy: SplitPolicy) {
    const { session } = await access(sessionId, userId, "session.splitPolicy");
    requireActive(session);
    const payers = new Set(
      (await members(sessionId)).filter((m) => payer(m.role)).map((m) => m.userId),
    );
    const strangers = Object.keys(policy.weights).filter((id) => !payers.has(id));
    if (strangers.length > 0) {
      throw new AppError(
        400,
        "VALIDATION_ERROR",
        "Weights are for members who pay (creator, participants).",
        {
          fields: { weights: `Not a paying member: ${strangers.slice(0, 3).join(", ")}` },
        },
      );
    }
    // Only while active: a checkout holds the session row, and a policy change waiting behind it
    // re-reads the status and changes nothing (the order used the policy it saw).
    await db.transaction(async (tx) => {
      const set = await tx
        .update(sessions)
        .set({ splitPolicy: policy })
        .where(and(eq(sessions.id, sessionId), eq(sessions.status, "active")))
        .returning({ id: sessions.id });
      if (set.length === 0) throw conflict("This session has ended.");
      await record(tx, {
        sessionId,
        actorId: userId,
        type: "split.policy",
        details: { mode: policy.mode, fees: policy.fees },
        at: clock.now(),
      });
    });
    return changed(sessionId, userId);
  }

  /**
   * A member's role or budget. Anyone may set their own budget; the creator anyone's, and roles
   * (participant or viewer; the creator's own role changes only by handing the session over).
   */
  async function updateMember(
    sessionId: string,
    actorId: string,
    targetId: string,
    change: { role?: "participant" | "viewer" | undefined; budget?: number | null | undefined },
  ) {
    const { session, role: actorRole } = await access(sessionId, actorId, "member.ownBudget");
    requireActive(session);
    if (targetId !== actorId || change.role !== undefined) {
      requireAllowed(actorRole, "session.manageMembers", "Session not found");
    }
    const target = (await members(sessionId)).find((m) => m.userId === targetId);
    if (!target) throw notFound("Member not found");
    if (change.role !== undefined && target.role === "creator") {
      throw conflict("The creator stays the creator; hand the session over to change that.");
    }
    const set: Partial<typeof sessionMembers.$inferInsert> = {};
    if (change.role !== undefined) set.role = change.role;
    if (change.budget !== undefined) {
      set.budgetCents = change.budget === null ? null : toCents(change.budget);
    }
    if (Object.keys(set).length === 0) throw badRequest("Send a role, a budget, or both");
    await db.transaction(async (tx) => {
      await tx
        .update(sessionMembers)
        .set(set)
        .where(and(eq(sessionMembers.sessionId, sessionId), eq(sessionMembers.userId, targetId)));
      const [who] = await tx.select({ name: users.name }).from(users).where(eq(users.id, targetId));
      await record(tx, {
        sessionId,
        actorId,
        // One entry per change: a role change (with the budget, when both came together) or a budget.
        type: change.role !== undefined ? "member.role" : "session.updated",
        details: {
          member: who?.name ?? "",
          memberId: targetId,
          ...(change.role !== undefined ? { role: change.role } : {}),
          ...(change.budget !== undefined ? { budget: change.budget } : {}),
        },
        at: clock.now(),
      });
    });
    return changed(sessionId, actorId);
  }

  async function setReady(sessionId: string, userId: string, ready: boolean) {
    const { session } = await access(sessionId, userId, "member.ready");
    requireActive(session);
    await db.transaction(async (tx) => {
      await tx
        .update(sessionMembers)
        .set({ ready })
        .where(and(eq(sessionMembers.sessionId, sessionId), eq(sessionMembers.userId, userId)));
      await record(tx, {
        sessionId,
        actorId: userId,
        type: "session.updated",
        details: { ready },
        at: clock.now(),
      });
    });
    return changed(sessionId, userId);
  }

  return { setPolicy, updateMember, setReady };
}

export type SplitService = ReturnType<typeof createSplitService>;
