import { describe, expect, it } from "vitest";
import { screen, waitFor } from "@testing-library/react";
import type { Session } from "@cartner/contract";
import { json, stubFetch } from "../../test/fetch-stub.ts";
import { renderApp, signInAs, testUser } from "../../test/render-app.tsx";
import { syncPollsOn } from "../../api/session-sync.ts";
import { selectorHiddenOn } from "./SessionSelector.tsx";
import { makeSession } from "../../test/test-sessions.ts";

const key = `activeSession:${testUser._id}`;
const older = makeSession({ sessionName: "Older", updatedAt: "2025-01-01T00:00:00.000Z" });
const newest = makeSession({ sessionName: "Newest", updatedAt: "2025-06-01T00:00:00.000Z" });

function serve(sessions: Session[]) {
  signInAs();
  return stubFetch({
    "GET /api/auth/validate-token": () => json(200, { valid: true, user: testUser }),
    "GET /api/sessions/sync": () => json(200, { sessions, version: 1 }),
    "GET /api/products": () => json(200, { products: [], total: 0 }),
  });
}

const selector = () => screen.findByLabelText("You're currently shopping on:");

describe("session selector and active session", () => {
  it("lists active sessions newest first and picks the newest when none is stored", async () => {
    serve([older, newest]);
    renderApp("/products");
    const select = await selector();
    expect(Array.from((select as HTMLSelectElement).options).map((o) => o.text)).toEqual([
      "Newest · Friends",
      "Older · Friends",
    ]);
    expect(select).toHaveValue(newest._id);
  });

  it("uses the stored session, and stores a new choice per user", async () => {
    window.localStorage.setItem(key, older._id);
    serve([older, newest]);
    const { user } = renderApp("/products");
    const select = await selector();
    expect(select).toHaveValue(older._id);
    await user.selectOptions(select, newest._id);
    expect(window.localStorage.getItem(key)).toBe(newest._id);
    expect(select).toHaveValue(newest._id);
  });

  it("falls back to the newest when the stored session is no longer active", async () => {
    window.localStorage.setItem(key, "s-ended-long-ago");
    serve([older, newest]);
    renderApp("/products");
    expect(await selector()).toHaveValue(newest._id);
  });

  it("is hidden without active sessions, and when signed out", async () => {
    serve([]);
    const signedIn = renderApp("/products");
    await screen.findByRole("heading", { level: 1, name: "Marketplace" });
    await waitFor(() => expect(screen.queryByText("You're currently shopping on:")).toBeNull());
    signedIn.unmount();

    window.localStorage.clear();
    stubFetch({});
    renderApp("/");
    await screen.findByRole("heading", { level: 1, name: /one cart for your group/i });
    expect(screen.queryByText("You're currently shopping on:")).toBeNull();
  });

  it("is absent on the 404 page", async () => {
    serve([newest]);
    renderApp("/no/such/page");
    await screen.findByRole("heading", { level: 1, name: "Page Not Found" });
    // Give the sync a moment to answer, then make sure nothing appeared.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByText("You're currently shopping on:")).toBeNull();
  });

  it("knows where it is hidden and where the sync does not poll (SPEC sections 2 and 9)", () => {
    for (const path of ["/cart", "/cart/s-1", "/cart/id/c-1", "/profile", "/editme", "/cart/"]) {
      expect(selectorHiddenOn(path)).toBe(true);
    }
    for (const path of ["/", "/products", "/sessions", "/session/s-1", "/cart-history"]) {
      expect(selectorHiddenOn(path)).toBe(false);
    }
    for (const path of ["/", "/login", "/register", "/verify-otp"]) {
      expect(syncPollsOn(path)).toBe(false);
    }
    for (const path of ["/products", "/sessions", "/cart", "/session/s-1"]) {
      expect(syncPollsOn(path)).toBe(true);
    }
  });
});
