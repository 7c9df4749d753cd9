/**
 * The settings that decide who pays what (the split policy, roles, budgets and readiness):
 * the creator's split policy, members' roles and budgets, and "I'm done" marks. Each is one
 * session write (write.ts), pushed live as session.updated and cart.updated (the shares move).
 * The split arithmetic itself is the contract's `splitShares()`.
 */
import {
  carriesShare,
  ErrorCode,
  linesCarriedAlone,
  memberHasLinesMessage,
  toCents,
  type BudgetMode,
  type SplitPolicy,
} from "@cartner/contract";
import { and, eq, sql } from "drizzle-orm";
import { executeRows, type Tx } from "../../../db/client.ts";
import { carts, sessionMembers, sessions, users } from "../../../db/schema.ts";
import { AppError, badRequest, conflict, notFound } from "../../../lib/errors.ts";
import { isMemberRole, requireAllowed } from "../../../lib/permissions.ts";
import { splitOf, type CartView } from "../../carts/index.ts";
import type { SessionDeps } from "../deps.ts";
import { sessionView } from "../lifecycle/view.ts";
import { toMembers, writeSession, type SessionRow, type TypedEntry } from "../lifecycle/write.ts";

/** After commit: the session changed, and so did the cart's shares. */
const sharesMoved = (_: unknown, row: SessionRow, cartId: string) =>
  (["session.updated", "cart.updated"] as const).map((type) => toMembers(type, row, { cartId }));

async function members(tx: Tx, sessionId: string) {
  return tx
    .select({ userId: sessionMembers.userId, role: sessionMembers.role })
    .from(sessionMembers)
    .where(and(eq(sessionMembers.sessionId, sessionId), isMemberRole(sessionMembers.role)));
}

/** The creator's split policy: how the cart's total is shared among those who pay. */
export async function setPolicy(
  deps: SessionDeps,
  sessionId: string,
  userId: string,
  policy: SplitPolicy,
) {
  const { session } = await writeSession(deps.db, deps, {
    sessionId,
    userId,
    action: "session.splitPolicy",
    change: async ({ tx }) => {
      const payers = new Set(
        (await members(tx, sessionId)).filter((m) => carriesShare(m.role)).map((m) => m.userId),
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
      await tx.update(sessions).set({ splitPolicy: policy }).where(eq(sessions.id, sessionId));
      const details = { mode: policy.mode, fees: policy.fees };
      return { result: null, activity: { type: "split.policy", details } };
    },
    events: sharesMoved,
  });
  return sessionView(deps, session, userId);
}

/** The session's active cart as cart_view() shows it (none once checked out). */
async function activeCart(tx: Tx, sessionId: string): Promise<CartView | undefined> {
  const [row] = await executeRows<{ view: CartView }>(
    tx,
    sql`select cart_view(id) as view from ${carts}
        where session_id = ${sessionId} and status = 'active'`,
  );
  return row?.view;
}

/** The lines a member carries alone in the session's active cart (none once checked out). */
async function linesCarriedBy(tx: Tx, sessionId: string, userId: string): Promise<number> {
  const view = await activeCart(tx, sessionId);
  if (!view) return 0;
  const lines = view.lines.map((l) => ({
    addedBy: l.userId,
    sharedWith: l.sharedWith.map((u) => u._id),
  }));
  return linesCarriedAlone(lines, view.members, userId);
}

/**
 * A member's role, budget, budget mode or child mark. Anyone may set their own budget; the
 * creator anyone's, and roles (participant or viewer; the creator's own role changes only by
 * handing the session over), budget modes and child marks (never on the creator).
 */
export async function updateMember(
  deps: SessionDeps,
  sessionId: string,
  actorId: string,
  targetId: string,
  change: {
    role?: "participant" | "viewer" | undefined;
    budget?: number | null | undefined;
    budgetMode?: BudgetMode | undefined;
    child?: boolean | undefined;
  },
) {
  const set: Partial<typeof sessionMembers.$inferInsert> = {};
  if (change.role !== undefined) set.role = change.role;
  if (change.budget !== undefined) {
    set.budgetCents = change.budget === null ? null : toCents(change.budget);
  }
  if (change.budgetMode !== undefined) set.budgetMode = change.budgetMode;
  if (change.child !== undefined) set.child = change.child;
  if (Object.keys(set).length === 0)
    throw badRequest("Send a role, a budget, a budgetMode or child");
  // Only the budget is a member's own to set; the rest is the creator's, even on themselves.
  const creatorsOnly =
    targetId !== actorId ||
    change.role !== undefined ||
    change.budgetMode !== undefined ||
    change.child !== undefined;
  const { session } = await writeSession(deps.db, deps, {
    sessionId,
    userId: actorId,
    action: "member.ownBudget",
    change: async ({ tx, role: actorRole }) => {
      if (creatorsOnly) requireAllowed(actorRole, "session.manageMembers", "Session not found");
      const target = (await members(tx, sessionId)).find((m) => m.userId === targetId);
      if (!target) throw notFound("Member not found");
      if (change.role !== undefined && target.role === "creator") {
        throw conflict("The creator stays the creator; hand the session over to change that.");
      }
      if (change.child === true && target.role === "creator") {
        throw new AppError(400, "VALIDATION_ERROR", "The creator cannot be marked as a child.", {
          fields: { child: "The creator cannot be marked as a child" },
        });
      }
      const [who] = await tx.select({ name: users.name }).from(users).where(eq(users.id, targetId));
      const name = who?.name ?? "";
      if (change.role === "viewer" && target.role !== "viewer") {
        const lines = await linesCarriedBy(tx, sessionId, targetId);
        // Viewers never carry a share.
        if (lines > 0) {
          throw new AppError(409, ErrorCode.MEMBER_HAS_LINES, memberHasLinesMessage(name, lines));
        }
      }
      await tx
        .update(sessionMembers)
        .set(set)
        .where(and(eq(sessionMembers.sessionId, sessionId), eq(sessionMembers.userId, targetId)));
      // One entry per change: a role change (with the budget, when both came together), a budget
      // mode or child mark (with the budget), or a budget alone.
      const about = { member: name, memberId: targetId };
      const budget = change.budget !== undefined ? { budget: change.budget } : {};
      const activity: TypedEntry =
        change.role !== undefined
          ? { type: "member.role", details: { ...about, role: change.role, ...budget } }
          : change.budgetMode !== undefined || change.child !== undefined
            ? {
                type: "session.updated",
                details: {
                  ...about,
                  ...budget,
                  ...(change.budgetMode !== undefined ? { budgetMode: change.budgetMode } : {}),
                  ...(change.child !== undefined ? { child: change.child } : {}),
                },
              }
            : // Only the budget came (an empty change was refused above).
              { type: "session.updated", details: { ...about, budget: change.budget ?? null } };
      return { result: null, activity };
    },
    events: sharesMoved,
  });
  return sessionView(deps, session, actorId);
}

/**
 * The creator names who may approve "ask first" lines besides themselves: the whole list, each a
 * member of the session (creator, participant or viewer; a pending requester is not one yet).
 */
export async function setApprovers(
  deps: SessionDeps,
  sessionId: string,
  userId: string,
  userIds: string[],
) {
  const { session } = await writeSession(deps.db, deps, {
    sessionId,
    userId,
    action: "session.approvers",
    change: async ({ tx }) => {
      const memberIds = new Set((await members(tx, sessionId)).map((m) => m.userId));
      const strangers = userIds.filter((id) => !memberIds.has(id));
      if (strangers.length > 0) {
        throw new AppError(400, "VALIDATION_ERROR", "Approvers are members of the session.", {
          fields: { userIds: `Not a member: ${strangers.slice(0, 3).join(", ")}` },
        });
      }
      await tx.update(sessions).set({ approvers: userIds }).where(eq(sessions.id, sessionId));
      return {
        result: null,
        activity: { type: "session.updated", details: { changed: ["approvers"] } },
      };
    },
    events: (_, row) => [toMembers("session.updated", row)],
  });
  return sessionView(deps, session, userId);
}

/** A member marks themselves done ("I'm done") at their share as it is now, or unmarks. */
export async function setReady(
  deps: SessionDeps,
  sessionId: string,
  userId: string,
  ready: boolean,
) {
  const { session } = await writeSession(deps.db, deps, {
    sessionId,
    userId,
    action: "member.ready",
    change: async ({ tx }) => {
      // The mark holds at the share total it is given at (lib/ready-mark.ts). The cart's row is
      // locked, so no cart write lands between reading the total and storing it.
      let readyTotalCents: number | null = null;
      if (ready) {
        const view = await activeCart(tx, sessionId);
        const shares = view ? splitOf(view).shares : [];
        readyTotalCents = shares.find((s) => s.userId === userId)?.total ?? 0;
      }
      await tx
        .update(sessionMembers)
        .set({ ready, readyTotalCents })
        .where(and(eq(sessionMembers.sessionId, sessionId), eq(sessionMembers.userId, userId)));
      return { result: null, activity: { type: "session.updated", details: { ready } } };
    },
    events: sharesMoved,
  });
  return sessionView(deps, session, userId);
}
