import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Member, Session } from "@cartner/contract";
import type { Answer, Reactions } from "../lib/mutation-reactions.ts";
import {
  removeMember,
  rotateSessionCode,
  sessionKeys,
  setReady,
  transferSession,
  updateMember,
  type MemberLinesChoice,
} from "./sessions-calls.ts";

// A session's members: the creator's changes to them; each member's ready mark and budget.

export type MemberChange =
  | { kind: "role"; member: Member; role: "participant" | "viewer" }
  | { kind: "remove"; member: Member; lines?: MemberLinesChoice }
  | { kind: "transfer"; member: Member }
  | { kind: "rotate" };

/** The creator's member changes; each answer is the new session, shown at once. */
export function useMemberChange(
  session: Session,
  reactions: Reactions<Answer<typeof rotateSessionCode>, MemberChange>,
) {
  const client = useQueryClient();
  return useMutation({
    ...reactions,
    mutationFn: (change: MemberChange) => {
      switch (change.kind) {
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
