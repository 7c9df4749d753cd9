import {
  can,
  ErrorCode,
  MEMBER_ROLES,
  needsOf,
  orderNumber,
  refusal,
  type Action,
  type Caller,
  type GateVerdict,
  type Role,
} from "@cartner/contract";
import { inArray, type Column, type SQL, type SQLWrapper } from "drizzle-orm";
import { AppError, conflict } from "./errors.ts";
import { utcInstant } from "./time.ts";

/**
 * The gate's answer (the database's `session_gate()`, asked by `lock_session()` for a session
 * write and by `cart_write()` for a line write) with what wording a refusal needs.
 */
export interface GateAnswer {
  verdict: GateVerdict;
  /** The caller's role as the gate read it (null: not in the session). */
  role: Role | null;
  /** The order the cart became (with "checked_out"). */
  orderNumber: number | null;
  /** The session's deadline (with "locked"). */
  closesAt: Date | string | null;
}

/**
 * Words every refusal of the gate (null when it allows): 404 with `notFound` for a caller outside
 * the session; the permissions table's 403 or 409 for the role; for an ended session, 409 CART_LOCKED
 * naming the order where an action on the cart meets a checked-out cart, else "ended" (or the
 * write's own `ended()`); for a cart closed by its deadline, 409 CART_LOCKED with when it closed.
 */
export function gateRefusal(
  answer: GateAnswer,
  action: Action | null,
  options: { notFound?: string | undefined; ended?: (() => Error) | undefined } = {},
): Error | null {
  const notFound = options.notFound ?? "Session not found";
  switch (answer.verdict) {
    case "ok":
      return null;
    case "not_member":
      return new AppError(404, ErrorCode.NOT_FOUND, notFound);
    case "role":
      return refusalError(answer.role, action!, notFound);
    case "ended":
    case "checked_out":
      if (action && needsOf(action) === "open cart") {
        return answer.orderNumber == null
          ? conflict("This session has ended; its cart is read-only.")
          : new AppError(
              409,
              ErrorCode.CART_LOCKED,
              `This cart was checked out as order ${orderNumber(answer.orderNumber)}; it changes no more.`,
            );
      }
      return options.ended?.() ?? conflict("This session has ended.");
    case "locked":
      return new AppError(
        409,
        ErrorCode.CART_LOCKED,
        `The cart closed at ${utcInstant(answer.closesAt!)}; the session's creator can reopen it.`,
      );
    default:
      throw new Error(
        `session_gate() answered an unknown verdict: ${answer.verdict satisfies never}`,
      );
  }
}

/**
 * The permissions table's refusal for this role and action as the error to throw (404 with the
 * caller's not-found message for anyone outside the session, else the table's 403 or 409), or
 * null when the role may do it.
 */
export function refusalError(
  role: Caller | null | undefined,
  action: Action,
  notFoundMessage: string,
): AppError | null {
  const denied = refusal(role, action);
  if (!denied) return null;
  if (denied.status === 404) return new AppError(404, ErrorCode.NOT_FOUND, notFoundMessage);
  return new AppError(
    denied.status,
    denied.status === 403 ? ErrorCode.FORBIDDEN : ErrorCode.CONFLICT,
    denied.message ?? "Your role in this session does not allow that.",
  );
}

/** The server's one gate: services call it with the role they read in the same query as the data. */
export function requireAllowed(
  role: Caller | null | undefined,
  action: Action,
  notFoundMessage: string,
): void {
  const error = refusalError(role, action, notFoundMessage);
  if (error) throw error;
}

/**
 * A session's members as one member may see them: pending join requests only for whoever may see
 * them (the creator), and each requester their own entry.
 */
export function visibleMembers<M extends { userId: string; role: Role }>(
  members: M[],
  viewerId: string,
): M[] {
  const myRole = members.find((m) => m.userId === viewerId)?.role;
  if (can(myRole, "session.seeJoinRequests")) return members;
  return members.filter((m) => m.role !== "pending" || m.userId === viewerId);
}

/**
 * The condition "this role sees the session" (creator, participant or viewer: the contract's
 * MEMBER_ROLES), for a query: a pending requester's row is no membership.
 */
export function isMemberRole(role: Column | SQLWrapper): SQL {
  return inArray(role, MEMBER_ROLES);
}
