import { describe, expect, it } from "vitest";
import { screen, waitFor } from "@testing-library/react";
import type { Session } from "@cartner/contract";
import { callsTo, json, stubFetch } from "../../test/fetch-stub.ts";
import { renderApp, signInAs, testUser } from "../../test/render-app.tsx";
import { makeSession, sessionAs } from "../../test/test-sessions.ts";

function serve(session: Session, patch?: () => Response) {
  signInAs();
  return stubFetch({
    "GET /api/auth/validate-token": () => json(200, { valid: true, user: testUser }),
    [`GET /api/sessions/${session._id}`]: () => json(200, { session }),
    "POST /api/sessions/joinrequests": () => json(200, { requests: [] }),
    ...(patch ? { [`PATCH /api/sessions/${session._id}`]: patch } : {}),
  });
}

describe("edit session page", () => {
  it("sends only the changed fields, removes an emptied passcode, and returns to the lobby", async () => {
    const session = makeSession({ sessionName: "Groceries", passcode: "sesame", budget: 50 });
    const fetchMock = serve(session, () =>
      json(200, { session: { ...session, sessionName: "Big groceries", budget: 80 } }),
    );
    const { user } = renderApp(`/session/edit/${session._id}`);
    const save = await screen.findByRole("button", { name: "Save" });
    expect(save).toBeDisabled();
    expect(screen.getByLabelText("Session Name")).toHaveValue("Groceries");
    expect(screen.getByLabelText(/Passcode/)).toHaveValue("sesame");
    expect(screen.getByLabelText(/Budget/)).toHaveValue("50");

    await user.clear(screen.getByLabelText("Session Name"));
    await user.type(screen.getByLabelText("Session Name"), " Big groceries ");
    await user.clear(screen.getByLabelText(/Passcode/));
    await user.clear(screen.getByLabelText(/Budget/));
    await user.type(screen.getByLabelText(/Budget/), "80");
    await user.click(save);

    await waitFor(() => expect(window.location.pathname).toBe(`/session/${session._id}`));
    expect(callsTo(fetchMock, `PATCH /api/sessions/${session._id}`)[0]?.body).toBe(
      JSON.stringify({ sessionName: "Big groceries", passcode: null, budget: 80 }),
    );
    expect(await screen.findByText("Session updated")).toBeInTheDocument();
  });

  it("shows the server's field errors", async () => {
    const session = makeSession({ sessionName: "Groceries" });
    serve(session, () =>
      json(400, {
        message: "Invalid input",
        code: "VALIDATION_ERROR",
        fields: { sessionName: "Too long" },
      }),
    );
    const { user } = renderApp(`/session/edit/${session._id}`);
    await user.type(await screen.findByLabelText("Session Name"), "!");
    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(await screen.findByText("Too long")).toBeVisible();
    expect(screen.getByLabelText("Session Name")).toHaveAttribute("aria-invalid", "true");
  });

  it("tells non-creators that only the creator can edit", async () => {
    const session = sessionAs("participant", { sessionName: "Theirs" });
    serve(session);
    renderApp(`/session/edit/${session._id}`);
    expect(
      await screen.findByText("Only the session creator can edit this session."),
    ).toBeVisible();
    expect(screen.queryByRole("button", { name: "Save" })).not.toBeInTheDocument();
  });
});
