import { useId } from "react";
import { ShoppingBag } from "lucide-react";
import { Container, NativeSelect } from "../../components/ui/index.ts";
import { useAuth } from "../../lib/auth-store.ts";
import { Link, useLocation } from "../../lib/router.tsx";
import { useActiveSession } from "../../shared/active-session.ts";

export const SELECTOR_TITLE = "You're currently shopping on:";

/** No selector on /cart, /cart/*, /profile, /editme (and the 404 page). */
export function selectorHiddenOn(pathname: string): boolean {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  return path === "/cart" || path.startsWith("/cart/") || path === "/profile" || path === "/editme";
}

/** 'You're currently shopping on:' a native select of the user's active sessions, newest first. */
/** `hidden`: the layout hides it on pages that are not the app's (the 404 page). */
export function SessionSelector({ hidden = false }: { hidden?: boolean }) {
  const { isSignedIn } = useAuth();
  const { pathname } = useLocation();
  const selectId = useId();
  // Mounted on every page, so the 5 s sync keeps running even where the selector is hidden.
  const { session, sessions, setActiveSessionId } = useActiveSession();

  if (!isSignedIn || hidden || selectorHiddenOn(pathname)) return null;
  if (!session || sessions.length === 0) return null;

  return (
    <div
      role="region"
      aria-label="Active session"
      className="border-b border-primary-100 bg-primary-50/70"
    >
      <Container className="flex flex-col gap-1.5 py-2 sm:flex-row sm:items-center sm:gap-3">
        <label
          htmlFor={selectId}
          className="flex shrink-0 items-center gap-2 text-sm font-semibold text-primary-900"
        >
          <ShoppingBag aria-hidden="true" className="size-4 text-accent-600" />
          {SELECTOR_TITLE}
        </label>
        <div className="flex min-w-0 items-center gap-3">
          <div className="min-w-0 flex-1 sm:w-80 sm:flex-none">
            <NativeSelect
              id={selectId}
              value={session._id}
              onChange={(event) => setActiveSessionId(event.target.value)}
              className="h-9 truncate text-sm"
            >
              {sessions.map((option) => (
                <option key={option._id} value={option._id}>
                  {option.sessionName} · {option.sessionType}
                </option>
              ))}
            </NativeSelect>
          </div>
          <Link
            to={`/session/${encodeURIComponent(session._id)}`}
            aria-label={`Open the lobby of ${session.sessionName}`}
            className="shrink-0 rounded-md text-sm font-semibold text-primary-700 hover:underline"
          >
            Open lobby
          </Link>
        </div>
      </Container>
    </div>
  );
}
