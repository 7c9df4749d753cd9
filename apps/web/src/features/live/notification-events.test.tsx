import { beforeEach, expect, it, vi } from "vitest";
import { act, screen, waitFor } from "@testing-library/react";
import type { Notification } from "@cartner/contract";
import { callsTo, json, stubFetch } from "../../test/fetch-stub.ts";
import { renderApp, signInAs, testUser } from "../../test/render-app.tsx";
import { FakeSocket, FakeWebSocket } from "../../test/fake-socket.ts";

beforeEach(() => {
  FakeSocket.reset();
  vi.stubGlobal("WebSocket", FakeWebSocket);
  signInAs();
});

it("refreshes the bell's count and the list when notification.created arrives", async () => {
  let list: Notification[] = [];
  const mock = stubFetch({
    "GET /api/auth/validate-token": () => json(200, { valid: true, user: testUser }),
    "GET /api/sessions/sync": () => json(200, { sessions: [], version: 1 }),
    "GET /api/users/me/notification-preferences": () => json(404, { message: "no", code: "X" }),
    "GET /api/notifications": () =>
      json(200, { notifications: list, unread: list.filter((n) => !n.readAt).length }),
  });
  renderApp("/notifications");
  const bell = () => screen.findByRole("button", { name: /^Notifications, / });
  await waitFor(async () =>
    expect(await bell()).toHaveAccessibleName("Notifications, none unread"),
  );
  await waitFor(() => expect(FakeSocket.instances).toHaveLength(1));
  const socket = FakeSocket.latest();
  act(() => socket.serverAccept());
  await waitFor(() => expect(callsTo(mock, "GET /api/notifications").length).toBeGreaterThan(1));
  list = [
    {
      _id: "n-new",
      kind: "changes",
      sessionId: "s-1",
      title: "Changes in Weekly shop",
      body: "Ben removed Milk from Weekly shop",
      url: "/cart/s-1",
      createdAt: new Date().toISOString(),
      readAt: null,
      approval: null,
    },
  ];
  act(() => socket.serverSend({ type: "notification.created", notificationId: "n-new" }));
  await waitFor(async () => expect(await bell()).toHaveAccessibleName("Notifications, 1 unread"));
  expect(await screen.findByText("Ben removed Milk from Weekly shop")).toBeInTheDocument();
});
