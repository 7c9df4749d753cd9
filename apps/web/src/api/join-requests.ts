import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { JoinRequest, MyJoinRequest } from "@cartner/contract";
import { useInvalidatingMutation, type Answer, type Reactions } from "../lib/mutation-reactions.ts";
import { useSyncInterval } from "./session-sync.ts";
import {
  approveJoinRequest,
  fetchJoinRequests,
  fetchMyJoinRequests,
  joinByCode,
  leaveSession,
  rejectJoinRequest,
  sessionKeys,
} from "./sessions-calls.ts";

// Join requests: asking to join by code, the creator's answer, and withdrawing one's own.

/** Where the sessions page lists my waiting requests: My Cart links to /sessions#waiting-requests. */
export const WAITING_ANCHOR = "waiting-requests";

/**
 * My own join requests still waiting (polled while the live socket is down). Kept for the tab's
 * life once read: when one ends, the live toast names its session and creator from this list.
 */
export function useMyJoinRequests() {
  const refetchInterval = useSyncInterval(true);
  return useQuery({
    queryKey: sessionKeys.myJoinRequests(),
    queryFn: ({ signal }) => fetchMyJoinRequests(signal).then((body) => body.requests),
    staleTime: 0,
    gcTime: Infinity,
    refetchInterval,
  });
}

/** The creator's pending join requests, polled while the panel is open. */
export function useJoinRequests(sessionCode: string, enabled: boolean) {
  const refetchInterval = useSyncInterval(enabled);
  return useQuery({
    queryKey: sessionKeys.joinRequests(sessionCode),
    queryFn: ({ signal }) => fetchJoinRequests(sessionCode, signal).then((body) => body.requests),
    enabled,
    staleTime: 0,
    refetchInterval,
  });
}

type JoinByCodeBody = Parameters<typeof joinByCode>[0];

/** Asks to join with a session code (and passcode); every session list is read again. */
export function useJoinByCode(reactions: Reactions<Answer<typeof joinByCode>, JoinByCodeBody>) {
  return useInvalidatingMutation(joinByCode, [sessionKeys.all], reactions);
}

export type JoinDecision = { request: JoinRequest; how: "accept" | "reject" };

/** The creator answers a join request; requests, the lobby and my list are read again. */
export function useDecideJoinRequest(
  sessionId: string,
  sessionCode: string,
  reactions: Reactions<Answer<typeof approveJoinRequest>, JoinDecision>,
) {
  const client = useQueryClient();
  return useMutation({
    ...reactions,
    mutationFn: ({ request, how }: JoinDecision) =>
      how === "accept"
        ? approveJoinRequest(sessionCode, { userId: request.userId })
        : rejectJoinRequest(sessionCode, { userId: request.userId }),
    onSettled: async (...args) => {
      await Promise.all([
        client.invalidateQueries({ queryKey: sessionKeys.joinRequests(sessionCode) }),
        client.invalidateQueries({ queryKey: sessionKeys.detail(sessionId) }),
        client.invalidateQueries({ queryKey: sessionKeys.mine() }),
      ]);
      return reactions.onSettled?.(...args);
    },
  });
}

/** Withdraws my waiting join request (leaving the session it is for). */
export function useWithdrawJoinRequest(
  reactions: Reactions<Answer<typeof leaveSession>, MyJoinRequest>,
) {
  const client = useQueryClient();
  return useMutation({
    ...reactions,
    mutationFn: (request: MyJoinRequest) => leaveSession(request.sessionId),
    onSuccess: (...args) => {
      client.setQueryData<MyJoinRequest[]>(sessionKeys.myJoinRequests(), (list) =>
        list?.filter((r) => r.sessionId !== args[1].sessionId),
      );
      void client.invalidateQueries({ queryKey: sessionKeys.myJoinRequests() });
      return reactions.onSuccess?.(...args);
    },
  });
}
