import { Suspense, lazy, useEffect, useState, type ReactNode } from "react";

/*
 * The toast container (with react-toastify, about 5 KB gzip) is not needed to draw the first page:
 * it loads once the page has started (lib/toast.ts). A toast raised before it is there waits in
 * react-toastify's queue and shows as soon as it mounts.
 */
const Toasts = lazy(() => import("./toasts.tsx").then((m) => ({ default: m.Toasts })));

export function AppProviders({ children }: { children: ReactNode }) {
  const [showToasts, setShowToasts] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setShowToasts(true), 0);
    return () => clearTimeout(timer);
  }, []);

  return (
    <>
      {children}
      {showToasts && (
        <Suspense fallback={null}>
          <Toasts />
        </Suspense>
      )}
    </>
  );
}
