/**
 * The rules of whom a line may be hidden from (decision 049), for the hidden-from route
 * (line-hiding.ts) and an add private from the start (line-writes.ts: cart_write_core()'s `hide_*`
 * verdicts; free-lines.ts); and a list of members named each once (sharing a line too).
 */
import { can, ErrorCode, MEMBER_ROLES, type Role } from "@cartner/contract";
import { inArray, sql } from "drizzle-orm";
import { executeRows } from "../../db/client.ts";
import { sessionMembers } from "../../db/schema.ts";
import type { Tx } from "../../db/types.ts";
import { AppError } from "../../lib/errors.ts";

/** A 400 naming what is wrong with `field` (the members), in the validation answer's shape. */
export function hidingRefused(message: string, field = "userIds"): AppError {
  return new AppError(400, ErrorCode.VALIDATION, `Invalid ${field}: ${message}`, {
    fields: { [field]: message },
  });
}

/**
 * The hidden-from rules, worded once: this route checks them here (`hidingRefusal()`), an add
 * private from the start in cart_write_core() (its `hide_*` verdicts) or free-lines.ts.
 */
export const HIDING_REFUSALS = {
  self: "You cannot hide an item from yourself.",
  adder: "An item is never hidden from whoever added it.",
  creator: "An item is never hidden from the session's creator.",
  stranger: "An item is hidden only from members of the session.",
} as const;

/**
 * Why these members cannot have the line hidden from them, or null: each must be a member
 * (creator, participant, viewer), and neither the caller, nor the line's adder, nor anyone who
 * sees every private line (the creator, `cart.seePrivate`).
 */
export function hidingRefusal(
  userIds: string[],
  members: { userId: string; role: Role }[],
  callerId: string,
  adderId: string,
): string | null {
  const roleOf = new Map(members.map((m) => [m.userId, m.role]));
  if (userIds.includes(callerId)) return HIDING_REFUSALS.self;
  if (userIds.includes(adderId)) return HIDING_REFUSALS.adder;
  if (userIds.some((id) => can(roleOf.get(id), "cart.seePrivate"))) {
    return HIDING_REFUSALS.creator;
  }
  if (userIds.some((id) => !roleOf.has(id))) return HIDING_REFUSALS.stranger;
  return null;
}

/** The session's members (creator, participants, viewers) with their roles, for hidingRefusal(). */
export function membersOf(tx: Tx, sessionId: string) {
  return executeRows<{ userId: string; role: Role }>(
    tx,
    sql`select user_id as "userId", role from ${sessionMembers}
      where session_id = ${sessionId} and ${inArray(sessionMembers.role, [...MEMBER_ROLES])}`,
  );
}

/** Each id once; 400 otherwise, in the validation answer's shape, naming `field`. */
export function uniqueIds(userIds: string[], field = "userIds"): string[] {
  const unique = [...new Set(userIds)];
  if (unique.length !== userIds.length) {
    throw new AppError(400, ErrorCode.VALIDATION, `Invalid ${field}: each member once`, {
      fields: { [field]: "Each member once" },
    });
  }
  return unique;
}
