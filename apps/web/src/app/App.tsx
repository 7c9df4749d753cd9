import { useEffect } from "react";
import { logConnectionHealth } from "../lib/api.ts";
import { Router } from "../lib/router.tsx";
import { ErrorBoundary } from "./ErrorBoundary.tsx";
import { RootLayout } from "./layout/RootLayout.tsx";
import { AppProviders } from "./providers.tsx";

let healthLogged = false;

interface AppProps {
  /** The path to draw when prerendering at build time (scripts/prerender.tsx); the browser's otherwise. */
  ssrPath?: string;
}

export function App({ ssrPath }: AppProps) {
  // GET /api/conhealth is called when the app loads and its answer is logged. It
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
      <Router ssrPath={ssrPath}>
        {/* The last line of defence: the layout itself failed. */}
        <ErrorBoundary standalone>
          <RootLayout />
        </ErrorBoundary>
      </Router>
    </AppProviders>
  );
}
