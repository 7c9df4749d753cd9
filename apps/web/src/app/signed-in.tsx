import { LiveSync } from "../features/live/LiveSync.tsx";
import { SessionSelector } from "../features/sessions/SessionSelector.tsx";
import { QueryProvider, getQueryClient } from "./query-client.tsx";
import { useOfflineCache } from "./use-offline-cache.ts";

/*
 * The parts of the layout only a signed-in user has, in their own chunk (the visitor's first load
 * of / and /login does without them and without the query client they use).
 */

/** The live connection (DESIGN section 6) and the offline copy of the user's data. */
export function SignedInServices() {
  useOfflineCache(getQueryClient());
  return (
    <QueryProvider>
      <LiveSync />
    </QueryProvider>
  );
}

/** "You're currently shopping on:" under the navigation bar. */
export function SessionBar({ hidden }: { hidden: boolean }) {
  return (
    <QueryProvider>
      <SessionSelector hidden={hidden} />
    </QueryProvider>
  );
}
