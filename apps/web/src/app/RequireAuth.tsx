import type { ReactNode } from "react";
import { useAuth } from "../lib/auth-store.ts";
import { Navigate } from "../lib/router.tsx";

/** A visitor with no token in local storage is redirected to /. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { isSignedIn } = useAuth();
  if (!isSignedIn) return <Navigate to="/" replace />;
  return children;
}
