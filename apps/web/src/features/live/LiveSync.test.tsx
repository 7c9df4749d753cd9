import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { act, screen, waitFor, within } from "@testing-library/react";
import { LIVE_MOVE_JITTER_MS, LiveClose, SESSION_SYNC_INTERVAL_MS } from "@cartner/contract";
import { callsTo, json, stubFetch } from "../../test/fetch-stub.ts";
import { renderApp, signInAs, testUser } from "../../test/render-app.tsx";
import { makeSession } from "../../test/test-sessions.ts";
import { FakeSocket, FakeWebSocket } from "../../test/fake-socket.ts";
import {
  INVITE_RECEIVED_MESSAGE,
  JOIN_ACCEPTED_LINK,
  JOIN_REQUEST_MESSAGE,
  ORDER_PLACED_MESSAGE,
  SESSION_STARTED_LINK,
  SESSION_STARTED_MESSAGE,
  joinAcceptedMessage,
  joinDeclinedMessage,
} from "./live-events.ts";
import { OFFLINE_GRACE_MS } from "../../lib/live-status.ts";
import { OFFLINE_MESSAGE } from "./OfflineIndicator.tsx";

function serve() {
  return stubFetch({
    "GET /api/auth/validate-token": () => json(200, { valid: true, user: testUser }),
    "GET /api/sessions/sync": () => json(200, { sessions: [makeSession()], version: 1 }),
    "GET /api/sessions/my": () => json(200, { sessions: [makeSession()], nextCursor: null }),
    "GET /api/sessions/myinvites": () => json(200, { invites: [] }),
    "POST /api/auth/logout": () => new Response(null, { status: 204 }),
  });
}

type FetchMock = ReturnType<typeof serve>;
const syncCalls = (mock: FetchMock) => callsTo(mock, "GET /api/sessions/sync").length;
const inviteCalls = (mock: FetchMock) => callsTo(mock, "GET /api/sessions/myinvites").length;

/** Signed in on /sessions, with the fake server holding the socket the app opened. */
async function openSessions() {
  signInAs();
  const fetchMock = serve();
  const app = renderApp("/sessions");
  await waitFor(() => expect(FakeSocket.instances).toHaveLength(1));
  await waitFor(() => expect(syncCalls(fetchMock)).toBe(1));
  await waitFor(() => expect(inviteCalls(fetchMock)).toBe(1));
  return { ...app, fetchMock, socket: FakeSocket.latest() };
}

beforeEach(() => {
  FakeSocket.reset();
  vi.stubGlobal("WebSocket", FakeWebSocket);
});

afterEach(() => {
  vi.useRealTimers();
});

describe("live sync in the app", () => {
  it("opens no socket while signed out", async () => {
    serve();
    renderApp("/");
    await screen.findByRole("navigation", { name: "Main" });
    expect(FakeSocket.instances).toHaveLength(0);
    expect(screen.queryByText(OFFLINE_MESSAGE)).not.toBeInTheDocument();
  });

  it("authenticates, refetches once ready, and closes on sign-out", async () => {
    const { fetchMock, socket, user } = await openSessions();
    expect(socket.url).toBe(`${window.location.origin.replace(/^http/, "ws")}/api/live`);
    act(() => socket.serverOpen());
    expect(socket.sent).toEqual([{ type: "auth", token: "token-1" }]);

    act(() => socket.serverSend({ type: "ready" }));
    // Events may have been missed before ready: the open session queries refetch.
    await waitFor(() => expect(syncCalls(fetchMock)).toBe(2));

    const nav = screen.getByRole("navigation", { name: "Main" });
    await user.click(within(nav).getByRole("button", { name: "Logout" }));
    await waitFor(() => expect(socket.closedWith).toBe(1000));
    expect(FakeSocket.instances).toHaveLength(1);
  });

  it("toasts an invite and a join request as they arrive", async () => {
    const { fetchMock, socket } = await openSessions();
    act(() => socket.serverAccept());
    await waitFor(() => expect(inviteCalls(fetchMock)).toBe(2));

    act(() => socket.serverSend({ type: "invite.received", sessionId: "s-9" }));
    expect(await screen.findByText(INVITE_RECEIVED_MESSAGE)).toBeInTheDocument();
    await waitFor(() => expect(inviteCalls(fetchMock)).toBe(3));

    act(() => socket.serverSend({ type: "joinrequest.created", sessionId: "s-1", version: 2 }));
    expect(await screen.findByText(JOIN_REQUEST_MESSAGE)).toBeInTheDocument();
  });

  it("toasts a placed order with a link that opens the order", async () => {
    const { socket, user } = await openSessions();
    act(() => socket.serverAccept());
    act(() =>
      socket.serverSend({ type: "order.placed", sessionId: "s-1", orderId: "o-1", version: 3 }),
    );
    const message = await screen.findByText(ORDER_PLACED_MESSAGE, { exact: false });
    const link = within(message).getByRole("link", { name: "View the order" });
    expect(link).toHaveAttribute("href", "/orders/o-1");

    await user.click(link);
    await waitFor(() => expect(window.location.pathname).toBe("/orders/o-1"));
  });

  it("toasts a series' new session with a link to it, and refetches the session lists", async () => {
    const { fetchMock, socket } = await openSessions();
    act(() => socket.serverAccept());
    await waitFor(() => expect(syncCalls(fetchMock)).toBe(2));
    act(() =>
      socket.serverSend({
        type: "session.started",
        sessionId: "s-new",
        fromSessionId: "s-1",
        version: 2,
      }),
    );
    const message = await screen.findByText(SESSION_STARTED_MESSAGE, { exact: false });
    expect(within(message).getByRole("link", { name: SESSION_STARTED_LINK })).toHaveAttribute(
      "href",
      "/session/s-new",
    );
    await waitFor(() => expect(syncCalls(fetchMock)).toBe(3));
  });

  it("tells a requester live that their request was declined or accepted, and refreshes the lists", async () => {
    signInAs();
    const ann = { _id: "u-ann", name: "Ann", avatar: "" };
    const familyShop = makeSession({ _id: "s-5", sessionName: "Family shop", creator: ann });
    const request = {
      sessionId: "s-5",
      sessionName: "Family shop",
      creator: { _id: "u-ann", name: "Ann" },
      requestedAt: "2026-11-26T09:30:00.000Z",
    };
    const state = { waiting: [request], sessions: [] as (typeof familyShop)[] };
    const fetchMock = stubFetch({
      "GET /api/auth/validate-token": () => json(200, { valid: true, user: testUser }),
      "GET /api/sessions/sync": () => json(200, { sessions: state.sessions, version: 1 }),
      "GET /api/sessions/my": () => json(200, { sessions: state.sessions, nextCursor: null }),
      "GET /api/sessions/myinvites": () => json(200, { invites: [] }),
      "GET /api/sessions/join-requests/mine": () => json(200, { requests: state.waiting }),
      "GET /api/sessions/s-5": () => json(200, { session: familyShop }),
      "POST /api/sessions/joinrequests": () => json(200, { requests: [] }),
    });
    const { user } = renderApp("/sessions");
    const waiting = await screen.findByRole("region", { name: "Waiting for approval" });
    const socket = FakeSocket.latest();
    act(() => socket.serverAccept());
    const myCalls = () => callsTo(fetchMock, "GET /api/sessions/join-requests/mine").length;
    await waitFor(() => expect(myCalls()).toBe(2));

    // Ann declines: the request leaves the list and the toast names the session.
    state.waiting = [];
    const member = { sessionId: "s-5", userId: testUser._id };
    act(() =>
      socket.serverSend({ type: "member.left", ...member, joinRequest: "rejected", version: 3 }),
    );
    expect(await screen.findByText(joinDeclinedMessage("Family shop"))).toBeInTheDocument();
    await waitFor(() => expect(waiting).not.toBeInTheDocument());
    expect(screen.queryByText(/accepted your request/)).not.toBeInTheDocument();

    // Asked again (another tab; any membership change refetches), then Ann accepts: the session is in my list, with a link to it.
    state.waiting = [request];
    act(() => socket.serverSend({ type: "member.left", sessionId: "s-9" }));
    const again = await screen.findByRole("region", { name: "Waiting for approval" });
    expect(within(again).getByText("Family shop")).toBeVisible();
    state.waiting = [];
    state.sessions = [familyShop];
    act(() =>
      socket.serverSend({ type: "member.joined", ...member, joinRequest: "approved", version: 5 }),
    );
    const accepted = await screen.findByText(joinAcceptedMessage("Ann", "Family shop"), {
      exact: false,
    });
    await waitFor(() =>
      expect(screen.getByRole("heading", { name: "You have (1) active Sessions" })).toBeVisible(),
    );
    await waitFor(() => expect(again).not.toBeInTheDocument());
    await user.click(within(accepted).getByRole("link", { name: JOIN_ACCEPTED_LINK }));
    await waitFor(() => expect(window.location.pathname).toBe("/session/s-5"));
  });

  it("says nothing of a withdrawal, nor of someone else's request", async () => {
    const { socket } = await openSessions();
    act(() => socket.serverAccept());
    act(() =>
      socket.serverSend({
        type: "member.left",
        sessionId: "s-1",
        userId: testUser._id,
        joinRequest: "withdrawn",
        version: 7,
      }),
    );
    act(() =>
      socket.serverSend({
        type: "member.joined",
        sessionId: "s-1",
        userId: "u-someone-else",
        joinRequest: "approved",
        version: 8,
      }),
    );
    act(() => socket.serverSend({ type: "joinrequest.created", sessionId: "s-1", version: 9 }));
    // The last event's toast shows that the earlier ones were handled, silently.
    expect(await screen.findByText(JOIN_REQUEST_MESSAGE)).toBeInTheDocument();
    expect(screen.queryByText(/your request to join/i)).not.toBeInTheDocument();
  });

  it("polls every 5 s only while the socket is not up, and says offline after a grace period", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { fetchMock, socket } = await openSessions();

    // The first socket is slow to open: the fallback poll runs, but a slow start is not offline.
    await act(() => vi.advanceTimersByTimeAsync(SESSION_SYNC_INTERVAL_MS));
    await waitFor(() => expect(syncCalls(fetchMock)).toBe(2));
    expect(screen.queryByText(OFFLINE_MESSAGE)).not.toBeInTheDocument();

    // Up: one refetch for what may have been missed, then no more polling.
    act(() => socket.serverAccept());
    expect(screen.queryByText(OFFLINE_MESSAGE)).not.toBeInTheDocument();
    await waitFor(() => expect(syncCalls(fetchMock)).toBe(3));
    await act(() => vi.advanceTimersByTimeAsync(3 * SESSION_SYNC_INTERVAL_MS));
    expect(syncCalls(fetchMock)).toBe(3);

    // Down again: a quick reconnect shows nothing, but polling resumes at once.
    act(() => socket.serverClose(1012));
    await act(() => vi.advanceTimersByTimeAsync(OFFLINE_GRACE_MS - 100));
    expect(screen.queryByText(OFFLINE_MESSAGE)).not.toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(200));
    expect(screen.getByText(OFFLINE_MESSAGE).closest("[role=status]")).toBeVisible();
    await act(() => vi.advanceTimersByTimeAsync(SESSION_SYNC_INTERVAL_MS));
    await waitFor(() => expect(syncCalls(fetchMock)).toBe(4));
    // Meanwhile the client has been trying again.
    expect(FakeSocket.instances.length).toBeGreaterThan(1);
  });

  it("moves to another instance on 1001 without saying offline, and refetches once there", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { fetchMock, socket } = await openSessions();
    act(() => socket.serverAccept());
    await waitFor(() => expect(syncCalls(fetchMock)).toBe(2));

    // The instance drains: a new socket within the jitter, and no pill even if it takes a while.
    act(() => socket.serverClose(LiveClose.GOING_AWAY));
    await act(() => vi.advanceTimersByTimeAsync(LIVE_MOVE_JITTER_MS));
    expect(FakeSocket.instances).toHaveLength(2);
    await act(() => vi.advanceTimersByTimeAsync(OFFLINE_GRACE_MS + 500));
    expect(screen.queryByText(OFFLINE_MESSAGE)).not.toBeInTheDocument();

    // Ready on the other instance: what changed while moving is refetched.
    const calls = syncCalls(fetchMock);
    act(() => FakeSocket.latest().serverAccept());
    await waitFor(() => expect(syncCalls(fetchMock)).toBe(calls + 1));
    expect(screen.queryByText(OFFLINE_MESSAGE)).not.toBeInTheDocument();
  });
});
