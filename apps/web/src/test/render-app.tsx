import { render } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter } from "react-router";
import { RouterProvider } from "react-router/dom";
import { AppProviders } from "../app/providers.tsx";
import { createQueryClient } from "../app/query-client.ts";
import { routes } from "../app/routes.tsx";

type Entry = string | { pathname: string; state?: unknown };

/** Renders the whole app (real routes, providers and toasts) at a path, in memory. */
export function renderApp(entry: Entry = "/") {
  const router = createMemoryRouter(routes, { initialEntries: [entry] });
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({ queries: { retry: false }, mutations: { retry: false } });
  const user = userEvent.setup();
  const view = render(
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...view, router, user, queryClient };
}

export const testUser = {
  _id: "7d9f8a52-3c1e-4b7a-9f0e-2a6c1d5b8e43",
  name: "Ada Lovelace",
  email: "ada@example.com",
};

/** Puts a signed-in user in local storage, as verify-otp would. */
export function signInAs(user = testUser, token = "token-1"): void {
  window.localStorage.setItem("token", token);
  window.localStorage.setItem("user", JSON.stringify(user));
}
