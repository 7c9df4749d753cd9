import {
  PRESETS,
  toCents,
  type CheckoutBy,
  type FeeMode,
  type Session,
  type SplitMode,
  type SplitPolicy,
  type SessionStatus,
  type MemberLinesQuery,
  type PageQuery,
  type Role,
  type UpdateSessionBody,
  type User,
} from "@cartner/contract";
import { and, desc, eq, sql } from "drizzle-orm";
import type { Tx } from "../../../db/client.ts";
import { cartLines, carts, products, sessionMembers, sessions, users } from "../../../db/schema.ts";
import { conflict, isUniqueViolation } from "../../../lib/errors.ts";
import { isMemberRole } from "../../../lib/permissions.ts";
import { activityAnswer } from "./activity.ts";
import { linesTakenEvents, takeLinesOf } from "../membership/leaving-lines.ts";
import { newSessionCode } from "../codes.ts";
import type { SessionDeps } from "../deps.ts";
import { accessSession } from "./access.ts";
import { sessionView, sessionViews, type ViewDeps } from "./view.ts";
import { toMembers, writeSession, type SessionRow } from "./write.ts";

export type { SessionRow };

export interface CreateSessionInput {
  sessionName: string;
  sessionType: SessionRow["type"];
  participants?: SessionRow["participants"] | undefined;
  passcode?: string | undefined;
  budget?: number | null | undefined;
  splitMode?: SplitMode | undefined;
  fees?: FeeMode | undefined;
  checkoutBy?: CheckoutBy | undefined;
}

/** The choices a preset fills in, as a request may give them (each given one wins). */
interface PresetChoices {
  participants?: SessionRow["participants"] | undefined;
  splitMode?: SplitMode | undefined;
  fees?: FeeMode | undefined;
  checkoutBy?: CheckoutBy | undefined;
}

/**
 * The type's preset (contract's PRESETS) under the request's own choices: what the session row
 * gets for participants, split policy (its weights kept) and checkout.
 */
export function withPreset(
  type: SessionRow["type"],
  given: PresetChoices,
  weights: SplitPolicy["weights"] = {},
): Pick<SessionRow, "participants" | "splitPolicy" | "checkoutBy"> {
  const preset = PRESETS[type];
  return {
    participants: given.participants ?? preset.participants,
    splitPolicy: {
      mode: given.splitMode ?? preset.split.mode,
      weights,
      fees: given.fees ?? preset.split.fees,
    },
    checkoutBy: given.checkoutBy ?? preset.checkoutBy,
  };
}

/**
 * Ends a session inside a session write (ending, and checking out; the write moves the version):
 * the cart becomes history with its prices frozen and the session is ended. A session ended (or
 * checked out) while the write waited for the cart's lock is not ended twice.
 */
export async function endInTransaction(tx: Tx, sessionId: string, now: Date): Promise<void> {
  // The cart stays, as history; nothing is deleted by ending.
  const [cart] = await tx
    .update(carts)
    .set({ status: "completed", updatedAt: now })
    .where(and(eq(carts.sessionId, sessionId), eq(carts.status, "active")))
    .returning({ id: carts.id });
  if (!cart) throw conflict("This session has ended.");
  await tx
    .update(sessions)
    .set({ status: "ended", endedAt: now })
    .where(eq(sessions.id, sessionId));
  await tx.execute(
    sql`update ${cartLines} set unit_price_cents = ${products.priceCents} from ${products}
        where ${cartLines.productId} = ${products.id} and ${cartLines.cartId} = ${cart.id}`,
  );
}

/** A new session: its creator is its first member, and its cart is made with it. */
export async function createSession(
  deps: SessionDeps,
  user: User,
  input: CreateSessionInput,
): Promise<Session> {
  const { db, clock, events } = deps;
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
            ...withPreset(input.sessionType, input),
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
      events.publish(toMembers("session.updated", row)); // the creator's other tabs
      return sessionView(deps, row, user._id);
    } catch (error) {
      // A code collision (1 in 31^8 per pair) is retried with a new code.
      if (attempt < 3 && isUniqueViolation(error, "sessions_code_unique")) continue;
      throw error;
    }
  }
}

/** The user's sessions (of one status, when given), the latest changed first. */
export async function listSessions(
  deps: ViewDeps,
  userId: string,
  status?: SessionStatus,
): Promise<Session[]> {
  const rows = await sessionsOf(deps, userId, status);
  return sessionViews(deps, rows, userId);
}

/** A page of the user's sessions, active and ended, the latest changed first. */
export async function mySessions(
  deps: ViewDeps,
  userId: string,
  page: PageQuery,
): Promise<{ sessions: Session[]; nextCursor: string | null }> {
  const rows = await sessionsOf(deps, userId, undefined, page);
  const shown = rows.slice(0, page.limit);
  return {
    sessions: await sessionViews(deps, shown, userId),
    nextCursor: rows.length > page.limit ? shown.at(-1)!.id : null,
  };
}

/** The user's session rows, the latest changed first; with a page, one more than it holds. */
async function sessionsOf(
  deps: ViewDeps,
  userId: string,
  status?: SessionStatus,
  page?: PageQuery,
) {
  const query = deps.db
    .select({ session: sessions })
    .from(sessionMembers)
    .innerJoin(sessions, eq(sessions.id, sessionMembers.sessionId))
    .where(
      and(
        eq(sessionMembers.userId, userId),
        isMemberRole(sessionMembers.role),
        status ? eq(sessions.status, status) : undefined,
        page?.cursor
          ? sql`(${sessions.updatedAt}, ${sessions.createdAt}, ${sessions.id}) <
              (select s.updated_at, s.created_at, s.id from ${sessions} s where s.id = ${page.cursor})`
          : undefined,
      ),
    )
    .orderBy(desc(sessions.updatedAt), desc(sessions.createdAt), desc(sessions.id));
  const rows = page ? await query.limit(page.limit + 1) : await query;
  return rows.map((r) => r.session);
}

/** One session, to its members. */
export async function getSession(
  deps: ViewDeps,
  sessionId: string,
  userId: string,
): Promise<Session> {
  const { session } = await accessSession(deps, sessionId, userId, "session.read");
  return sessionView(deps, session, userId);
}

/**
 * The creator edits the session's name, type, participants, passcode, budget, split mode, fees
 * or who checks out. A new type applies its preset to the choices the same request does not give.
 */
export async function updateSession(
  deps: SessionDeps,
  sessionId: string,
  userId: string,
  body: UpdateSessionBody,
): Promise<Session> {
  const { db } = deps;
  const changes: Partial<typeof sessions.$inferInsert> = {};
  if (body.sessionName !== undefined) changes.name = body.sessionName;
  if (body.sessionType !== undefined) changes.type = body.sessionType;
  if (body.participants !== undefined) changes.participants = body.participants;
  if (body.passcode !== undefined) changes.passcode = body.passcode?.trim() || null;
  if (body.budget !== undefined)
    changes.budgetCents = body.budget === null ? null : toCents(body.budget);
  if (body.checkoutBy !== undefined) changes.checkoutBy = body.checkoutBy;
  const { session } = await writeSession(db, deps, {
    sessionId,
    userId,
    action: "session.edit",
    change: async ({ tx, session: before }) => {
      const typeChanged = body.sessionType !== undefined && body.sessionType !== before.type;
      if (typeChanged) {
        Object.assign(changes, withPreset(body.sessionType!, body, before.splitPolicy.weights));
      } else if (body.splitMode !== undefined || body.fees !== undefined) {
        changes.splitPolicy = {
          ...before.splitPolicy,
          ...(body.splitMode !== undefined ? { mode: body.splitMode } : {}),
          ...(body.fees !== undefined ? { fees: body.fees } : {}),
        };
      }
      if (Object.keys(changes).length > 0) {
        await tx.update(sessions).set(changes).where(eq(sessions.id, sessionId));
      }
      // What changed (a new type's preset included), never the passcode itself.
      const changed = (Object.keys(body) as (keyof UpdateSessionBody)[]).filter(
        (k) => body[k] !== undefined,
      );
      if (typeChanged) {
        for (const field of ["participants", "splitMode", "fees", "checkoutBy"] as const) {
          if (!changed.includes(field)) changed.push(field);
        }
      }
      const details = {
        changed,
        ...(body.sessionName !== undefined ? { sessionName: body.sessionName } : {}),
        ...(body.budget !== undefined ? { budget: body.budget } : {}),
      };
      return {
        result: { splitChanged: changes.splitPolicy !== undefined },
        activity: { type: "session.updated", details },
      };
    },
    // A new split moves the cart's shares too.
    events: ({ splitChanged }, row, cartId) => [
      toMembers("session.updated", row),
      ...(splitChanged ? [toMembers("cart.updated", row, { cartId })] : []),
    ],
  });
  return sessionView(deps, session, userId);
}

/**
 * Leaves a session, or withdraws a join request. Lines the member added go as `choice` says
 * (409 MEMBER_HAS_LINES without one), and they leave every line's sharers.
 */
export async function leaveSession(
  deps: Pick<SessionDeps, "db" | "clock" | "events">,
  sessionId: string,
  userId: string,
  choice: MemberLinesQuery = {},
) {
  const { db } = deps;
  // Only while the session is still active: an ended session's members are its history.
  const { result } = await writeSession<{ role: Role | null; cartChanged: boolean }>(db, deps, {
    sessionId,
    userId,
    action: "session.leave",
    change: async ({ tx, role, cartId, now }) => {
      await tx
        .delete(sessionMembers)
        .where(and(eq(sessionMembers.sessionId, sessionId), eq(sessionMembers.userId, userId)));
      // A join request withdrawn never made them a member: no lines, no entry.
      if (role === "pending") return { result: { role, cartChanged: false } };
      const [me] = await tx.select({ name: users.name }).from(users).where(eq(users.id, userId));
      const lines = await takeLinesOf(tx, {
        cartId,
        leaver: { id: userId, name: me?.name ?? "" },
        choice,
        reason: "member_left",
        self: true,
        now,
      });
      return {
        result: { role, cartChanged: lines.cartChanged },
        activity: [...lines.activity, { type: "member.left" }],
      };
    },
    events: ({ role, cartChanged }, row, cartId) => [
      toMembers("member.left", row, {
        users: [userId],
        ...(role === "pending" ? { userId, joinRequest: "withdrawn" as const } : {}),
      }),
      ...linesTakenEvents(cartChanged, row, cartId),
    ],
  });
  const role = result.role;
  return { message: role === "pending" ? "Join request withdrawn" : "You left the session" };
}

/** The creator ends the session: its cart becomes history (endInTransaction()). */
export async function endSession(
  deps: Pick<SessionDeps, "db" | "clock" | "events">,
  sessionId: string,
  userId: string,
) {
  await writeSession(deps.db, deps, {
    sessionId,
    userId,
    action: "session.end",
    change: async ({ tx, now }) => {
      await endInTransaction(tx, sessionId, now);
      return {
        result: null,
        activity: { type: "session.updated", details: { status: "ended" } },
      };
    },
    events: (_, row) => [toMembers("session.ended", row)],
  });
  return { message: "Session ended", sessionId };
}

/** The activity log, to members (pending requesters and strangers get 404), as its JSON answer. */
export function activityOf(
  deps: Pick<SessionDeps, "db">,
  sessionId: string,
  userId: string,
  after: number,
  limit: number,
) {
  return activityAnswer(deps, sessionId, userId, after, limit);
}
