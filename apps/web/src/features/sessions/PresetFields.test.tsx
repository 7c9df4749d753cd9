import { describe, expect, it } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import { callsTo, json, stubFetch } from "../../test/fetch-stub.ts";
import { renderApp, signInAs, testUser } from "../../test/render-app.tsx";
import { makeSession } from "../../test/test-sessions.ts";
import { changedFields, initialEditValues, retyped } from "./EditSessionPage.tsx";

async function openLanding() {
  const app = renderApp("/");
  await screen.findByRole("form", { name: "Create a session" });
  return app;
}

describe("the create form's presets", () => {
  it("shows what the chosen type sets, in plain words, and each choice to change", async () => {
    stubFetch({});
    const { user } = await openLanding();
    expect(screen.queryByRole("group", { name: /session sets/ })).toBeNull();

    await user.selectOptions(screen.getByLabelText("Session Type"), "Family");
    const family = await screen.findByRole("group", { name: "What a Family session sets" });
    const words = within(family).getByRole("list", { name: "Family sets" });
    expect(words).toHaveTextContent("Split: parts by weight (a full share is 100)");
    expect(words).toHaveTextContent("Checkout: only the creator checks out");
    expect(words).toHaveTextContent("weight 50 and an “ask first” budget");
    expect(within(family).getByLabelText("Split")).toHaveValue("weights");
    expect(within(family).getByLabelText("Who checks out")).toHaveValue("creator");
    expect(screen.getByRole("radio", { name: "3+" })).toBeChecked();

    await user.selectOptions(screen.getByLabelText("Session Type"), "Couple");
    const couple = screen.getByRole("group", { name: "What a Couple session sets" });
    expect(within(couple).getByLabelText("Split")).toHaveValue("equal");
    expect(within(couple).getByLabelText("Who checks out")).toHaveValue("members");
    expect(within(couple).getByRole("list")).toHaveTextContent(
      "Checkout: any member who pays may check out",
    );
    expect(screen.getByRole("radio", { name: "2" })).toBeChecked();

    await user.selectOptions(screen.getByLabelText("Session Type"), "Solo");
    expect(screen.getByRole("list", { name: "Solo sets" })).toHaveTextContent(
      "Invites: none, a Solo session is yours alone",
    );
  });

  it("sends the choices the user changed, which win over the type's", async () => {
    stubFetch({});
    const { user } = await openLanding();
    await user.type(screen.getByLabelText("Session Name"), "Dinner");
    await user.selectOptions(screen.getByLabelText("Session Type"), "Couple");
    const choices = await screen.findByRole("group", { name: "What a Couple session sets" });
    await user.selectOptions(within(choices).getByLabelText("Who checks out"), "creator");
    expect(within(choices).getByText("Couple sets another; yours wins.")).toBeInTheDocument();
    // The choice stays the user's when the type changes again.
    await user.selectOptions(screen.getByLabelText("Session Type"), "Family");
    expect(screen.getByLabelText("Who checks out")).toHaveValue("creator");
    await user.click(screen.getByRole("button", { name: "Start Session" }));
    await waitFor(() => expect(window.location.pathname).toBe("/login"));
    expect(JSON.parse(window.localStorage.getItem("pendingSession") ?? "null")).toEqual({
      sessionName: "Dinner",
      sessionType: "Family",
      participants: "3+",
      checkoutBy: "creator",
    });
  });

  it("can be used by keyboard alone", async () => {
    stubFetch({});
    const { user } = await openLanding();
    screen.getByLabelText("Session Type").focus();
    await user.selectOptions(screen.getByLabelText("Session Type"), "Friends");
    const split = await screen.findByLabelText("Split");
    split.focus();
    await user.tab();
    expect(screen.getByLabelText("Fees")).toHaveFocus();
    await user.tab();
    expect(screen.getByLabelText("Who checks out")).toHaveFocus();
  });
});

describe("the settings' presets", () => {
  const session = makeSession({
    sessionType: "Friends",
    participants: "3+",
    splitPolicy: { mode: "by_adder", weights: {}, fees: "equal" },
    checkoutBy: "creator",
  });

  it("shows the new type's preset when the type changes, keeping what the user changed", () => {
    const values = { ...initialEditValues(session), fees: "creator" as const };
    const next = retyped(session, values, "Couple");
    expect(next).toMatchObject({
      sessionType: "Couple",
      participants: "2",
      splitMode: "equal",
      fees: "creator",
      checkoutBy: "members",
    });
  });

  it("sends every choice with a new type, and only the changed ones otherwise", () => {
    const same = changedFields(session, { ...initialEditValues(session), checkoutBy: "members" });
    expect(same).toEqual({ body: { checkoutBy: "members" } });
    const next = retyped(session, initialEditValues(session), "Family");
    expect(changedFields(session, next)).toEqual({
      body: {
        sessionType: "Family",
        participants: "3+",
        splitMode: "weights",
        fees: "proportional",
        checkoutBy: "creator",
      },
    });
  });

  it("saves the choices from the settings page", async () => {
    signInAs();
    const fetchMock = stubFetch({
      "GET /api/auth/validate-token": () => json(200, { valid: true, user: testUser }),
      [`GET /api/sessions/${session._id}`]: () => json(200, { session }),
      "POST /api/sessions/joinrequests": () => json(200, { requests: [] }),
      [`PATCH /api/sessions/${session._id}`]: () => json(200, { session }),
    });
    const { user } = renderApp(`/session/edit/${session._id}`);
    const choices = await screen.findByRole("group", { name: "What a Friends session sets" });
    await user.selectOptions(within(choices).getByLabelText("Split"), "equal");
    await user.click(screen.getByRole("button", { name: "Save" }));
    const patch = `PATCH /api/sessions/${session._id}`;
    await waitFor(() => expect(callsTo(fetchMock, patch)).toHaveLength(1));
    expect(callsTo(fetchMock, patch)[0]?.body).toBe(JSON.stringify({ splitMode: "equal" }));
  });
});
