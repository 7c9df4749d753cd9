import { afterEach, describe, expect, it, vi } from "vitest";
import { act, screen, waitFor, within } from "@testing-library/react";
import { PROFILE_EMPTY_REDIRECT_MS } from "@cartner/contract";
import { json, stubFetch } from "../../test/fetch-stub.ts";
import { renderApp, signInAs, testUser } from "../../test/render-app.tsx";
import { emptyProfile, makeProfile } from "./test-profile.ts";

function serve(profile: () => Response) {
  signInAs();
  return stubFetch({
    "GET /api/auth/validate-token": () => json(200, { valid: true, user: testUser }),
    "GET /api/profile/me": profile,
  });
}

afterEach(() => {
  vi.useRealTimers();
});

describe("profile page", () => {
  it("shows the profile, its carts and the provided info", async () => {
    serve(() => json(200, makeProfile({ phoneNumber: "+44 20 7946 0000" })));
    const { user } = renderApp("/profile");

    expect(
      await screen.findByRole("heading", { level: 1, name: "Welcome Back Ada Lovelace!" }),
    ).toBeVisible();
    expect(screen.getByText("Joined in 2024")).toBeInTheDocument();
    expect(screen.getByText("1 session joined")).toBeInTheDocument();
    expect(screen.getByText("Verified")).toBeInTheDocument();
    expect(screen.getByText("I plan the group dinners.")).toBeInTheDocument();
    expect(screen.getByText("English, French")).toBeInTheDocument();
    expect(screen.getByText("No orders yet")).toBeInTheDocument();
    expect(screen.getByText("Phone number").parentElement).toHaveTextContent("(provided)");
    expect(screen.getByText("Work email").parentElement).toHaveTextContent("(not provided)");

    const carts = screen.getByRole("region", { name: "My Carts" });
    expect(within(carts).getByText("3 items")).toBeInTheDocument();
    expect(within(carts).getByRole("link", { name: /view cart/i })).toHaveAttribute(
      "href",
      "/cart/id/c-1",
    );
    expect(screen.getByRole("link", { name: /change email or password/i })).toHaveAttribute(
      "href",
      "/editpass",
    );

    await user.click(screen.getByRole("button", { name: "FAQs" }));
    expect(await screen.findByText("FAQs is coming soon.")).toBeInTheDocument();
  });

  it("says an empty profile is empty and opens the editor after 2 s", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    serve(() => json(200, emptyProfile()));
    renderApp("/profile");

    expect(await screen.findByText("Your profile is empty")).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(PROFILE_EMPTY_REDIRECT_MS - 500));
    expect(window.location.pathname).toBe("/profile");
    act(() => vi.advanceTimersByTime(600));
    await waitFor(() => expect(window.location.pathname).toBe("/editme"));
  });

  it("toasts a failed load and offers to create the profile", async () => {
    serve(() => json(500, { message: "Boom", code: "INTERNAL" }));
    renderApp("/profile");
    expect(await screen.findByText("Failed to load profile", {}, { timeout: 5000 })).toBeVisible();
    expect(screen.getByRole("link", { name: "Create your profile" })).toHaveAttribute(
      "href",
      "/editme",
    );
  });
});
