/**
 * What other features use of sessions: the session write path, ending a session (inside a
 * transaction, or as the creator's call), the Session answer, who hears a session's events, the
 * activity log's announcement and the feature's deps type (a ready mark is read by
 * lib/ready-mark.ts, which carts and deadlines share with sessions).
 */
export { announceActivity } from "./lifecycle/activity.ts";
export { newSessionCode } from "./codes.ts";
export type { SessionDeps } from "./deps.ts";
export { memberIds } from "./lifecycle/access.ts";
export { lookViewById, openLook } from "./invites/look.ts";
export { linesTakenEvents, takeLinesOf } from "./membership/leaving-lines.ts";
export { endInTransaction, endSession } from "./lifecycle/sessions.ts";
export { sessionView, type ViewDeps } from "./lifecycle/view.ts";
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
