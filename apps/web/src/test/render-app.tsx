import { render } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { User } from "@cartner/contract";
import { AppProviders } from "../app/providers.tsx";
import { createQueryClient, setQueryClient } from "../app/query-client.tsx";
import { ErrorBoundary } from "../app/ErrorBoundary.tsx";
import { RootLayout } from "../app/layout/RootLayout.tsx";

type Entry = string | { pathname: string; state?: unknown };

/**
 * Renders the whole app (real routes, providers and toasts) at a path. The router is the browser's
 * History API, which jsdom provides: tests read where the app went from window.location.
 */
export function renderApp(entry: Entry = "/") {
  const { pathname, state = null } = typeof entry === "string" ? { pathname: entry } : entry;
  window.history.replaceState(state, "", pathname);
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({ queries: { retry: false }, mutations: { retry: false } });
  setQueryClient(queryClient);
  const user = userEvent.setup();
  const view = render(
    <AppProviders>
      <ErrorBoundary standalone>
        <RootLayout />
      </ErrorBoundary>
    </AppProviders>,
  );
  return { ...view, user, queryClient };
}

export const testUser: User = {
  _id: "7d9f8a52-3c1e-4b7a-9f0e-2a6c1d5b8e43",
  name: "Ada Lovelace",
  email: "ada@example.com",
  roles: [],
};

/** Puts a signed-in user in local storage, as verify-otp would. */
export function signInAs(user = testUser, token = "token-1"): void {
  window.localStorage.setItem("token", token);
  window.localStorage.setItem("user", JSON.stringify(user));
}
