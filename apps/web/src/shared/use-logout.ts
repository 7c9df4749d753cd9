import { useCallback } from "react";
import { useNavigate } from "../lib/router.tsx";
import { toast } from "../lib/toast.ts";
import { signOutLocally } from "../lib/auth-store.ts";
import { getUser } from "../lib/storage.ts";
import { logout } from "../api/auth-calls.ts";

export function logoutMessage(name: string | undefined): string {
  return `You've logged out successfully. See you soon, ${name?.trim() || "friend"}!`;
}

/** Logout clears token and user, shows a toast and goes to /login. */
export function useLogout(): () => void {
  const navigate = useNavigate();
  return useCallback(() => {
    const name = getUser()?.name;
    // Revoke the server-side session; sign out locally whatever the answer.
    logout().catch(() => undefined);
    // Leave protected pages first (committed at once) so their guard does not send the user to /.
    navigate("/login");
    signOutLocally();
    toast.success(logoutMessage(name), { autoClose: 6000 });
  }, [navigate]);
}
