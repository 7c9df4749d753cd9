import { describe, expect, it } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import type { Invite, MyJoinRequest, Session } from "@cartner/contract";
import { callsTo, json, stubFetch, type StubHandler } from "../../test/fetch-stub.ts";
import { renderApp, signInAs, testUser } from "../../test/render-app.tsx";
import { makeInvite, makeSession, sessionAs } from "../../test/test-sessions.ts";

interface Server {
  sessions?: Session[];
  invites?: Invite[];
  routes?: Record<string, StubHandler>;
}

/** A signed-in user on /sessions, with the session calls answered from these lists. */
async function openSessions({ sessions = [], invites = [], routes = {} }: Server = {}) {
  signInAs();
  const state = { sessions, invites };
  const fetchMock = stubFetch({
    "GET /api/auth/validate-token": () => json(200, { valid: true, user: testUser }),
    "GET /api/sessions/my": () => json(200, { sessions: state.sessions, nextCursor: null }),
    "GET /api/sessions/sync": () =>
      json(200, { sessions: state.sessions.filter((s) => s.status === "active"), version: 1 }),
    "GET /api/sessions/myinvites": () => json(200, { invites: state.invites }),
    ...routes,
  });
  const app = renderApp("/sessions");
  await screen.findByRole("heading", { level: 1, name: "Your shopping sessions" });
  return { ...app, fetchMock, state };
}

function joinForm() {
  return screen.getByRole("form", { name: "Join a session" });
}

describe("sessions page: join form", () => {
  it("keeps Join Session disabled until both fields are filled, and sends them trimmed", async () => {
    const { user, fetchMock } = await openSessions({
      routes: {
        "POST /api/sessions/join/code": () =>
          json(202, { message: "Request sent to the creator", sessionId: "s-1" }),
      },
    });
    const form = joinForm();
    const code = within(form).getByLabelText("Session Code");
    const passcode = within(form).getByLabelText("Passcode");
    const join = within(form).getByRole("button", { name: "Join Session" });

    expect(join).toBeDisabled();
    await user.type(code, "  K7QM2XWP ");
    expect(join).toBeDisabled();
    await user.type(passcode, "   ");
    expect(join).toBeDisabled();
    await user.type(passcode, "sesame ");
    expect(join).toBeEnabled();
    await user.clear(code);
    expect(join).toBeDisabled();
    await user.type(code, " K7QM2XWP ");
    await user.click(join);

    expect(await screen.findByText("Join request sent")).toBeInTheDocument();
    expect(callsTo(fetchMock, "POST /api/sessions/join/code")[0]?.body).toBe(
      JSON.stringify({ sessionCode: "K7QM2XWP", passcode: "sesame" }),
    );
    expect(code).toHaveValue("");
    expect(passcode).toHaveValue("");
  });

  it("shows the server's message on failure, or 'Failed to join session'", async () => {
    let answer = json(403, { message: "Invalid session code or passcode", code: "FORBIDDEN" });
    const { user } = await openSessions({
      routes: { "POST /api/sessions/join/code": () => answer },
    });
    const form = joinForm();
    await user.type(within(form).getByLabelText("Session Code"), "WRONG123");
    await user.type(within(form).getByLabelText("Passcode"), "nope");
    await user.click(within(form).getByRole("button", { name: "Join Session" }));
    expect(await screen.findByText("Invalid session code or passcode")).toBeInTheDocument();

    answer = new Response("oops", { status: 502 });
    await user.click(within(form).getByRole("button", { name: "Join Session" }));
    expect(await screen.findByText("Failed to join session")).toBeInTheDocument();
  });
});

describe("sessions page: waiting for approval", () => {
  const familyShop: MyJoinRequest = {
    sessionId: "s-5",
    sessionName: "Family shop",
    creator: { _id: "u-ann", name: "Ann" },
    requestedAt: "2026-11-26T09:30:00.000Z",
  };

  /** The sessions page of a requester whose requests the server keeps in `waiting`. */
  async function openAsRequester(waiting: MyJoinRequest[]) {
    const state = { waiting };
    const app = await openSessions({
      routes: {
        "GET /api/sessions/join-requests/mine": () => json(200, { requests: state.waiting }),
        "DELETE /api/sessions/s-5/leave": () => {
          state.waiting = state.waiting.filter((r) => r.sessionId !== "s-5");
          return json(200, { message: "Join request withdrawn" });
        },
        "POST /api/sessions/join/code": () => {
          state.waiting = [familyShop, ...state.waiting];
          return json(202, { message: "Join request sent", sessionId: "s-5" });
        },
      },
    });
    return { ...app, state };
  }

  it("lists each waiting request with its creator and time, and says so where no session is", async () => {
    await openAsRequester([familyShop]);
    const section = await screen.findByRole("region", { name: "Waiting for approval" });
    const item = within(section).getByRole("listitem");
    expect(item).toHaveTextContent("Family shop");
    expect(item).toHaveTextContent("Ann's session · asked");
    expect(within(item).getByText(/2026/)).toHaveAttribute("datetime", "2026-11-26T09:30:00.000Z");
    expect(
      within(item).getByRole("button", { name: "Withdraw request to join Family shop" }),
    ).toBeEnabled();
    // The empty Active tab tells the requester their request is on its way.
    expect(await screen.findByText("No active sessions yet.")).toBeInTheDocument();
    expect(
      screen.getByText("Your request to join Family shop is waiting for approval."),
    ).toBeInTheDocument();
  });

  it("withdraws with the leave route, toasts, and keeps focus in the section", async () => {
    const { user, fetchMock } = await openAsRequester([familyShop]);
    const section = await screen.findByRole("region", { name: "Waiting for approval" });
    await user.click(within(section).getByRole("button", { name: /Withdraw request/ }));

    expect(await screen.findByText("Request withdrawn")).toBeInTheDocument();
    expect(callsTo(fetchMock, "DELETE /api/sessions/s-5/leave")).toHaveLength(1);
    expect(within(section).getByText("No requests waiting.")).toBeInTheDocument();
    expect(within(section).getByRole("heading", { name: "Waiting for approval" })).toHaveFocus();
    expect(
      screen.getByText("Start one above, or join a friend's with their session code."),
    ).toBeInTheDocument();
  });

  it("shows no section without requests, and a request sent at once", async () => {
    const { user } = await openAsRequester([]);
    await screen.findByText("No active sessions yet.");
    expect(screen.queryByRole("region", { name: "Waiting for approval" })).not.toBeInTheDocument();

    const form = joinForm();
    await user.type(within(form).getByLabelText("Session Code"), "K7QM2XWP");
    await user.type(within(form).getByLabelText("Passcode"), "sesame");
    await user.click(within(form).getByRole("button", { name: "Join Session" }));
    const section = await screen.findByRole("region", { name: "Waiting for approval" });
    expect(within(section).getByRole("listitem")).toHaveTextContent("Family shop");
  });
});

describe("sessions page: create form", () => {
  it("creates with an optional budget, toasts and opens the lobby", async () => {
    const created = makeSession({ _id: "s-new", sessionName: "Road trip", budget: 200 });
    const { user, fetchMock } = await openSessions({
      routes: {
        "POST /api/sessions": () => json(201, { message: "Session created", session: created }),
        "GET /api/sessions/s-new": () => json(200, { session: created }),
        "POST /api/sessions/joinrequests": () => json(200, { requests: [] }),
      },
    });
    const form = screen.getByRole("form", { name: "Create a session" });
    await user.type(within(form).getByLabelText("Session Name"), " Road trip ");
    await user.selectOptions(within(form).getByLabelText("Session Type"), "Friends");
    await user.type(within(form).getByLabelText(/Budget/), "200");
    await user.click(within(form).getByRole("button", { name: "Create Session" }));

    await waitFor(() => expect(window.location.pathname).toBe("/session/s-new"));
    expect(callsTo(fetchMock, "POST /api/sessions")[0]?.body).toBe(
      JSON.stringify({
        sessionName: "Road trip",
        sessionType: "Friends",
        participants: "3+",
        budget: 200,
      }),
    );
    expect(await screen.findByText("Session created")).toBeInTheDocument();
    expect(window.localStorage.getItem(`activeSession:${testUser._id}`)).toBe("s-new");
  });

  it("rejects a bad budget in place, and toasts a server failure", async () => {
    const { user, fetchMock } = await openSessions({
      routes: {
        "POST /api/sessions": () => json(400, { message: "Budget is too large", code: "BAD" }),
      },
    });
    const form = screen.getByRole("form", { name: "Create a session" });
    await user.type(within(form).getByLabelText("Session Name"), "Trip");
    await user.selectOptions(within(form).getByLabelText("Session Type"), "Solo");
    await user.type(within(form).getByLabelText(/Budget/), "12.345");
    await user.click(within(form).getByRole("button", { name: "Create Session" }));
    expect(within(form).getByLabelText(/Budget/)).toHaveAttribute("aria-invalid", "true");
    expect(callsTo(fetchMock, "POST /api/sessions")).toHaveLength(0);

    await user.clear(within(form).getByLabelText(/Budget/));
    await user.click(within(form).getByRole("button", { name: "Create Session" }));
    expect(
      await screen.findByText("Session creation failed: Budget is too large"),
    ).toBeInTheDocument();
  });

  it("reports a missing id", async () => {
    const { user } = await openSessions({
      routes: { "POST /api/sessions": () => json(201, { message: "ok", session: {} }) },
    });
    const form = screen.getByRole("form", { name: "Create a session" });
    await user.type(within(form).getByLabelText("Session Name"), "Trip");
    await user.selectOptions(within(form).getByLabelText("Session Type"), "Solo");
    await user.click(within(form).getByRole("button", { name: "Create Session" }));
    expect(
      await screen.findByText("Session creation failed: Session creation returned no ID"),
    ).toBeInTheDocument();
  });
});

describe("sessions page: invites", () => {
  it("shows 'No invites yet.' when there are none", async () => {
    await openSessions();
    expect(await screen.findByText("No invites yet.")).toBeInTheDocument();
  });

  it("toasts 'Failed to load invites' when they cannot be loaded", async () => {
    await openSessions({
      routes: {
        "GET /api/sessions/myinvites": () => json(500, { message: "Boom", code: "INTERNAL" }),
      },
    });
    expect(await screen.findByText("Failed to load invites")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Try again" })).toBeVisible();
  });

  it("accepts an invite and goes to the session", async () => {
    const joined = sessionAs("viewer", { _id: "s-beach", sessionName: "Beach trip" });
    const { user, fetchMock } = await openSessions({
      invites: [makeInvite()],
      routes: {
        "POST /api/sessions/accinvite": () =>
          json(200, { message: "Joined", sessionId: "s-beach" }),
        "GET /api/sessions/s-beach": () => json(200, { session: joined }),
      },
    });
    expect(await screen.findByText("Beach trip")).toBeVisible();
    expect(screen.getByText(/Ben Brown invited you as viewer/)).toBeVisible();
    await user.click(screen.getByRole("button", { name: "Accept Beach trip" }));

    expect(await screen.findByText("Invite accepted! Redirecting...")).toBeInTheDocument();
    await waitFor(() => expect(window.location.pathname).toBe("/session/s-beach"));
    expect(callsTo(fetchMock, "POST /api/sessions/accinvite")[0]?.body).toBe(
      JSON.stringify({ sessionCode: "BEACH123" }),
    );
  });

  it("rejects an invite, and reports failures with SPEC's wording", async () => {
    let reject = json(409, { message: "Invite already answered", code: "CONFLICT" });
    const { user, state } = await openSessions({
      invites: [makeInvite()],
      routes: {
        "POST /api/sessions/rejinvite": () => reject,
        "POST /api/sessions/accinvite": () => json(404, { message: "Gone", code: "NOT_FOUND" }),
      },
    });
    await user.click(await screen.findByRole("button", { name: "Accept Beach trip" }));
    expect(await screen.findByText("Failed to accept invite: Gone")).toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: "Reject Beach trip" }));
    expect(
      await screen.findByText("Failed to reject invite: Invite already answered"),
    ).toBeInTheDocument();

    reject = json(200, { message: "Rejected" });
    state.invites = [];
    await user.click(screen.getByRole("button", { name: "Reject Beach trip" }));
    expect(await screen.findByText("Invite rejected")).toBeInTheDocument();
    expect(await screen.findByText("No invites yet.")).toBeInTheDocument();
  });
});

describe("sessions page: tabs", () => {
  const groceries = makeSession({
    sessionName: "Weekend groceries",
    updatedAt: "2025-05-03T00:00:00.000Z",
  });
  const trip = sessionAs("participant", {
    sessionName: "Ski trip",
    updatedAt: "2025-05-02T00:00:00.000Z",
  });
  const over = makeSession({ sessionName: "Last summer", status: "ended" });

  it("counts active sessions, lists past ones, and says Coming Soon! for upcoming", async () => {
    const { user } = await openSessions({ sessions: [groceries, trip, over] });
    const active = await screen.findByRole("tabpanel", { name: "Active" });
    expect(
      within(active).getByRole("heading", { name: "You have (2) active Sessions" }),
    ).toBeVisible();
    expect(await within(active).findAllByRole("article")).toHaveLength(2);

    await user.click(screen.getByRole("tab", { name: "Past" }));
    const past = screen.getByRole("tabpanel", { name: "Past" });
    expect(
      within(past)
        .getAllByRole("article")
        .map((a) => a.getAttribute("aria-labelledby")),
    ).toHaveLength(1);
    expect(within(past).getByRole("heading", { name: "Last summer" })).toBeVisible();

    // Arrow keys move between tabs.
    await user.keyboard("{ArrowRight}");
    expect(screen.getByRole("tab", { name: "Upcoming" })).toHaveAttribute("aria-selected", "true");
    expect(screen.getByRole("tabpanel", { name: "Upcoming" })).toHaveTextContent("Coming Soon!");
  });

  it("filters the cards by name", async () => {
    const { user } = await openSessions({ sessions: [groceries, trip] });
    const active = await screen.findByRole("tabpanel", { name: "Active" });
    await within(active).findByRole("heading", { name: "Ski trip" });
    await user.type(screen.getByRole("searchbox", { name: "Search sessions by name" }), "SKI");
    expect(within(active).getAllByRole("article")).toHaveLength(1);
    expect(within(active).getByRole("heading", { name: "Ski trip" })).toBeVisible();
    await user.type(screen.getByRole("searchbox"), "xyz");
    expect(within(active).getByText("No sessions match “SKIxyz”.")).toBeVisible();
  });

  it("confirms before leaving, toasts the server's message and clears the active session", async () => {
    window.localStorage.setItem(`activeSession:${testUser._id}`, trip._id);
    const { user, state, fetchMock } = await openSessions({
      sessions: [groceries, trip],
      routes: {
        [`DELETE /api/sessions/${trip._id}/leave`]: () => {
          state.sessions = [groceries];
          return json(200, { message: "You left Ski trip" });
        },
      },
    });
    await user.click(await screen.findByRole("button", { name: "Leave Ski trip" }));
    const dialog = screen.getByRole("dialog", { name: "Leave “Ski trip”?" });
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(callsTo(fetchMock, `DELETE /api/sessions/${trip._id}/leave`)).toHaveLength(0);

    await user.click(screen.getByRole("button", { name: "Leave Ski trip" }));
    await user.click(
      within(screen.getByRole("dialog")).getByRole("button", { name: "Leave Session" }),
    );
    expect(await screen.findByText("You left Ski trip")).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByRole("heading", { name: "You have (1) active Sessions" })).toBeVisible(),
    );
    expect(window.localStorage.getItem(`activeSession:${testUser._id}`)).toBeNull();
  });

  it("ends a session after confirmation and shows a failure's message", async () => {
    let answer = json(403, { message: "Only the creator can end the session", code: "FORBIDDEN" });
    const { user } = await openSessions({
      sessions: [groceries],
      routes: { [`PUT /api/sessions/${groceries._id}/end`]: () => answer },
    });
    await user.click(await screen.findByRole("button", { name: "End Weekend groceries" }));
    await user.click(
      within(screen.getByRole("dialog")).getByRole("button", { name: "End Session" }),
    );
    expect(await screen.findByText("Only the creator can end the session")).toBeInTheDocument();

    answer = json(200, { message: "Session ended", sessionId: groceries._id });
    await user.click(screen.getByRole("button", { name: "End Weekend groceries" }));
    await user.click(
      within(screen.getByRole("dialog")).getByRole("button", { name: "End Session" }),
    );
    expect(await screen.findByText("Session ended")).toBeInTheDocument();
  });
});
