import { Suspense } from "react";
import { PageSpinner } from "../../components/ui/index.ts";
import { ScrollToTop, useLocation, useMatchesAny } from "../../lib/router.tsx";
import { SessionSelector } from "../../features/sessions/SessionSelector.tsx";
import { ErrorBoundary } from "../ErrorBoundary.tsx";
import { AppRoutes, knownPaths } from "../routes.tsx";
import {
  useActivityTokenRefresh,
  useRouterNavigator,
  useTokenValidation,
} from "../use-auth-session.ts";
import { Footer } from "./Footer.tsx";
import { NavBar } from "./NavBar.tsx";
import { MAIN_CONTENT_ID, SkipLink } from "./SkipLink.tsx";

export function RootLayout() {
  const { pathname } = useLocation();
  // The 404 page shows no session selector.
  const known = useMatchesAny(knownPaths, pathname);
  useRouterNavigator();
  useTokenValidation();
  useActivityTokenRefresh();

  return (
    <div className="flex min-h-dvh flex-col">
      <SkipLink />
      <NavBar />
      <SessionSelector hidden={!known} />
      <main id={MAIN_CONTENT_ID} tabIndex={-1} className="flex-1 focus:outline-none">
        <ErrorBoundary resetKey={pathname}>
          <Suspense fallback={<PageSpinner />}>
            <AppRoutes />
          </Suspense>
        </ErrorBoundary>
      </main>
      <Footer />
      <ScrollToTop />
    </div>
  );
}
