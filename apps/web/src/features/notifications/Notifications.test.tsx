import { beforeEach, describe, expect, it, vi } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import type { Notification, NotificationPreferences } from "@cartner/contract";
import { DEFAULT_NOTIFICATION_PREFERENCES } from "@cartner/contract";
import { json, stubFetch } from "../../test/fetch-stub.ts";
import { renderApp, signInAs, testUser } from "../../test/render-app.tsx";

const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();

function notification(over: Partial<Notification>): Notification {
  return {
    _id: "n-1",
    kind: "changes",
    sessionId: "s-1",
    title: "Changes in Weekly shop",
    body: "Ann added Wine to Weekly shop",
    url: "/cart/s-1",
    createdAt: minutesAgo(3),
    readAt: null,
    approval: null,
    ...over,
  };
}

/** A fake server holding the reader's notifications and choices, as the API answers them. */
function serve(initial: Notification[]) {
  let list = [...initial];
  let preferences: NotificationPreferences = structuredClone(DEFAULT_NOTIFICATION_PREFERENCES);
  const reads: unknown[] = [];
  const saved: unknown[] = [];
  const answer = () =>
    json(200, { notifications: list, unread: list.filter((n) => !n.readAt).length });
  const mock = stubFetch({
    "GET /api/auth/validate-token": () => json(200, { valid: true, user: testUser }),
    "GET /api/sessions/sync": () => json(200, { sessions: [], version: 1 }),
    "GET /api/sessions/my": () => json(200, { sessions: [] }),
    "GET /api/sessions/myinvites": () => json(200, { invites: [] }),
    "GET /api/orders": () => json(200, { orders: [] }),
    "GET /api/notifications": answer,
    "POST /api/notifications/read": ({ body }) => {
      reads.push(body);
      const b = body as { ids?: string[]; all?: true };
      const now = new Date().toISOString();
      list = list.map((n) =>
        !n.readAt && (b.all || b.ids?.includes(n._id)) ? { ...n, readAt: now } : n,
      );
      return json(200, { unread: list.filter((n) => !n.readAt).length });
    },
    "GET /api/users/me/notification-preferences": () => json(200, { preferences }),
    "PUT /api/users/me/notification-preferences": ({ body }) => {
      saved.push(body);
      preferences = body as NotificationPreferences;
      return json(200, { preferences });
    },
  });
  return {
    mock,
    reads,
    saved,
    add(n: Notification) {
      list = [n, ...list];
    },
  };
}

const bell = () => screen.findByRole("button", { name: /^Notifications, / });

beforeEach(() => {
  // Without a socket the app polls; the live refresh is tested with the live client.
  vi.stubGlobal("WebSocket", undefined);
  signInAs();
});

describe("the bell", () => {
  it("names the unread count and opens a panel listing the newest first, with time ago and unread marked", async () => {
    serve([
      notification({
        _id: "n-2",
        title: "Weekly shop was checked out",
        body: "Ann checked out Weekly shop: you owe $23.40",
        url: "/orders/o-1",
        kind: "checkout",
        createdAt: minutesAgo(1),
      }),
      notification({ _id: "n-1" }),
      notification({
        _id: "n-0",
        title: "You're in",
        body: "Ann let you into Picnic",
        url: "/session/s-2",
        createdAt: minutesAgo(120),
        readAt: minutesAgo(100),
      }),
    ]);
    const { user } = renderApp("/notifications");
    await waitFor(async () => expect(await bell()).toHaveAccessibleName("Notifications, 2 unread"));
    await user.click(await bell());
    const panel = await screen.findByRole("dialog", { name: "Notifications" });
    const links = within(panel)
      .getAllByRole("link")
      .filter((a) => a.closest("li"));
    expect(links.map((a) => a.getAttribute("href"))).toEqual([
      "/orders/o-1",
      "/cart/s-1",
      "/session/s-2",
    ]);
    expect(links[0]).toHaveTextContent("Unread: Weekly shop was checked out");
    expect(links[0]).toHaveTextContent("you owe $23.40");
    expect(links[0]).toHaveTextContent("1 min ago");
    expect(links[2]).not.toHaveTextContent("Unread");
    expect(links[2]).toHaveTextContent("2 h ago");
  });

  it("marks a notification read when its link is followed, and goes where it points", async () => {
    const server = serve([notification({})]);
    const { user } = renderApp("/notifications");
    await user.click(await bell());
    const panel = await screen.findByRole("dialog", { name: "Notifications" });
    await user.click(within(panel).getByRole("link", { name: /Ann added Wine/ }));
    await waitFor(() => expect(server.reads).toEqual([{ ids: ["n-1"] }]));
    await waitFor(() => expect(window.location.pathname).toBe("/cart/s-1"));
    await waitFor(async () =>
      expect(await bell()).toHaveAccessibleName("Notifications, none unread"),
    );
    expect(screen.queryByRole("dialog", { name: "Notifications" })).not.toBeInTheDocument();
  });

  it("marks all read", async () => {
    const server = serve([
      notification({ _id: "a" }),
      notification({ _id: "b", sessionId: "s-9" }),
    ]);
    const { user } = renderApp("/notifications");
    const main = await screen.findByRole("heading", { name: "Notifications", level: 1 });
    expect(main).toBeInTheDocument();
    await user.click(await screen.findByRole("button", { name: "Mark all read" }));
    await waitFor(() => expect(server.reads).toEqual([{ all: true }]));
    await waitFor(async () =>
      expect(await bell()).toHaveAccessibleName("Notifications, none unread"),
    );
    expect(screen.queryByRole("button", { name: "Mark all read" })).not.toBeInTheDocument();
  });

  it("shows that there is nothing yet", async () => {
    serve([]);
    renderApp("/notifications");
    expect(await screen.findByText(/Nothing yet/)).toBeInTheDocument();
  });
});

describe("notification settings", () => {
  it("shows the choices by kind and channel, and saves changes with quiet hours in the browser's time zone", async () => {
    const server = serve([]);
    const { user } = renderApp("/notifications");
    const card = await screen.findByRole("region", { name: "Notification settings" });
    const changesInApp = await within(card).findByRole("checkbox", {
      name: "Changes by others: In app",
    });
    expect(changesInApp).toBeChecked();
    expect(
      within(card).getByRole("checkbox", { name: "Changes by others: Push" }),
    ).not.toBeChecked();
    expect(within(card).getByRole("checkbox", { name: "Payments: Email" })).toBeChecked();
    expect(within(card).getByRole("checkbox", { name: "Membership: Email" })).not.toBeChecked();

    await user.click(changesInApp);
    await user.click(within(card).getByRole("checkbox", { name: "Quiet hours" }));
    const from = within(card).getByLabelText("From");
    await user.clear(from);
    await user.type(from, "23:00");
    expect(within(card).getByLabelText("Time zone")).toHaveValue(
      Intl.DateTimeFormat().resolvedOptions().timeZone,
    );
    await user.click(within(card).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(server.saved).toHaveLength(1));
    expect(server.saved[0]).toEqual({
      kinds: {
        ...DEFAULT_NOTIFICATION_PREFERENCES.kinds,
        changes: { inApp: false, push: false, email: false },
      },
      quietHours: {
        from: "23:00",
        to: "07:00",
        timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      },
    });
  });

  it("refuses quiet hours that start and end at once, and shows the server's refusal", async () => {
    const server = serve([]);
    const { user } = renderApp("/notifications");
    const card = await screen.findByRole("region", { name: "Notification settings" });
    await user.click(await within(card).findByRole("checkbox", { name: "Quiet hours" }));
    const to = within(card).getByLabelText("To");
    await user.clear(to);
    await user.type(to, "22:00");
    await user.click(within(card).getByRole("button", { name: "Save" }));
    expect(await within(card).findByRole("alert")).toHaveTextContent(
      "Quiet hours need a different start and end.",
    );
    expect(server.saved).toEqual([]);
  });
});
