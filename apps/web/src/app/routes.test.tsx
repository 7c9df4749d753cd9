import { describe, expect, it } from "vitest";
import { screen, waitFor } from "@testing-library/react";
import { json, stubFetch } from "../test/fetch-stub.ts";
import { renderApp, signInAs, testUser } from "../test/render-app.tsx";

const protectedPaths = [
  "/products",
  "/cart",
  "/cart/s-1",
  "/cart/id/c-1",
  "/cart-history",
  "/sessions",
  "/session/s-1",
  "/session/edit/s-1",
  "/session-summary/s-1",
  "/profile",
  "/editme",
  "/editpass",
  "/product/p-1",
  "/user/u-1",
];

describe("route guard", () => {
  it.each(protectedPaths)("sends a visitor without a token from %s to /", async (path) => {
    stubFetch({});
    renderApp(path);
    expect(
      await screen.findByRole("heading", { level: 1, name: /one cart for your group/i }),
    ).toBeInTheDocument();
    expect(window.location.pathname).toBe("/");
  });

  it("lets a signed-in user open a protected page", async () => {
    signInAs();
    stubFetch({ "GET /api/auth/validate-token": () => json(200, { valid: true, user: testUser }) });
    renderApp("/products");
    expect(await screen.findByRole("heading", { level: 1, name: "Marketplace" })).toBeVisible();
    expect(window.location.pathname).toBe("/products");
  });

  it("keeps /verify-otp public", async () => {
    window.localStorage.setItem("userId", testUser._id);
    stubFetch({});
    renderApp("/verify-otp");
    expect(await screen.findByLabelText("Verification code")).toBeInTheDocument();
    expect(window.location.pathname).toBe("/verify-otp");
  });

  it("shows Page Not Found with a link home for unknown paths", async () => {
    stubFetch({});
    const { user } = renderApp("/sessions/leave/abc-and-more/nope");
    expect(await screen.findByRole("heading", { level: 1, name: "Page Not Found" })).toBeVisible();
    await user.click(screen.getByRole("link", { name: "Back to Home" }));
    await waitFor(() => expect(window.location.pathname).toBe("/"));
  });
});

describe("token validation on route change", () => {
  it("signs the user out and goes to /login when the token is rejected", async () => {
    signInAs();
    stubFetch({
      "GET /api/auth/validate-token": () =>
        json(401, { message: "Not signed in", code: "UNAUTHORIZED" }),
    });
    renderApp("/sessions");
    await waitFor(() => expect(window.location.pathname).toBe("/login"));
    expect(window.localStorage.getItem("token")).toBeNull();
    expect(window.localStorage.getItem("user")).toBeNull();
  });
});
