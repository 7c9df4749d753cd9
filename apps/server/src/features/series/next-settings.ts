/**
 * The settings a series' next session takes from the one before (the session row's columns).
 */
import type { sessions } from "../../db/schema.ts";
import type { SessionRow } from "../sessions/index.ts";

type SessionInsert = typeof sessions.$inferInsert;

/**
 * What the next session of a series takes from the one before: its name and kind, budget,
 * passcode, creator, split policy and the series itself (moved to `nextAt`). Every setting of
 * the session row a new occurrence carries over is added here; members, staples and the deadline
 * are carried by fillNewSession().
 */
export function nextSessionSettings(
  old: SessionRow,
  next: { code: string; now: Date; nextAt: Date | null },
): SessionInsert {
  const { code, now, nextAt } = next;
  return {
    name: old.name,
    type: old.type,
    participants: old.participants,
    budgetCents: old.budgetCents,
    code,
    passcode: old.passcode,
    creatorId: old.creatorId,
    splitPolicy: old.splitPolicy,
    checkoutBy: old.checkoutBy,
    // The members carry over (pending requests do not; approvers are read among the members).
    approvers: old.approvers,
    // A rule with COUNT ends when it has no more occurrences.
    ...(nextAt
      ? {
          seriesRule: old.seriesRule,
          seriesTimeZone: old.seriesTimeZone,
          seriesAnchor: old.seriesAnchor,
          seriesNextAt: nextAt,
        }
      : {}),
    previousSessionId: old.id,
    createdAt: now,
    updatedAt: now,
  };
}
