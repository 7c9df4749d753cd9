import { useQuery } from "@tanstack/react-query";
import type { Invite } from "@cartner/contract";
import { useInvalidatingMutation, type Answer, type Reactions } from "../lib/mutation-reactions.ts";
import { useSyncInterval } from "./session-sync.ts";
import {
  acceptInvite,
  fetchMyInvites,
  inviteMember,
  rejectInvite,
  sessionKeys,
} from "./sessions-calls.ts";

// Invites by email or name: the creator sends them, the invitee accepts or rejects.

/** The invites waiting for me (polled while the live socket is down). */
export function useMyInvites() {
  const refetchInterval = useSyncInterval(true);
  return useQuery({
    queryKey: sessionKeys.invites(),
    queryFn: ({ signal }) => fetchMyInvites(signal).then((body) => body.invites),
    staleTime: 0,
    refetchInterval,
  });
}

export function useAcceptInvite(reactions: Reactions<Answer<typeof acceptInvite>, Invite>) {
  return useInvalidatingMutation(
    (invite: Invite) => acceptInvite(invite.sessionCode),
    [sessionKeys.all],
    reactions,
  );
}

export function useRejectInvite(reactions: Reactions<Answer<typeof rejectInvite>, Invite>) {
  return useInvalidatingMutation(
    (invite: Invite) => rejectInvite(invite.sessionCode),
    [sessionKeys.invites()],
    reactions,
  );
}

type InviteBody = Parameters<typeof inviteMember>[0];

export function useInviteMember(reactions: Reactions<Answer<typeof inviteMember>, InviteBody>) {
  return useInvalidatingMutation(inviteMember, [sessionKeys.all], reactions);
}
