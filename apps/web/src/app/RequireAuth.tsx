import { Navigate, Outlet } from "react-router";
import { useAuth } from "../lib/auth-store.ts";

/** SPEC section 2: a visitor with no token in local storage is redirected to /. */
export function RequireAuth() {
  const { isSignedIn } = useAuth();
  if (!isSignedIn) return <Navigate to="/" replace />;
  return <Outlet />;
}
