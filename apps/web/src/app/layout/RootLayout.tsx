import { Suspense, lazy, useSyncExternalStore } from "react";
import { PageSpinner } from "../../components/ui/index.ts";
import { ScrollToTop, useLocation, useMatchesAny } from "../../lib/router.tsx";
import { useAuth } from "../../lib/auth-store.ts";
import { getCurrency, subscribeCurrency } from "../../lib/format.ts";
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

const SignedInServices = lazy(() =>
  import("../signed-in.tsx").then((m) => ({ default: m.SignedInServices })),
);
const SessionBar = lazy(() => import("../signed-in.tsx").then((m) => ({ default: m.SessionBar })));

export function RootLayout() {
  const { pathname } = useLocation();
  const { isSignedIn } = useAuth();
  // Amounts are formatted as they are drawn: a currency other than the remembered one redraws.
  const currency = useSyncExternalStore(subscribeCurrency, getCurrency, getCurrency);
  // The 404 page shows no session selector.
  const known = useMatchesAny(knownPaths, pathname);
  useRouterNavigator();
  useTokenValidation();
  useActivityTokenRefresh();

  return (
    <div className="flex min-h-dvh flex-col">
      <SkipLink />
      <NavBar />
      {isSignedIn && (
        <Suspense fallback={null}>
          <SessionBar hidden={!known} />
          <SignedInServices />
        </Suspense>
      )}
      <main id={MAIN_CONTENT_ID} tabIndex={-1} className="flex-1 focus:outline-none">
        <ErrorBoundary key={currency} resetKey={pathname}>
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
