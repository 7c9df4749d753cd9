/** "Download CSV" on My Orders (all of them) and on an order page (that one), with the token. */
import { afterEach, describe, expect, it, vi } from "vitest";
import { screen } from "@testing-library/react";
import { bearerOf, callsTo, json, stubFetch } from "../../test/fetch-stub.ts";
import { renderApp, signInAs, testUser } from "../../test/render-app.tsx";
import { makeOrder } from "../../test/test-orders.ts";

const csv = () =>
  new Response("\uFEFForder\r\n", { status: 200, headers: { "Content-Type": "text/csv" } });

function open(path: string) {
  signInAs();
  const mock = stubFetch({
    "GET /api/auth/validate-token": () => json(200, { valid: true, user: testUser }),
    "GET /api/sessions/sync": () => json(200, { sessions: [], version: 0 }),
    "GET /api/orders": () => json(200, { orders: [makeOrder()] }),
    "GET /api/orders/o-1": () => json(200, { order: makeOrder() }),
    "GET /api/orders/export.csv": csv,
    "GET /api/orders/o-1/export.csv": csv,
  });
  const saved: string[] = [];
  vi.stubGlobal(
    "URL",
    Object.assign(URL, { createObjectURL: () => "blob:csv", revokeObjectURL: () => {} }),
  );
  vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    saved.push(this.download);
  });
  return { ...renderApp(path), mock, saved };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("CSV downloads", () => {
  it("saves all of my orders from My Orders", async () => {
    const { user, mock, saved } = open("/orders");
    await user.click(await screen.findByRole("button", { name: "Download CSV" }));
    await vi.waitFor(() => expect(saved).toEqual(["cartner-orders.csv"]));
    const [call] = callsTo(mock, "GET /api/orders/export.csv");
    expect(bearerOf(call!)).toBe("Bearer token-1");
  });

  it("saves one order from its page", async () => {
    const { user, mock, saved } = open("/orders/o-1");
    await user.click(await screen.findByRole("button", { name: "Download CSV" }));
    await vi.waitFor(() => expect(saved).toEqual(["cartner-CRT-000007.csv"]));
    expect(callsTo(mock, "GET /api/orders/o-1/export.csv")).toHaveLength(1);
  });
});
