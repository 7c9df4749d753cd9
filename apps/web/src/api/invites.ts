import { useQuery } from "@tanstack/react-query";
import type { Invite } from "@cartner/contract";
import { useInvalidatingMutation, type Answer, type Reactions } from "../lib/mutation-reactions.ts";
import { useSyncInterval } from "./session-sync.ts";
import { sessionKeys, sessionsApi } from "./sessions-calls.ts";

// Invites by email or name: the creator sends them, the invitee accepts or rejects.

/** The invites waiting for me (polled while the live socket is down). */
export function useMyInvites() {
  const refetchInterval = useSyncInterval(true);
  return useQuery({
    queryKey: sessionKeys.invites(),
    queryFn: ({ signal }) => sessionsApi.myInvites(signal).then((body) => body.invites),
    staleTime: 0,
    refetchInterval,
  });
}

export function useAcceptInvite(
  reactions: Reactions<Answer<typeof sessionsApi.acceptInvite>, Invite>,
) {
  return useInvalidatingMutation(
    (invite: Invite) => sessionsApi.acceptInvite(invite.sessionCode),
    [sessionKeys.all],
    reactions,
  );
}

export function useRejectInvite(
  reactions: Reactions<Answer<typeof sessionsApi.rejectInvite>, Invite>,
) {
  return useInvalidatingMutation(
    (invite: Invite) => sessionsApi.rejectInvite(invite.sessionCode),
    [sessionKeys.invites()],
    reactions,
  );
}

type InviteBody = Parameters<typeof sessionsApi.invite>[0];

export function useInviteMember(
  reactions: Reactions<Answer<typeof sessionsApi.invite>, InviteBody>,
) {
  return useInvalidatingMutation(sessionsApi.invite, [sessionKeys.all], reactions);
}
