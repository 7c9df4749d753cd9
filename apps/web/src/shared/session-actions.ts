import { toast } from "../lib/toast.ts";
import { errorMessage } from "../lib/api.ts";
import { useAuth } from "../lib/auth-store.ts";
import { readActiveSessionId, useActiveSession } from "./active-session.ts";
import { useEndSession, useLeaveSession } from "../api/sessions.ts";

export const LEAVE_FAILED_MESSAGE = "Failed to leave session";
export const END_FAILED_MESSAGE = "Failed to end session";

/**
 * Leave and End, shared by the session cards and the lobby: toast the server's message, clear the
 * active session when it was this one, drop the session from the cached lists and refetch them.
 */
export function useSessionActions(
  options: { onDone?: (sessionId: string) => Promise<void> | void } = {},
) {
  const { user } = useAuth();
  const active = useActiveSession();
  const { onDone } = options;

  async function afterExit(sessionId: string) {
    const stored = user ? readActiveSessionId(user._id) : null;
    if (stored === sessionId || active.session?._id === sessionId) active.clear();
    // The lists are read again after this, once the page is left.
    await onDone?.(sessionId);
  }

  const leave = useLeaveSession({
    onSuccess: async (result, { sessionId }) => {
      toast.success(result?.message || "You left the session.", { autoClose: 6000 });
      await afterExit(sessionId);
    },
    onError: (error) => {
      toast.error(errorMessage(error, LEAVE_FAILED_MESSAGE), { autoClose: 8000 });
    },
  });

  const end = useEndSession({
    onSuccess: async (result, sessionId) => {
      toast.success(result?.message || "Session ended.", { autoClose: 6000 });
      await afterExit(sessionId);
    },
    onError: (error) => {
      toast.error(errorMessage(error, END_FAILED_MESSAGE), { autoClose: 8000 });
    },
  });

  return { leave, end };
}
