/** What other features may use of sessions: the create form and its follow-up. */
export { CreateSessionForm } from "./CreateSessionForm.tsx";
export { announceCreated, createPendingSession, creationFailedMessage } from "./create-session.ts";
export { END_SESSION_LABEL, EndSessionDialog, endSessionTitle } from "./EndSessionDialog.tsx";
export { useSessionActions } from "./use-session-actions.ts";
