/**
 * What other features use of sessions: the session write path, ending a session inside a
 * transaction, the activity log's announcement, ready marks and the service's type.
 */
export { announceActivity } from "./activity.ts";
export { readyMark, type StoredMark } from "./ready.ts";
export { newSessionCode } from "./codes.ts";
export { linesTakenEvents, takeLinesOf } from "./leaving-lines.ts";
export { endInTransaction, type SessionService } from "./service.ts";
export {
  toMembers,
  writeSession,
  writeSessionsTogether,
  type SessionRow,
  type SessionWrite,
  type TypedEntry,
  type WriteContext,
  type Written,
} from "./write.ts";
