import { useEffect } from "react";
import { useLocation, useNavigate } from "../lib/router.tsx";
import { TOKEN_REFRESH_INTERVAL_MS } from "@cartner/contract";
import { ApiError, refreshAccessToken } from "../lib/api.ts";
import { signOutLocally } from "../lib/auth-store.ts";
import { navigateTo, registerNavigator } from "../lib/navigation.ts";
import { getToken, getUser, setUser } from "../lib/storage.ts";
import { validateToken } from "../api/auth-calls.ts";

/**
 * Lets the API client and timers navigate through the router. (Navigations render at once, so a
 * caller that signs out right after has already left the guarded page.)
 */
export function useRouterNavigator(): void {
  const navigate = useNavigate();
  useEffect(() => registerNavigator((to) => navigate(to, { replace: true })), [navigate]);
}

/**
 * While a token exists, it is validated on every route change; a 401 signs the user out. (An
 * expired token is first refreshed by the API client; this logs out only when that fails.)
 */
export function useTokenValidation(): void {
  const { pathname } = useLocation();
  useEffect(() => {
    const token = getToken();
    if (!token) return;
    const controller = new AbortController();
    validateToken(controller.signal)
      .then(({ user }) => {
        const stored = getUser();
        const changed =
          !stored ||
          stored._id !== user._id ||
          stored.name !== user.name ||
          stored.email !== user.email ||
          // A role given or taken since sign-in (the Catalog link follows it).
          stored.roles.join() !== user.roles.join();
        if (changed && getToken() !== null) setUser(user);
      })
      .catch(async (error: unknown) => {
        if (controller.signal.aborted) return;
        // A failed refresh has already signed the user out (no token left): nothing more to do.
        // (Signing in again always changes the route, which aborts this check first.)
        if (error instanceof ApiError && error.status === 401 && getToken() !== null) {
          await navigateTo("/login");
          signOutLocally();
        }
      });
    return () => controller.abort();
  }, [pathname]);
}

const ACTIVITY_EVENTS = ["mousemove", "mousedown", "keydown", "wheel", "touchstart"] as const;

/**
 * Every 14 minutes the token is refreshed, but only if the user moved the mouse or used the
 * keyboard since the last refresh. Idle tabs let their token lapse.
 */
export function useActivityTokenRefresh(intervalMs: number = TOKEN_REFRESH_INTERVAL_MS): void {
  useEffect(() => {
    let active = false;
    const markActive = () => {
      active = true;
    };
    for (const name of ACTIVITY_EVENTS) {
      window.addEventListener(name, markActive, { passive: true, capture: true });
    }
    const timer = window.setInterval(() => {
      if (!active || getToken() === null) return;
      active = false;
      void refreshAccessToken();
    }, intervalMs);
    return () => {
      window.clearInterval(timer);
      for (const name of ACTIVITY_EVENTS) {
        window.removeEventListener(name, markActive, { capture: true });
      }
    };
  }, [intervalMs]);
}
