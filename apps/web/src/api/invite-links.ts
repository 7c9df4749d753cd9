import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useInvalidatingMutation, type Answer, type Reactions } from "../lib/mutation-reactions.ts";
import {
  acceptInviteLink,
  createInviteLink,
  fetchInviteLinks,
  fetchInvitePreview,
  revokeInviteLink,
  sessionKeys,
} from "./sessions-calls.ts";

// Invite links: the creator makes and revokes them; anyone with one sees where it leads and joins.

/** A session's invite links. */
export function useInviteLinks(sessionId: string) {
  return useQuery({
    queryKey: sessionKeys.links(sessionId),
    queryFn: ({ signal }) => fetchInviteLinks(sessionId, signal),
    select: (body) => body.links,
  });
}

type NewLink = Parameters<typeof createInviteLink>[1];

export function useCreateInviteLink(
  sessionId: string,
  body: () => NewLink,
  reactions: Reactions<Answer<typeof createInviteLink>>,
) {
  return useInvalidatingMutation(
    () => createInviteLink(sessionId, body()),
    [sessionKeys.links(sessionId)],
    reactions,
  );
}

export function useRevokeInviteLink(
  sessionId: string,
  linkId: string,
  reactions: Reactions<Answer<typeof revokeInviteLink>>,
) {
  return useInvalidatingMutation(
    () => revokeInviteLink(sessionId, linkId),
    [sessionKeys.links(sessionId)],
    reactions,
  );
}

/** What an invite link leads to (asked without a token; not retried). */
export function useInvitePreview(token: string) {
  return useQuery({
    queryKey: ["invite-link", token],
    queryFn: ({ signal }) => fetchInvitePreview(token, signal),
    retry: false,
  });
}

/** Joins through an invite link; the session lists are read again before the caller goes on. */
export function useAcceptInviteLink(
  token: string,
  reactions: Reactions<Answer<typeof acceptInviteLink>>,
) {
  const client = useQueryClient();
  return useMutation({
    ...reactions,
    mutationFn: () => acceptInviteLink(token),
    onSuccess: async (...args) => {
      await client.invalidateQueries({ queryKey: sessionKeys.all });
      return reactions.onSuccess?.(...args);
    },
  });
}
