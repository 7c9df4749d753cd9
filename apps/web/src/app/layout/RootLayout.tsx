import { Suspense } from "react";
import { Outlet, ScrollRestoration, useLocation } from "react-router";
import { PageSpinner } from "../../components/ui/index.ts";
import { SessionSelector } from "../../features/sessions/SessionSelector.tsx";
import { ErrorBoundary } from "../ErrorBoundary.tsx";
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
  useRouterNavigator();
  useTokenValidation();
  useActivityTokenRefresh();

  return (
    <div className="flex min-h-dvh flex-col">
      <SkipLink />
      <NavBar />
      <SessionSelector />
      <main id={MAIN_CONTENT_ID} tabIndex={-1} className="flex-1 focus:outline-none">
        <ErrorBoundary resetKey={pathname}>
          <Suspense fallback={<PageSpinner />}>
            <Outlet />
          </Suspense>
        </ErrorBoundary>
      </main>
      <Footer />
      <ScrollRestoration />
    </div>
  );
}
