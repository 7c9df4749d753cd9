/**
 * Where toasts show: at the bottom, never over the sticky header's bell and account menu (the
 * journey at 390 px compares their boxes in Chromium; jsdom has no layout, so here the container's
 * placement is read from its class).
 */
import { describe, expect, it } from "vitest";
import { screen } from "@testing-library/react";
import { toast } from "../lib/toast.ts";
import { json, stubFetch } from "../test/fetch-stub.ts";
import { renderApp, signInAs, testUser } from "../test/render-app.tsx";

describe("toasts", () => {
  it("show at the bottom, outside the header", async () => {
    signInAs();
    stubFetch({
      "GET /api/auth/validate-token": () => json(200, { valid: true, user: testUser }),
      "GET /api/sessions/sync": () => json(200, { sessions: [], version: 0 }),
    });
    renderApp("/");
    toast.success("Marked as done.");
    const shown = await screen.findByText("Marked as done.");
    const container = shown.closest(".Toastify__toast-container");
    expect(container).toHaveClass("Toastify__toast-container--bottom-right");
    expect(container?.className).not.toMatch(/--top-/);
    expect(screen.getByRole("banner")).not.toContainElement(shown);
  });
});
