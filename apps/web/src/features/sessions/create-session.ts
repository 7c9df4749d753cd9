/*
 * Creating a session without TanStack Query (the landing page and the code page use these, and
 * load without the query client); useCreateSession in api/sessions.ts is the sessions page's hook over them.
 */
import { toast } from "../../lib/toast.ts";
import type { User } from "@cartner/contract";
import { errorMessage } from "../../lib/api.ts";
import { getPendingSession, clearPendingSession } from "../../lib/storage.ts";
import { writeActiveSessionId } from "../../shared/active-session-store.ts";
import { createSessionOrThrow } from "../../api/sessions-calls.ts";

export const SESSION_CREATED_MESSAGE = "Session created!";

/** 'Session creation failed: {server message or error}'. */
export function creationFailedMessage(error: unknown): string {
  const fallback = error instanceof Error && error.message ? error.message : "Unknown error";
  return `Session creation failed: ${errorMessage(error, fallback)}`;
}

/** A fresh session becomes the one being shopped on. */
export function announceCreated(userId: string | undefined, id: string, message?: string): void {
  if (userId) writeActiveSessionId(userId, id);
  toast.success(message || SESSION_CREATED_MESSAGE, { autoClose: 6000 });
}

/**
 * After sign-in: the session a signed-out visitor filled in on the landing page is created now
 * and removed from storage whatever the outcome. Returns true when there was one.
 */
export async function createPendingSession(user: User): Promise<boolean> {
  const pending = getPendingSession();
  if (!pending) {
    clearPendingSession();
    return false;
  }
  clearPendingSession();
  try {
    const { id, response } = await createSessionOrThrow(pending);
    announceCreated(user._id, id, response.message);
  } catch (error) {
    toast.error(creationFailedMessage(error), { autoClose: 8000 });
  }
  return true;
}
