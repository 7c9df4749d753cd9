import { useEffect } from "react";
// The react-router/dom provider supports `flushSync` navigations (used when signing out).
import { RouterProvider } from "react-router/dom";
import { logConnectionHealth } from "../lib/api.ts";
import { AppProviders } from "./providers.tsx";
import { router } from "./router.tsx";

let healthLogged = false;

export function App() {
  // SPEC section 7: GET /api/conhealth is called when the app loads and its answer is logged. It
  // goes out once the first screen is drawn (an animation frame runs just before the next paint,
  // a timeout queued from it just after): nothing on that screen depends on the answer, and until
  // then the requests that do (the page's code, fonts and data) have the connection to themselves.
  useEffect(() => {
    if (healthLogged) return;
    healthLogged = true;
    requestAnimationFrame(() => setTimeout(() => void logConnectionHealth(), 0));
  }, []);

  return (
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
