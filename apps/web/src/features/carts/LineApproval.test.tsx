import { afterEach, describe, expect, it, vi } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import type { Cart } from "@cartner/contract";
import { callsTo, json, stubFetch } from "../../test/fetch-stub.ts";
import { renderApp, signInAs, testUser } from "../../test/render-app.tsx";
import { ben, makeCart, makeLine, member, products } from "../../test/test-carts.ts";
import { withTotals } from "./cart-model.ts";

const ann = { _id: "a0000000-0000-4000-8000-000000000001", name: "Ann Archer" };
const waiting = { requestedAt: "2025-05-02T10:00:00.000Z", message: null };

/** A cart where Ben's socks wait for approval; the test user is `role`, an approver or not. */
function cartWithWaitingLine(role: "creator" | "participant", approver = false): Cart {
  const creator = role === "creator" ? testUser : ann;
  const cart = makeCart([], {
    creator,
    members: [
      member(creator, "creator"),
      ...(role === "creator" ? [] : [member(testUser, role)]),
      member(ben, "participant"),
    ],
  });
  const lines = [
    makeLine(testUser, products.mug, 1),
    makeLine(ben, products.socks, 2, { pending: waiting }),
  ];
  const withLines = withTotals(cart, lines);
  return {
    ...withLines,
    sessionId: { ...withLines.sessionId, approvers: approver ? [testUser._id] : [] },
  };
}

function open(cart: Cart, routes: Parameters<typeof stubFetch>[0] = {}) {
  signInAs(testUser);
  const fetchMock = stubFetch({
    "GET /api/auth/validate-token": () => json(200, { valid: true, user: testUser }),
    "GET /api/sessions/sync": () => json(200, { sessions: [], version: 0 }),
    "GET /api/carts": () => json(200, { carts: [cart] }),
    ...routes,
  });
  return { ...renderApp("/cart"), fetchMock };
}

afterEach(() => vi.unstubAllGlobals());

/** The cart table's row of a line, by its product's name. */
async function rowOf(name: string): Promise<HTMLElement> {
  const rows = await screen.findAllByRole("row");
  return rows.find((row) => within(row).queryByText(name) !== null)!;
}

describe("lines waiting for approval", () => {
  it("shows the line as waiting, counted apart from the total, with no decision for others", async () => {
    const cart = cartWithWaitingLine("participant");
    open(cart);
    const row = await rowOf(products.socks.name);
    expect(within(row).getByText("Waiting for approval")).toBeVisible();
    expect(within(row).queryByRole("button", { name: /Approve/ })).not.toBeInTheDocument();
    expect(cart.totalPrice).toBe(products.mug.price);
    expect(screen.getByText(/waiting for approval, not counted/)).toBeVisible();
  });

  it.each([
    ["the creator", "creator", false],
    ["an approver", "participant", true],
  ] as const)("lets %s approve it with a message", async (_who, role, approver) => {
    const cart = cartWithWaitingLine(role, approver);
    const line = cart.products[1]!;
    const approved = withTotals(
      cart,
      cart.products.map((l) => (l._id === line._id ? { ...l, pending: null } : l)),
    );
    const { user, fetchMock } = open(cart, {
      [`POST /api/carts/${cart._id}/lines/${line._id}/approve`]: () =>
        json(200, { cart: approved }),
    });
    const row = await rowOf(products.socks.name);
    await user.type(
      within(row).getByRole("textbox", { name: /Message to Ben Brown/ }),
      "Just this once",
    );
    await user.click(within(row).getByRole("button", { name: `Approve ${products.socks.name}` }));
    await waitFor(() =>
      expect(
        callsTo(fetchMock, `POST /api/carts/${cart._id}/lines/${line._id}/approve`),
      ).toHaveLength(1),
    );
    const [call] = callsTo(fetchMock, `POST /api/carts/${cart._id}/lines/${line._id}/approve`);
    expect(JSON.parse(String(call!.body))).toEqual({ message: "Just this once" });
    expect(await screen.findByText(`${products.socks.name} approved`)).toBeVisible();
  });

  it("declines it without a message", async () => {
    const cart = cartWithWaitingLine("creator");
    const line = cart.products[1]!;
    const { user, fetchMock } = open(cart, {
      [`POST /api/carts/${cart._id}/lines/${line._id}/decline`]: () =>
        json(200, { cart: withTotals(cart, [cart.products[0]!]) }),
    });
    const row = await rowOf(products.socks.name);
    await user.click(within(row).getByRole("button", { name: `Decline ${products.socks.name}` }));
    await waitFor(() =>
      expect(
        callsTo(fetchMock, `POST /api/carts/${cart._id}/lines/${line._id}/decline`),
      ).toHaveLength(1),
    );
    const [call] = callsTo(fetchMock, `POST /api/carts/${cart._id}/lines/${line._id}/decline`);
    expect(JSON.parse(String(call!.body))).toEqual({});
  });
});
