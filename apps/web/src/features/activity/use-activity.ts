import { useQuery } from "@tanstack/react-query";
import type { Activity } from "@cartner/contract";
import { sessionKeys, sessionsApi } from "../../api/sessions-api.ts";
import { useLiveUp } from "../../lib/live-status.ts";
import { appendActivity } from "./activity-model.ts";

/** The API's largest page (API.md: limit 1..200). */
const PAGE = 200;

/**
 * The session's activity log. Entries are append-only, so a refetch (an `activity.created` event,
 * a reconnect) asks only for what came after the newest entry the client has.
 */
export function useActivity(sessionId: string | undefined) {
  // Events say when to look again; without the socket, look every 10 s.
  const liveUp = useLiveUp();
  return useQuery({
    queryKey: sessionKeys.activity(sessionId ?? ""),
    enabled: Boolean(sessionId),
    staleTime: Infinity,
    refetchInterval: liveUp ? false : 10_000,
    queryFn: async ({ signal, client, queryKey }) => {
      let known = client.getQueryData<Activity[]>(queryKey) ?? [];
      for (;;) {
        const after = known.at(-1)?.seq ?? 0;
        const page = await sessionsApi.activity(sessionId!, after, PAGE, signal);
        known = appendActivity(known, page.events);
        if (page.events.length < PAGE) return known;
      }
    },
  });
}
