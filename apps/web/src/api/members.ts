import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { BudgetMode, Member, Session } from "@cartner/contract";
import type { Answer, Reactions } from "../lib/mutation-reactions.ts";
import {
  removeMember,
  rotateSessionCode,
  sessionKeys,
  setReady,
  setSplitPolicy,
  transferSession,
  updateMember,
  type MemberLinesChoice,
} from "./sessions-calls.ts";

// A session's members: the creator's changes to them; each member's ready mark and budget.

export type MemberChange =
  | { kind: "role"; member: Member; role: "participant" | "viewer" }
  | { kind: "remove"; member: Member; lines?: MemberLinesChoice }
  | { kind: "transfer"; member: Member }
  | { kind: "rotate" }
  /**
   * The child mark, with what was taken of the offer that comes with it: a budget mode, and a
   * weight (set in the split policy, whose mode stays as it is).
   */
  | {
      kind: "child";
      member: Member;
      child: boolean;
      budgetMode?: BudgetMode | undefined;
      weight?: number | undefined;
    }
  | { kind: "budgetMode"; member: Member; budgetMode: BudgetMode };

/** The creator's member changes; each answer is the new session, shown at once. */
export function useMemberChange(
  session: Session,
  reactions: Reactions<Answer<typeof rotateSessionCode>, MemberChange>,
) {
  const client = useQueryClient();
  return useMutation({
    ...reactions,
    mutationFn: async (change: MemberChange) => {
      switch (change.kind) {
        case "child": {
          const marked = await updateMember(session._id, change.member.userId, {
            child: change.child,
            ...(change.budgetMode ? { budgetMode: change.budgetMode } : {}),
          });
          if (change.weight === undefined) return marked;
          const policy = marked.session.splitPolicy;
          return setSplitPolicy(session._id, {
            ...policy,
            weights: { ...policy.weights, [change.member.userId]: change.weight },
          });
        }
        case "budgetMode":
          return updateMember(session._id, change.member.userId, {
            budgetMode: change.budgetMode,
          });
        case "role":
          return updateMember(session._id, change.member.userId, { role: change.role });
        case "remove":
          return removeMember(session._id, change.member.userId, change.lines);
        case "transfer":
          return transferSession(session._id, change.member.userId);
        case "rotate":
          return rotateSessionCode(session._id);
      }
    },
    onSuccess: (...args) => {
      const [body, change] = args;
      client.setQueryData(sessionKeys.detail(session._id), body.session);
      // After a hand-over the caller is no longer the creator: what only the creator may read
      // (invite links, join requests) is not asked for again while the lobby still shows it.
      const stale =
        change.kind === "transfer"
          ? [sessionKeys.sync(), sessionKeys.mine(), sessionKeys.activity(session._id)]
          : [sessionKeys.all];
      for (const queryKey of stale) void client.invalidateQueries({ queryKey });
      return reactions.onSuccess?.(...args);
    },
  });
}

/** My "done shopping" mark. */
export function useSetReady(
  sessionId: string,
  reactions: Reactions<Answer<typeof setReady>, boolean>,
) {
  return useMutation({
    ...reactions,
    mutationFn: (value: boolean) => setReady(sessionId, value),
  });
}

/** My budget in a session (null: none). */
export function useSaveBudget(
  sessionId: string,
  userId: string,
  reactions: Reactions<Answer<typeof updateMember>, number | null>,
) {
  return useMutation({
    ...reactions,
    mutationFn: (value: number | null) => updateMember(sessionId, userId, { budget: value }),
  });
}
