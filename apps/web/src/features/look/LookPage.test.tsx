import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { act, screen, within } from "@testing-library/react";
import { LiveClose } from "@cartner/contract";
import { json, stubFetch } from "../../test/fetch-stub.ts";
import { renderApp } from "../../test/render-app.tsx";
import { FakeSocket, FakeWebSocket } from "../../test/fake-socket.ts";

const TOKEN = "AbCdEfGhIjKlMnOpQrStUv";
const view = {
  sessionName: "Weekly shop",
  lines: [
    { name: "Sourdough", quantity: 2, imageUrl: "http://x/bread.svg", note: null },
    { name: "Candles", quantity: 1, imageUrl: "http://x/free-line.svg", note: "blue ones" },
  ],
  total: 12.5,
  updatedAt: "2026-11-29T10:00:00.000Z",
};

beforeEach(() => {
  FakeSocket.reset();
  vi.stubGlobal("WebSocket", FakeWebSocket);
});
afterEach(() => vi.unstubAllGlobals());

describe("a look-only link's page", () => {
  it("shows the list without an account, follows it live, and goes dark when the link is revoked", async () => {
    stubFetch({ [`GET /api/look/${TOKEN}`]: () => json(200, view) });
    renderApp(`/look/${TOKEN}`);
    expect(await screen.findByRole("heading", { name: "Weekly shop" })).toBeVisible();
    const list = screen.getByRole("list", { name: "Weekly shop" });
    expect(within(list).getAllByRole("listitem")).toHaveLength(2);
    expect(within(list).getByText("blue ones")).toBeVisible();
    expect(screen.getByTestId("look-total")).toHaveTextContent("12.50");
    const socket = FakeSocket.latest();
    expect(socket.url).toMatch(new RegExp(`/api/live\\?look=${TOKEN}$`));
    act(() => socket.serverAccept());
    expect(await screen.findByText("Live")).toBeVisible();
    // The socket sends nothing: no token, no account.
    expect(socket.sent).toEqual([]);

    act(() =>
      socket.serverSend({
        type: "look.view",
        view: {
          ...view,
          lines: [
            ...view.lines,
            { name: "Milk", quantity: 3, imageUrl: "http://x/m.svg", note: null },
          ],
          total: 15.1,
        },
      }),
    );
    expect(await within(list).findByText("Milk")).toBeVisible();
    expect(screen.getByTestId("look-total")).toHaveTextContent("15.10");

    act(() => socket.serverClose(LiveClose.LINK_GONE));
    expect(await screen.findByRole("heading", { name: "This link no longer works" })).toBeVisible();
    expect(screen.queryByText("Sourdough")).toBeNull();
    // It does not try again.
    expect(FakeSocket.instances).toHaveLength(1);
  });

  it("says plainly when the link does not work, and opens no socket", async () => {
    stubFetch({
      [`GET /api/look/${TOKEN}`]: () =>
        json(404, { code: "NOT_FOUND", message: "This link does not work any more." }),
    });
    renderApp(`/look/${TOKEN}`);
    expect(await screen.findByRole("heading", { name: "This link no longer works" })).toBeVisible();
    expect(screen.getByRole("alert")).toHaveTextContent(/Ask the person who sent it/);
    expect(FakeSocket.instances.every((s) => s.readyState === FakeSocket.CLOSED)).toBe(true);
  });
});
