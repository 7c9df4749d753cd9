/**
 * What other features use of sessions: the session write path, ending a session inside a
 * transaction, the activity log's announcement and the service's type (a ready mark is read by
 * lib/ready-mark.ts, which carts and deadlines share with sessions).
 */
export { announceActivity } from "./lifecycle/activity.ts";
export { newSessionCode } from "./codes.ts";
export { linesTakenEvents, takeLinesOf } from "./membership/leaving-lines.ts";
export { endInTransaction, type SessionService } from "./lifecycle/sessions.ts";
export {
  toMembers,
  writeSession,
  writeSessionsTogether,
  type SessionRow,
  type SessionWrite,
  type TypedEntry,
  type WriteContext,
  type Written,
} from "./lifecycle/write.ts";
