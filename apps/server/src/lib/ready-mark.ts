/**
 * A member's "I'm done" mark as every answer shows it: a ready mark clears when that member's
 * share total changes. The mark is stored with the share total it was given
 * at (session_members.ready_total_cents) instead of being rewritten on every cart write (those
 * are one SQL call, decision 004): it counts while the member pays and their share's total, by
 * the one split function on the cart as it is now, is still that total. A mark whose total moved
 * is shown as not ready, with `shareChanged` so the member sees why and can mark again.
 * Sessions' answers, the cart's answer and the deadline's reminders all read marks so, and the
 * session and cart features use each other's answers: the rule lives below both of them.
 */
import { can, type Role } from "@cartner/contract";

export interface ReadyMark {
  ready: boolean;
  /** Marked done, but their share's total has changed since: not ready until they mark again. */
  shareChanged: boolean;
}

/** The stored mark: the flag and the share total (cents) it was set at. */
export interface StoredMark {
  userId: string;
  role: Role;
  ready: boolean;
  readyTotalCents: number | null;
}

/**
 * Each member's mark against the current shares (`splitShares(...).shares`: every paying member,
 * at zero when they carry nothing). Members who do not pay are never ready.
 */
export function readyMark(
  member: StoredMark,
  shares: readonly { userId: string; total: number }[],
): ReadyMark {
  if (!member.ready || !can(member.role, "member.ready")) {
    return { ready: false, shareChanged: false };
  }
  const total = shares.find((s) => s.userId === member.userId)?.total ?? 0;
  return member.readyTotalCents === total
    ? { ready: true, shareChanged: false }
    : { ready: false, shareChanged: true };
}
