import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import type { Notification } from "@cartner/contract";
import { callsTo, json, stubFetch } from "../../test/fetch-stub.ts";
import { renderApp, signInAs, testUser } from "../../test/render-app.tsx";
import { ben, makeCart, makeLine, products } from "../../test/test-carts.ts";

const TITLE = "Ben asks to add Toy car";

/** Ben's request for approval of his line l-1 in cart c-1, as the list reads it. */
function request(waiting: boolean, over: Partial<Notification> = {}): Notification {
  return {
    _id: "n-1",
    kind: "changes",
    title: TITLE,
    body: "Ben asks to add Toy car (1) to Weekly shop, over their budget: approve or decline it.",
    url: "/cart/s-1",
    createdAt: new Date(Date.now() - 60_000).toISOString(),
    readAt: null,
    approval: { cartId: "c-1", lineId: "l-1", waiting },
    ...over,
  };
}

/**
 * A fake server with the reader's notifications; deciding the line answers `decided` (a cart, or
 * a refusal), after which the list says the line no longer waits and the request is read.
 */
function serve(list: Notification[], decided: () => Response) {
  let notifications = list;
  const answer = () =>
    json(200, { notifications, unread: notifications.filter((n) => !n.readAt).length });
  const decide = () => {
    notifications = notifications.map((n) =>
      n.approval
        ? {
            ...n,
            readAt: n.readAt ?? new Date().toISOString(),
            approval: { ...n.approval, waiting: false },
          }
        : n,
    );
    return decided();
  };
  return stubFetch({
    "GET /api/auth/validate-token": () => json(200, { valid: true, user: testUser }),
    "GET /api/sessions/sync": () => json(200, { sessions: [], version: 1 }),
    "GET /api/sessions/my": () => json(200, { sessions: [] }),
    "GET /api/sessions/myinvites": () => json(200, { invites: [] }),
    "GET /api/orders": () => json(200, { orders: [] }),
    "GET /api/carts": () => json(200, { carts: [] }),
    "GET /api/notifications": answer,
    "POST /api/notifications/read": () => json(200, { unread: 0 }),
    "GET /api/users/me/notification-preferences": () =>
      json(404, { message: "Not found", code: "NOT_FOUND" }),
    "POST /api/carts/c-1/lines/l-1/approve": decide,
    "POST /api/carts/c-1/lines/l-1/decline": decide,
  });
}

const approvedCart = () =>
  json(200, { cart: makeCart([makeLine(ben, products.socks, 1)], { _id: "c-1" }) });

const bell = () => screen.findByRole("button", { name: /^Notifications, / });

beforeEach(() => {
  vi.stubGlobal("WebSocket", undefined);
  signInAs();
});
afterEach(() => vi.unstubAllGlobals());

describe("a request for approval in the notifications", () => {
  it("approves the line from the page: the cart's route, a toast, then Decided", async () => {
    const mock = serve([request(true)], approvedCart);
    const { user } = renderApp("/notifications");
    const list = await screen.findByRole("list", { name: "Notifications" });
    const approve = await within(list).findByRole("button", { name: `Approve: ${TITLE}` });
    expect(within(list).getByRole("button", { name: `Decline: ${TITLE}` })).toBeVisible();
    await user.click(approve);
    expect(await screen.findByText("Approved.")).toBeInTheDocument();
    expect(callsTo(mock, "POST /api/carts/c-1/lines/l-1/approve")).toHaveLength(1);
    expect(callsTo(mock, "POST /api/carts/c-1/lines/l-1/decline")).toHaveLength(0);
    expect(await within(list).findByText("Decided")).toBeVisible();
    expect(within(list).queryByRole("button", { name: /^Approve/ })).not.toBeInTheDocument();
    await waitFor(async () =>
      expect(await bell()).toHaveAccessibleName("Notifications, none unread"),
    );
  });

  it("declines from the bell's panel with the keyboard", async () => {
    const mock = serve([request(true)], approvedCart);
    const { user } = renderApp("/notifications");
    await user.click(await bell());
    const panel = await screen.findByRole("dialog", { name: "Notifications" });
    const decline = await within(panel).findByRole("button", { name: `Decline: ${TITLE}` });
    decline.focus();
    await user.keyboard("{Enter}");
    expect(await screen.findByText("Declined.")).toBeInTheDocument();
    expect(callsTo(mock, "POST /api/carts/c-1/lines/l-1/decline")).toHaveLength(1);
    expect(await within(panel).findByText("Decided")).toBeVisible();
  });

  it("shows the server's refusal (decided meanwhile), then Decided", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    serve([request(true)], () =>
      json(409, {
        message: "Toy car is not waiting for approval: there is nothing to decide.",
        code: "CONFLICT",
      }),
    );
    const { user } = renderApp("/notifications");
    const list = await screen.findByRole("list", { name: "Notifications" });
    await user.click(await within(list).findByRole("button", { name: `Approve: ${TITLE}` }));
    expect(
      await screen.findByText("Toy car is not waiting for approval: there is nothing to decide."),
    ).toBeInTheDocument();
    expect(screen.queryByText("Approved.")).not.toBeInTheDocument();
    expect(await within(list).findByText("Decided")).toBeVisible();
  });

  it("says Decided, without buttons, for a line that no longer waits; others have neither", async () => {
    serve(
      [
        request(false),
        request(false, {
          _id: "n-0",
          title: "Changes in Weekly shop",
          body: "Ann added Wine",
          approval: null,
        }),
      ],
      approvedCart,
    );
    renderApp("/notifications");
    const list = await screen.findByRole("list", { name: "Notifications" });
    const items = await within(list).findAllByRole("listitem");
    expect(within(items[0]!).getByText("Decided")).toBeVisible();
    expect(within(list).queryByRole("button", { name: /Approve|Decline/ })).not.toBeInTheDocument();
    expect(within(items[1]!).queryByText("Decided")).not.toBeInTheDocument();
  });
});
