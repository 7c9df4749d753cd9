import { describe, expect, it } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import type { JoinRequest, Session } from "@cartner/contract";
import { callsTo, json, stubFetch, type StubHandler } from "../../test/fetch-stub.ts";
import { renderApp, signInAs, testUser } from "../../test/render-app.tsx";
import { makeCart, makeLine, products } from "../../test/test-carts.ts";
import {
  ben,
  cleo,
  makeJoinRequest,
  makeSession,
  member,
  sessionAs,
} from "../../test/test-sessions.ts";

async function openLobby(
  session: Session,
  {
    requests = [],
    routes = {},
  }: { requests?: JoinRequest[]; routes?: Record<string, StubHandler> } = {},
) {
  signInAs();
  const state = { session, requests };
  const fetchMock = stubFetch({
    "GET /api/auth/validate-token": () => json(200, { valid: true, user: testUser }),
    [`GET /api/sessions/${session._id}`]: () => json(200, { session: state.session }),
    "GET /api/sessions/sync": () => json(200, { sessions: [state.session], version: 1 }),
    "GET /api/sessions/my": () => json(200, { sessions: [state.session] }),
    "GET /api/sessions/myinvites": () => json(200, { invites: [] }),
    "POST /api/sessions/joinrequests": () => json(200, { requests: state.requests }),
    ...routes,
  });
  const app = renderApp(`/session/${session._id}`);
  await screen.findByRole("heading", { level: 1, name: session.sessionName });
  return { ...app, fetchMock, state };
}

const actionsOf = () =>
  ["Add Items", "View Session Cart", "Leave Session", "End Session", "Edit session"].filter(
    (name) =>
      screen.queryByRole(name.startsWith("View") || name.startsWith("Edit") ? "link" : "button", {
        name,
      }),
  );

describe("session lobby", () => {
  it("shows the creator everything: details, members, End, and the invite panel", async () => {
    const session = makeSession({
      sessionName: "Weekend groceries",
      sessionType: "Family",
      sessionCode: "K7QM2XWP",
      passcode: "sesame",
      budget: 100,
      cart: { _id: "c-1", totalPrice: 30, itemCount: 2 },
      invitedUsers: [
        member(testUser, "creator"),
        member(ben, "participant"),
        member(cleo, "pending"),
      ],
    });
    await openLobby(session, { requests: [makeJoinRequest()] });

    expect(screen.getByText("Active")).toBeVisible();
    expect(screen.getByText("Family")).toBeVisible();
    expect(screen.getAllByText("K7QM2XWP").length).toBeGreaterThan(0);
    expect(screen.getByText("sesame")).toBeVisible();
    expect(screen.getByText("Budget").nextSibling).toHaveTextContent("$100.00");
    expect(screen.getByText("Cart Total").nextSibling).toHaveTextContent("$30.00");
    expect(screen.getByText("Savings").nextSibling).toHaveTextContent("$70.00");

    const members = screen.getByRole("list", { name: /^Participants/ });
    expect(within(members).getByText("Ada Lovelace")).toBeVisible();
    expect(within(members).getByText("Creator")).toBeVisible();
    expect(within(members).getByText("Ben Brown")).toBeVisible();
    const pending = screen.getByRole("list", { name: "Pending Participants" });
    expect(within(pending).getByText("Cleo Chu")).toBeVisible();

    expect(actionsOf()).toEqual(["Add Items", "View Session Cart", "End Session", "Edit session"]);
    expect(screen.getByRole("link", { name: "View Session Cart" })).toHaveAttribute(
      "href",
      `/cart/${session._id}`,
    );
    expect(screen.getByRole("form", { name: "Invite someone" })).toBeVisible();
    expect(await screen.findByText("cleo@example.com")).toBeVisible();
  });

  it.each([
    ["participant", ["Add Items", "View Session Cart", "Leave Session"], "sesame"],
    ["viewer", ["View Session Cart", "Leave Session"], "Hidden"],
  ] as const)("gives a %s no End and no invite panel", async (role, actions, passcode) => {
    await openLobby(sessionAs(role, { sessionName: "Their session" }));
    expect(actionsOf()).toEqual(actions);
    expect(screen.getByText("Passcode").nextSibling).toHaveTextContent(passcode);
    expect(screen.queryByRole("form", { name: "Invite someone" })).not.toBeInTheDocument();
    expect(screen.queryByText("Pending Join Requests")).not.toBeInTheDocument();
  });

  it("shows N/A for a missing passcode and an Ended badge with no actions but the cart", async () => {
    await openLobby(
      makeSession({
        sessionName: "Done",
        status: "ended",
        passcode: undefined,
        hasPasscode: false,
      }),
    );
    expect(screen.getByText("Ended")).toBeVisible();
    expect(screen.getByText("Passcode").nextSibling).toHaveTextContent("N/A");
    expect(actionsOf()).toEqual(["View Session Cart"]);
  });

  it("shows the session's activity, newest first, with the reader as You", async () => {
    const session = makeSession({ sessionName: "Weekend groceries" });
    const at = new Date(Date.now() - 2 * 60_000).toISOString();
    const entries = [
      {
        seq: 1,
        at,
        actor: { _id: testUser._id, name: testUser.name },
        type: "item.added",
        product: "Oat milk",
        quantity: 1,
      },
      {
        seq: 2,
        at,
        actor: { _id: ben._id, name: "Ben" },
        type: "item.removed",
        product: "Oat milk",
        lineOf: testUser.name,
      },
    ];
    const { fetchMock } = await openLobby(session, {
      routes: {
        [`GET /api/sessions/${session._id}/activity`]: () =>
          json(200, { events: entries, nextSeq: 2 }),
      },
    });
    const feed = await screen.findByTestId("activity-feed");
    const items = within(feed)
      .getAllByRole("listitem")
      .map((li) => li.textContent);
    expect(items).toEqual([
      `Ben removed Oat milk (${testUser.name}'s line) · 2 min ago`,
      "You added Oat milk · 2 min ago",
    ]);
    const [request] = callsTo(fetchMock, `GET /api/sessions/${session._id}/activity`);
    expect(request).toBeDefined();
    expect(
      String(fetchMock.mock.calls.find(([url]) => String(url).includes("/activity"))?.[0]),
    ).toContain("after=0&limit=200");
  });

  it("says so when nothing has happened yet", async () => {
    const session = makeSession({ sessionName: "Quiet" });
    await openLobby(session, {
      routes: {
        [`GET /api/sessions/${session._id}/activity`]: () => json(200, { events: [], nextSeq: 0 }),
      },
    });
    expect(await screen.findByText("Nothing has happened here yet.")).toBeVisible();
  });

  it("approves a join request with the userId and refreshes", async () => {
    const session = makeSession({
      sessionName: "Party",
      invitedUsers: [member(testUser, "creator"), member(cleo, "pending")],
    });
    const { user, fetchMock, state } = await openLobby(session, {
      requests: [makeJoinRequest()],
      routes: {
        [`POST /api/sessions/approve/${session.sessionCode}`]: () => {
          state.requests = [];
          state.session = {
            ...session,
            invitedUsers: [member(testUser, "creator"), member(cleo, "participant")],
          };
          return json(200, { message: "Cleo Chu joined the session" });
        },
      },
    });
    await user.click(await screen.findByRole("button", { name: "Accept Cleo Chu" }));
    expect(await screen.findByText("Cleo Chu joined the session")).toBeInTheDocument();
    expect(callsTo(fetchMock, `POST /api/sessions/approve/${session.sessionCode}`)[0]?.body).toBe(
      JSON.stringify({ userId: cleo._id }),
    );
    expect(await screen.findByText("No pending join requests.")).toBeVisible();
    await waitFor(() =>
      expect(
        within(screen.getByRole("list", { name: /^Participants/ })).getByText("Cleo Chu"),
      ).toBeVisible(),
    );
  });

  it("sends an invite, toasts the server's message and shows field errors", async () => {
    const session = makeSession({ sessionName: "Party", sessionCode: "PARTY123" });
    let answer = json(404, { message: "No user with that name", code: "NOT_FOUND" });
    const { user, fetchMock } = await openLobby(session, {
      routes: { "POST /api/sessions/invite": () => answer },
    });
    const form = screen.getByRole("form", { name: "Invite someone" });
    expect(within(form).getByLabelText("Session Code")).toHaveValue("PARTY123");
    expect(within(form).getByLabelText("Session Code")).toHaveAttribute("readonly");

    await user.click(within(form).getByRole("button", { name: "Send Invite" }));
    expect(within(form).getByLabelText("Email or Username")).toHaveAttribute(
      "aria-invalid",
      "true",
    );
    expect(callsTo(fetchMock, "POST /api/sessions/invite")).toHaveLength(0);

    await user.type(within(form).getByLabelText("Email or Username"), " nobody ");
    await user.click(within(form).getByRole("button", { name: "Send Invite" }));
    expect((await screen.findAllByText("No user with that name")).length).toBe(2);

    answer = json(201, { message: "Invitation sent" });
    await user.clear(within(form).getByLabelText("Email or Username"));
    await user.type(within(form).getByLabelText("Email or Username"), "cleo@example.com");
    await user.selectOptions(within(form).getByLabelText("Role"), "viewer");
    await user.click(within(form).getByRole("button", { name: "Send Invite" }));
    expect(await screen.findByText("Invitation sent")).toBeInTheDocument();
    expect(callsTo(fetchMock, "POST /api/sessions/invite")[1]?.body).toBe(
      JSON.stringify({
        sessionCode: "PARTY123",
        emailOrUsername: "cleo@example.com",
        role: "viewer",
      }),
    );
    expect(within(form).getByLabelText("Email or Username")).toHaveValue("");
  });

  it("before making a member a viewer, says which lines they still carry and sends nothing", async () => {
    const session = makeSession({
      sessionName: "Party",
      invitedUsers: [member(testUser, "creator"), member(ben, "participant")],
    });
    let cart = makeCart(
      [
        makeLine(ben, products.tea),
        makeLine(ben, products.mug),
        makeLine(ben, products.socks, 1, {
          sharedWith: [{ _id: testUser._id, name: testUser.name }],
        }),
      ],
      { members: session.invitedUsers },
    );
    const { user, fetchMock } = await openLobby(session, {
      routes: {
        [`GET /api/sessions/${session._id}/cart`]: () => json(200, { cart }),
        [`PATCH /api/sessions/${session._id}/members/${ben._id}`]: () =>
          json(200, {
            session: {
              ...session,
              invitedUsers: [member(testUser, "creator"), member(ben, "viewer")],
            },
          }),
      },
    });
    await user.selectOptions(screen.getByLabelText(`Role of ${ben.name}`), "viewer");
    const dialog = await screen.findByRole("dialog");
    expect(dialog).toHaveTextContent(
      `${ben.name} still has 2 lines in the cart: remove them or share them with others first.`,
    );
    expect(
      callsTo(fetchMock, `PATCH /api/sessions/${session._id}/members/${ben._id}`),
    ).toHaveLength(0);
    await user.click(
      within(dialog).getByRole("button", { name: `Keep ${ben.name} a participant` }),
    );
    expect(screen.getByLabelText(`Role of ${ben.name}`)).toHaveValue("participant");

    // Once nothing is his alone, the change goes through.
    cart = makeCart([], { members: session.invitedUsers });
    await user.selectOptions(screen.getByLabelText(`Role of ${ben.name}`), "viewer");
    expect(await screen.findByText(`${ben.name} is now a viewer.`)).toBeInTheDocument();
    expect(
      callsTo(fetchMock, `PATCH /api/sessions/${session._id}/members/${ben._id}`)[0]?.body,
    ).toBe(JSON.stringify({ role: "viewer" }));
  });

  it.each([
    [true, "New code and passcode", "The current code and passcode stop working at once;"],
    [false, "New code", "The current code stops working at once;"],
  ] as const)(
    "warns before a new code (passcode %s) in words that agree",
    async (hasPasscode, button, warning) => {
      const session = makeSession({
        sessionName: "Codes",
        hasPasscode,
        passcode: hasPasscode ? "sesame" : undefined,
      });
      const { user } = await openLobby(session);
      await user.click(screen.getByRole("button", { name: button }));
      const dialog = await screen.findByRole("dialog");
      expect(dialog).toHaveTextContent(warning);
    },
  );

  it("leaves after confirmation, clears the active session and goes to /sessions", async () => {
    const session = sessionAs("participant", { sessionName: "Their session" });
    window.localStorage.setItem(`activeSession:${testUser._id}`, session._id);
    const { user } = await openLobby(session, {
      routes: {
        [`DELETE /api/sessions/${session._id}/leave`]: () => json(200, { message: "You left" }),
      },
    });
    await user.click(screen.getByRole("button", { name: "Leave Session" }));
    await user.click(
      within(screen.getByRole("dialog")).getByRole("button", { name: "Leave Session" }),
    );
    await waitFor(() => expect(window.location.pathname).toBe("/sessions"));
    expect(await screen.findByText("You left")).toBeInTheDocument();
    expect(window.localStorage.getItem(`activeSession:${testUser._id}`)).toBeNull();
  });

  it("leaving with lines names them and sends what becomes of them (give to the creator)", async () => {
    const session = sessionAs("participant", { sessionName: "Their session" });
    const cart = makeCart([makeLine(testUser, products.tea, 2), makeLine(ben, products.mug)]);
    const { user, fetchMock } = await openLobby(session, {
      routes: {
        [`GET /api/sessions/${session._id}/cart`]: () => json(200, { cart }),
        [`DELETE /api/sessions/${session._id}/leave`]: () => json(200, { message: "You left" }),
      },
    });
    await user.click(screen.getByRole("button", { name: "Leave Session" }));
    const dialog = screen.getByRole("dialog");
    expect(await within(dialog).findByText("You added this item to the cart:")).toBeVisible();
    expect(within(dialog).getByRole("listitem")).toHaveTextContent("2 × Jasmine Green Tea");
    expect(within(dialog).getByRole("radio", { name: "Remove it from the cart" })).toBeChecked();
    await user.click(within(dialog).getByRole("radio", { name: "Give it to" }));
    expect(within(dialog).getByRole("combobox", { name: "Who gets the items" })).toHaveValue(
      ben._id,
    );
    await user.click(within(dialog).getByRole("button", { name: "Leave Session" }));
    await waitFor(() => expect(window.location.pathname).toBe("/sessions"));
    const [leave] = fetchMock.mock.calls.filter(([, init]) => init?.method === "DELETE");
    expect(String(leave![0])).toContain(`/leave?lines=give&to=${ben._id}`);
  });

  it("Add Items makes this the active session and opens the marketplace", async () => {
    const session = makeSession({ sessionName: "Party" });
    const { user } = await openLobby(session, {
      routes: { "GET /api/products": () => json(200, { products: [], total: 0 }) },
    });
    await user.click(screen.getByRole("button", { name: "Add Items" }));
    await waitFor(() => expect(window.location.pathname).toBe("/products"));
    expect(window.localStorage.getItem(`activeSession:${testUser._id}`)).toBe(session._id);
  });

  it("shows a friendly not-found state on a 404", async () => {
    signInAs();
    stubFetch({
      "GET /api/auth/validate-token": () => json(200, { valid: true, user: testUser }),
      "GET /api/sessions/sync": () => json(200, { sessions: [], version: 0 }),
    });
    renderApp("/session/missing");
    expect(
      await screen.findByRole("heading", { level: 1, name: "Session not found" }),
    ).toBeVisible();
    expect(screen.getByRole("link", { name: "Back to sessions" })).toHaveAttribute(
      "href",
      "/sessions",
    );
  });

  it("offers a retry when loading fails", async () => {
    signInAs();
    let calls = 0;
    const session = makeSession({ _id: "s-flaky", sessionName: "Flaky" });
    stubFetch({
      "GET /api/auth/validate-token": () => json(200, { valid: true, user: testUser }),
      "GET /api/sessions/s-flaky": () =>
        ++calls === 1 ? json(500, { message: "Boom", code: "INTERNAL" }) : json(200, { session }),
      "POST /api/sessions/joinrequests": () => json(200, { requests: [] }),
    });
    const { user } = renderApp("/session/s-flaky");
    await user.click(await screen.findByRole("button", { name: "Try again" }));
    expect(await screen.findByRole("heading", { level: 1, name: "Flaky" })).toBeVisible();
  });
});
