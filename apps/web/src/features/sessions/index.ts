/** What other features may use of sessions: the create form and its follow-up. */
export { CreateSessionForm } from "./CreateSessionForm.tsx";
export { announceCreated, createPendingSession, creationFailedMessage } from "./create-session.ts";
