import { describe, expect, it, vi } from "vitest";
import { screen, waitFor } from "@testing-library/react";
import { callsTo, json, stubFetch } from "../../test/fetch-stub.ts";
import { renderApp, signInAs, testUser } from "../../test/render-app.tsx";

async function openLanding() {
  const app = renderApp("/");
  const form = await screen.findByRole("form", { name: "Create a session" });
  const start = screen.getByRole("button", { name: "Start Session" });
  return { ...app, form, start };
}

describe("landing hero: create a session", () => {
  it("keeps Start Session disabled until a name and a type are set", async () => {
    stubFetch({});
    const { user, start } = await openLanding();
    expect(start).toBeDisabled();

    await user.type(screen.getByLabelText("Session Name"), "   ");
    expect(start).toBeDisabled();

    await user.type(screen.getByLabelText("Session Name"), "Weekend groceries");
    expect(start).toBeDisabled();

    await user.selectOptions(screen.getByLabelText("Session Type"), "Couple");
    expect(start).toBeEnabled();

    await user.clear(screen.getByLabelText("Session Name"));
    expect(start).toBeDisabled();
  });

  it("offers the SPEC's types and participant counts", async () => {
    stubFetch({});
    await openLanding();
    const types = screen.getByLabelText("Session Type");
    expect(
      Array.from(types.querySelectorAll("option"))
        .map((option) => option.value)
        .filter(Boolean),
    ).toEqual(["Couple", "Friends", "Family", "Solo"]);
    const group = screen.getByRole("group", { name: "Participants" });
    for (const count of ["1", "2", "3+"]) {
      expect(group).toContainElement(screen.getByRole("radio", { name: count }));
    }
  });

  it("signed out: saves the trimmed form as pendingSession, warns and goes to /login", async () => {
    const fetchMock = stubFetch({});
    const { user, start } = await openLanding();

    await user.type(screen.getByLabelText("Session Name"), "  Weekend groceries  ");
    await user.selectOptions(screen.getByLabelText("Session Type"), "Friends");
    await user.click(screen.getByRole("radio", { name: "2" }));
    await user.type(screen.getByLabelText(/Passcode/), "  sesame ");
    await user.click(start);

    await waitFor(() => expect(window.location.pathname).toBe("/login"));
    expect(JSON.parse(window.localStorage.getItem("pendingSession") ?? "null")).toEqual({
      sessionName: "Weekend groceries",
      sessionType: "Friends",
      participants: "2",
      passcode: "sesame",
    });
    expect(await screen.findByText("Please sign in to create a session")).toBeInTheDocument();
    expect(callsTo(fetchMock, "POST /api/sessions")).toHaveLength(0);
  });

  it("signed in: creates the session and opens its lobby", async () => {
    signInAs();
    const fetchMock = stubFetch({
      "GET /api/auth/validate-token": () => json(200, { valid: true, user: testUser }),
      "POST /api/sessions": () =>
        json(201, { message: "Created", session: { id: "s-42", _id: "s-42" } }),
    });
    const { user, start } = await openLanding();

    await user.type(screen.getByLabelText("Session Name"), "Date night");
    await user.selectOptions(screen.getByLabelText("Session Type"), "Couple");
    await user.click(start);

    await waitFor(() => expect(window.location.pathname).toBe("/session/s-42"));
    expect(callsTo(fetchMock, "POST /api/sessions")[0]?.body).toBe(
      JSON.stringify({ sessionName: "Date night", sessionType: "Couple", participants: "2" }),
    );
    expect(window.localStorage.getItem("pendingSession")).toBeNull();
  });

  it("signed in: alerts when the server returns no id, or fails", async () => {
    signInAs();
    const alert = vi.spyOn(window, "alert").mockImplementation(() => undefined);
    let answer = json(201, { message: "Created", session: {} });
    stubFetch({
      "GET /api/auth/validate-token": () => json(200, { valid: true, user: testUser }),
      "POST /api/sessions": () => answer,
    });
    const { user, start } = await openLanding();
    await user.type(screen.getByLabelText("Session Name"), "Groceries");
    await user.selectOptions(screen.getByLabelText("Session Type"), "Solo");

    await user.click(start);
    await waitFor(() => expect(alert).toHaveBeenCalledWith("Session creation returned no ID"));

    answer = json(400, { message: "Session name is too long", code: "VALIDATION_ERROR" });
    await user.click(start);
    await waitFor(() =>
      expect(alert).toHaveBeenCalledWith("Session creation failed: Session name is too long"),
    );
    expect(window.location.pathname).toBe("/");
  });
});
