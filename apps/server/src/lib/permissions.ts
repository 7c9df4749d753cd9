import {
  can,
  ErrorCode,
  MEMBER_ROLES,
  refusal,
  type Action,
  type Caller,
  type Role,
} from "@cartner/contract";
import { inArray, type Column, type SQL, type SQLWrapper } from "drizzle-orm";
import { AppError } from "./errors.ts";

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
