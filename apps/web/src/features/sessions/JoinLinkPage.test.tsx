import { describe, expect, it } from "vitest";
import { screen } from "@testing-library/react";
import { callsTo, json, stubFetch } from "../../test/fetch-stub.ts";
import { renderApp, signInAs, testUser } from "../../test/render-app.tsx";
import { getPendingInvite, setPendingInvite } from "../../lib/storage.ts";
import { makeSession } from "../../test/test-sessions.ts";

const TOKEN = "AbCdEfGhIjKlMnOpQrStUv";
const preview = {
  sessionName: "Friday dinner",
  creatorName: "Ann Lee",
  role: "participant",
  expiresAt: "2030-01-01T10:00:00.000Z",
};

describe("an invite link's page", () => {
  it("shows a signed-out visitor where it leads and keeps the link while they sign up", async () => {
    stubFetch({ [`GET /api/invite/${TOKEN}`]: () => json(200, preview) });
    const { user } = renderApp(`/join/${TOKEN}`);
    expect(await screen.findByRole("heading", { name: "Friday dinner" })).toBeVisible();
    expect(screen.getByText("Ann Lee invited you to")).toBeVisible();
    expect(screen.getByText("as a participant")).toBeVisible();
    await user.click(screen.getByRole("button", { name: "Create an account to join" }));
    expect(
      await screen.findByRole("heading", { name: "Become a cartner" }, { timeout: 5000 }),
    ).toBeVisible();
    expect(getPendingInvite()).toBe(TOKEN);
  });

  it("joins at once when a signed-in user comes back with the link waiting", async () => {
    signInAs();
    setPendingInvite(TOKEN);
    const session = makeSession({ _id: "s-9", sessionName: "Friday dinner" });
    const mock = stubFetch({
      "GET /api/auth/validate-token": () => json(200, { valid: true, user: testUser }),
      "GET /api/sessions/sync": () => json(200, { sessions: [session], version: 1 }),
      [`GET /api/invite/${TOKEN}`]: () => json(200, preview),
      [`POST /api/invite/${TOKEN}/accept`]: () => json(200, { sessionId: "s-9" }),
      "GET /api/sessions/s-9": () => json(200, { session }),
    });
    renderApp(`/join/${TOKEN}`);
    expect(await screen.findByText("You joined “Friday dinner”.")).toBeInTheDocument();
    expect(await screen.findByRole("heading", { level: 1, name: "Friday dinner" })).toBeVisible();
    expect(callsTo(mock, `POST /api/invite/${TOKEN}/accept`)).toHaveLength(1);
    expect(getPendingInvite()).toBeNull();
  });

  it("says in words when a link no longer works, or never did", async () => {
    stubFetch({
      [`GET /api/invite/${TOKEN}`]: () =>
        json(410, {
          code: "LINK_USED_UP",
          message: "This invite link has been used as often as it may.",
        }),
    });
    renderApp(`/join/${TOKEN}`);
    expect(
      await screen.findByRole("heading", { name: "This invite link no longer works" }),
    ).toBeVisible();
    expect(screen.getByText(/used as often as it may\. Ask the session's creator/)).toBeVisible();
  });

  it("says so for an unknown link", async () => {
    stubFetch({});
    renderApp("/join/nope");
    expect(await screen.findByRole("heading", { name: "Invite link not found" })).toBeVisible();
  });
});
