import {
  BUDGET_MAX,
  SESSION_CARD_AVATARS,
  type Member,
  type Role,
  type Session,
} from "@cartner/contract";

/** Members who are in the session (everyone but pending join requests), creator first. */
export function membersOf(session: Session): Member[] {
  const members = session.invitedUsers.filter((member) => member.role !== "pending");
  return [
    ...members.filter((member) => member.role === "creator"),
    ...members.filter((member) => member.role !== "creator"),
  ];
}

export function pendingOf(session: Session): Member[] {
  return session.invitedUsers.filter((member) => member.role === "pending");
}

/** At most 3 avatars on a card, then '+N' for the rest. */
export function avatarStack(
  members: Member[],
  max: number = SESSION_CARD_AVATARS,
): { shown: Member[]; more: number } {
  return { shown: members.slice(0, max), more: Math.max(0, members.length - max) };
}

/** Savings = budget - cart total, to the cent; null when no budget is set. */
export function savingsOf(session: Pick<Session, "budget" | "cart">): number | null {
  if (session.budget === null || session.budget === undefined) return null;
  const cents =
    Math.round(session.budget * 100) - Math.round((session.cart?.totalPrice ?? 0) * 100);
  return cents / 100;
}

export function cartTotalOf(session: Pick<Session, "cart">): number {
  return session.cart?.totalPrice ?? 0;
}

/** Newest updatedAt first (a copy; the input is left alone). */
export function matchesName(session: Pick<Session, "sessionName">, query: string): boolean {
  const q = query.trim().toLocaleLowerCase();
  return q === "" || session.sessionName.toLocaleLowerCase().includes(q);
}

export const roleLabels: Record<Role, string> = {
  creator: "Creator",
  participant: "Participant",
  viewer: "Viewer",
  pending: "Pending",
};

export type BudgetParse = { ok: true; value: number | null } | { ok: false; error: string };

/**
 * The budget field: empty means no budget; otherwise 0..BUDGET_MAX with at most two decimals. A
 * currency sign before or after ("$150", "€150", "150 €") is dropped (the deployment has one
 * currency); commas group thousands.
 */
export function parseBudget(input: string): BudgetParse {
  const text = input
    .trim()
    .replace(/^\p{Sc}\s*|\s*\p{Sc}$/gu, "")
    .replace(/,/g, "");
  if (text === "") return { ok: true, value: null };
  if (!/^\d+(\.\d{0,2})?$|^\.\d{1,2}$/.test(text)) {
    return { ok: false, error: "Enter an amount like 150 or 149.99." };
  }
  const value = Number(text);
  if (!Number.isFinite(value)) return { ok: false, error: "Enter an amount like 150 or 149.99." };
  if (value > BUDGET_MAX) {
    return { ok: false, error: `The budget can be at most ${BUDGET_MAX.toLocaleString()}.` };
  }
  return { ok: true, value: Math.round(value * 100) / 100 };
}
