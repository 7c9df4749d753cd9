import { afterEach, describe, expect, it, vi } from "vitest";
import { act, screen, waitFor, within } from "@testing-library/react";
import { onlineManager } from "@tanstack/react-query";
import type { Cart, CartLine, Deadline } from "@cartner/contract";
import { closedText, closesText } from "../../shared/deadline-text.ts";
import { callsTo, json, stubFetch, type StubHandler } from "../../test/fetch-stub.ts";
import { renderApp, signInAs, testUser } from "../../test/render-app.tsx";
import { ben, cleo, makeCart, makeLine, member, products } from "../../test/test-carts.ts";
import { makeOrder, withShareStatus } from "../../test/test-orders.ts";

function openCart(
  carts: Cart[],
  {
    path = "/cart",
    routes = {},
    as = testUser,
  }: { path?: string; routes?: Record<string, StubHandler>; as?: typeof testUser } = {},
) {
  signInAs(as);
  const state = { carts };
  const fetchMock = stubFetch({
    "GET /api/auth/validate-token": () => json(200, { valid: true, user: as }),
    "GET /api/sessions/sync": () => json(200, { sessions: [], version: 0 }),
    "GET /api/carts": () => json(200, { carts: state.carts }),
    ...routes,
  });
  return { ...renderApp(path), fetchMock, state };
}

const section = (name: string) => screen.getByRole("region", { name });
const controlsIn = (scope: HTMLElement) =>
  within(scope)
    .queryAllByRole("button")
    .map((button) => button.getAttribute("aria-label") ?? button.textContent?.trim())
    .filter((label) => /quantity|Remove/.test(label ?? ""));

/** Ann's cart with Ben's and Ada's (the test user's) lines; the test user has `role`. */
function sharedCart(role: "creator" | "participant" | "viewer") {
  const ann = { _id: "a0000000-0000-4000-8000-000000000001", name: "Ann Archer" };
  const creator = role === "creator" ? testUser : ann;
  const lines = [makeLine(testUser, products.mug, 2), makeLine(ben, products.socks, 1)];
  return makeCart(lines, {
    creator,
    members: [
      member(creator, "creator"),
      ...(role === "creator" ? [] : [member(testUser, role)]),
      member(ben, "participant"),
      member(cleo, "pending"),
    ],
  });
}

/** Confirms the removal of someone else's (or a shared) line in its dialog. */
async function confirmRemoval(user: { click: (el: Element) => Promise<void> }, title: string) {
  const dialog = await screen.findByRole("dialog", { name: title });
  await user.click(within(dialog).getByRole("button", { name: "Remove" }));
}

function withName(cart: Cart, sessionName: string): Cart {
  return { ...cart, sessionId: { ...cart.sessionId, sessionName } };
}

describe("cart page", () => {
  it("shows the header, the banner and each cart's creator and participant count", async () => {
    const mine = withName(sharedCart("creator"), "Weekend groceries");
    const theirs = withName(
      { ...sharedCart("participant"), updatedAt: "2025-05-01T09:00:00.000Z" },
      "",
    );
    openCart([mine, theirs]);

    expect(await screen.findByText("You have 2 active cart(s).")).toBeVisible();
    expect(screen.getByRole("heading", { level: 1, name: "My Cart" })).toBeVisible();
    const links = within(screen.getByRole("navigation", { name: "Related pages" }));
    expect(links.getByRole("link", { name: "Home" })).toHaveAttribute("href", "/");
    expect(links.getByRole("link", { name: "Cart History" })).toHaveAttribute(
      "href",
      "/cart-history",
    );
    expect(screen.getByRole("link", { name: "Continue Shopping" })).toHaveAttribute(
      "href",
      "/products",
    );

    const first = section("Weekend groceries");
    expect(within(first).getByText("Creator: You · Participants: 2")).toBeVisible();
    const second = section("Untitled Session");
    expect(within(second).getByText("Creator: Ann Archer · Participants: 3")).toBeVisible();

    // The first cart is open, the other collapsed.
    expect(
      within(first).getByRole("button", { name: "Items in Weekend groceries" }),
    ).toHaveAttribute("aria-expanded", "true");
    expect(
      within(second).getByRole("button", { name: "Items in Untitled Session" }),
    ).toHaveAttribute("aria-expanded", "false");
    expect(within(first).getByRole("columnheader", { name: "Remove" })).toBeInTheDocument();
    expect(within(first).getByText("Color: Sage")).toBeVisible();
    expect(within(first).getByText(/^Added by Ben Brown on /)).toBeVisible();
  });

  it("opens the cart of the route's session first", async () => {
    const newer = withName(sharedCart("creator"), "Newer");
    const older = withName(
      { ...sharedCart("creator"), updatedAt: "2025-04-01T09:00:00.000Z" },
      "Older",
    );
    const { user } = openCart([older, newer], { path: `/cart/${older.sessionId._id}` });
    const toggle = await screen.findByRole("button", { name: "Items in Older" });
    expect(toggle).toHaveAttribute("aria-expanded", "true");
    expect(screen.getByRole("button", { name: "Items in Newer" })).toHaveAttribute(
      "aria-expanded",
      "false",
    );
    // Carts stay newest first.
    const names = screen.getAllByRole("heading", { level: 2 }).map((h) => h.textContent);
    expect(names.slice(0, 2)).toEqual(["Newer", "Older"]);

    await user.click(toggle);
    expect(toggle).toHaveAttribute("aria-expanded", "false");
    expect(within(section("Older")).queryByRole("table")).not.toBeInTheDocument();
  });

  it.each([
    [
      "creator",
      [
        "Decrease quantity of Stoneware Mug",
        "Increase quantity of Stoneware Mug",
        "Remove Stoneware Mug",
        "Decrease quantity of Wool Socks",
        "Increase quantity of Wool Socks",
        "Remove Wool Socks",
      ],
      true,
    ],
    [
      "participant",
      [
        "Decrease quantity of Stoneware Mug",
        "Increase quantity of Stoneware Mug",
        "Remove Stoneware Mug",
      ],
      false,
    ],
    ["viewer", [], false],
  ] as const)("offers a %s only the controls the role may use", async (role, expected, manages) => {
    openCart([withName(sharedCart(role), "Party")]);
    const cart = await screen.findByRole("region", { name: "Party" });
    expect(controlsIn(cart)).toEqual(expected);
    expect(within(cart).queryByRole("button", { name: "Clear Cart Party" }) !== null).toBe(manages);
    expect(within(cart).queryByRole("button", { name: "End Session Party" }) !== null).toBe(
      manages,
    );
    // Minus is not offered below 1: Ben's socks are at 1.
    if (role === "creator") {
      expect(
        within(cart).getByRole("button", { name: "Decrease quantity of Wool Socks" }),
      ).toBeDisabled();
    }
  });

  it("changes a quantity at once, with the creator naming the line", async () => {
    const cart = withName(sharedCart("creator"), "Party");
    const bens = cart.products[1]!;
    let answer: (response: Response) => void = () => undefined;
    const { user, fetchMock, state } = openCart([cart], {
      routes: {
        [`PATCH /api/carts/${cart._id}/quantity`]: () =>
          new Promise<Response>((resolve) => {
            answer = resolve;
          }),
      },
    });
    const region = await screen.findByRole("region", { name: "Party" });
    await user.click(
      within(region).getByRole("button", { name: "Increase quantity of Wool Socks" }),
    );
    // Shown before the server answers.
    expect(within(region).getAllByText("$51.96").length).toBeGreaterThan(0);
    const updated = {
      ...cart,
      products: [cart.products[0]!, { ...bens, quantity: 2, lineTotal: 25.98 }],
      totalPrice: 51.96,
      itemCount: 4,
    };
    state.carts = [updated];
    answer(json(200, { cart: updated }));
    await waitFor(() =>
      expect(callsTo(fetchMock, `PATCH /api/carts/${cart._id}/quantity`)).toHaveLength(1),
    );
    const [call] = callsTo(fetchMock, `PATCH /api/carts/${cart._id}/quantity`);
    expect(JSON.parse(String(call?.body))).toEqual({
      productId: bens.productId._id,
      change: 1,
      lineId: bens._id,
    });
  });

  it("rolls an optimistic quantity change back with a toast when the server refuses", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const cart = withName(sharedCart("participant"), "Party");
    let answer: (response: Response) => void = () => undefined;
    const { user } = openCart([cart], {
      routes: {
        [`PATCH /api/carts/${cart._id}/quantity`]: () =>
          new Promise<Response>((resolve) => {
            answer = resolve;
          }),
      },
    });
    const region = await screen.findByRole("region", { name: "Party" });
    const row = () => within(region).getByRole("row", { name: /Stoneware Mug/ });
    expect(within(row()).getByText("2")).toBeInTheDocument();
    expect(within(row()).getByText("$25.98")).toBeInTheDocument();

    await user.click(
      within(region).getByRole("button", { name: "Increase quantity of Stoneware Mug" }),
    );
    // Shown before the server answers.
    expect(within(row()).getByText("3")).toBeInTheDocument();
    expect(within(row()).getByText("$38.97")).toBeInTheDocument();

    answer(
      json(409, { message: "Only 2 in stock, and 2 already in this cart.", code: "CONFLICT" }),
    );
    expect(
      await screen.findByText("Only 2 in stock, and 2 already in this cart."),
    ).toBeInTheDocument();
    await waitFor(() => expect(within(row()).getByText("2")).toBeInTheDocument());
    expect(within(row()).getByText("$25.98")).toBeInTheDocument();
  });

  describe("offline", () => {
    afterEach(() => onlineManager.setOnline(true));

    it("queues changes made offline as pending, and sends them in order, keyed, once back", async () => {
      const cart = withName(sharedCart("creator"), "Party");
      const [mug, socks] = cart.products;
      const { user, fetchMock } = openCart([cart], {
        routes: {
          [`PATCH /api/carts/${cart._id}/quantity`]: () => json(200, { cart }),
          [`DELETE /api/carts/${cart._id}/product/${socks!.productId._id}`]: () =>
            json(200, { cart }),
        },
      });
      const region = await screen.findByRole("region", { name: "Party" });
      act(() => onlineManager.setOnline(false));
      await user.click(
        within(region).getByRole("button", { name: "Increase quantity of Stoneware Mug" }),
      );
      await user.click(within(region).getByRole("button", { name: "Remove Wool Socks" }));
      await confirmRemoval(user, "Remove Ben Brown's Wool Socks?");

      expect(
        await screen.findByText(
          "You're offline: the change is saved and will be sent when you're back.",
        ),
      ).toBeVisible();
      const row = within(region).getByRole("row", { name: /Stoneware Mug/ });
      expect(within(row).getByText("Pending: waiting for connection")).toBeVisible();
      expect(within(row).getByText("3")).toBeVisible();
      expect(within(region).queryByRole("row", { name: /Wool Socks/ })).toBeNull();
      const writes = () =>
        fetchMock.mock.calls.filter(([, init]) => init?.method && init.method !== "GET");
      expect(writes()).toHaveLength(0);

      act(() => onlineManager.setOnline(true));
      await waitFor(() => expect(writes()).toHaveLength(2));
      const [step, remove] = writes();
      expect(String(step![0])).toContain("/quantity");
      expect(JSON.parse(String(step![1]!.body))).toEqual({
        productId: mug!.productId._id,
        change: 1,
        lineId: mug!._id,
      });
      expect(String(remove![0])).toContain(`lineId=${socks!._id}`);
      const keys = writes().map(([, init]) => new Headers(init!.headers).get("Idempotency-Key"));
      expect(new Set(keys).size).toBe(2);
      for (const key of keys) expect(key).toMatch(/^[0-9a-f-]{36}$/);
      await waitFor(() =>
        expect(within(region).queryByText("Pending: waiting for connection")).toBeNull(),
      );
    });

    it("rolls a queued change back with the server's reason when it is refused on replay", async () => {
      vi.spyOn(console, "error").mockImplementation(() => undefined);
      const cart = withName(sharedCart("creator"), "Party");
      const { user } = openCart([cart], {
        routes: {
          [`PATCH /api/carts/${cart._id}/quantity`]: () =>
            json(404, { message: "That item is no longer in this cart.", code: "NOT_FOUND" }),
        },
      });
      const region = await screen.findByRole("region", { name: "Party" });
      act(() => onlineManager.setOnline(false));
      await user.click(
        within(region).getByRole("button", { name: "Increase quantity of Wool Socks" }),
      );
      const row = () => within(region).getByRole("row", { name: /Wool Socks/ });
      expect(within(row()).getByText("2")).toBeVisible();

      act(() => onlineManager.setOnline(true));
      expect(await screen.findByText("Could not change the quantity of Wool Socks.")).toBeVisible();
      expect(screen.getByText("That item is no longer in this cart.")).toBeVisible();
      await waitFor(() => expect(within(row()).getByText("1")).toBeVisible());
      expect(within(row()).queryByText("Pending: waiting for connection")).toBeNull();
    });
  });

  it("removes a line at once and puts it back when the server refuses", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const cart = withName(sharedCart("creator"), "Party");
    const socks = cart.products[1]!;
    const { user, fetchMock } = openCart([cart], {
      routes: {
        [`DELETE /api/carts/${cart._id}/product/${socks.productId._id}`]: () =>
          json(403, { message: "You can change only the items you added.", code: "FORBIDDEN" }),
      },
    });
    const region = await screen.findByRole("region", { name: "Party" });
    await user.click(within(region).getByRole("button", { name: "Remove Wool Socks" }));
    await confirmRemoval(user, "Remove Ben Brown's Wool Socks?");
    expect(await screen.findByText("You can change only the items you added.")).toBeVisible();
    const items = within(region).getByRole("table", { name: "Items in Party" });
    expect(within(items).getByText("Wool Socks")).toBeVisible();
    const [call] = fetchMock.mock.calls.filter(([input]) => String(input).includes("/product/"));
    expect(String(call?.[0])).toContain(`lineId=${socks._id}`);
  });

  it("clears a cart after the confirmation, with SPEC's toasts", async () => {
    const cart = withName(sharedCart("creator"), "Party");
    let fail = true;
    const { user, state } = openCart([cart], {
      routes: {
        [`DELETE /api/carts/${cart._id}/clear`]: () => {
          if (fail) return json(500, { message: "Database unavailable", code: "INTERNAL_ERROR" });
          const cleared = { ...cart, products: [], totalPrice: 0, itemCount: 0 };
          state.carts = [cleared];
          return json(200, { message: "Cart cleared", cart: cleared });
        },
      },
    });
    const region = await screen.findByRole("region", { name: "Party" });
    await user.click(within(region).getByRole("button", { name: "Clear Cart Party" }));
    let dialog = screen.getByRole("dialog", { name: "Clear all products from this cart?" });
    await user.click(within(dialog).getByRole("button", { name: "Clear Cart" }));
    expect(await screen.findByText("Failed to clear cart.")).toBeVisible();

    fail = false;
    await user.click(within(region).getByRole("button", { name: "Clear Cart Party" }));
    dialog = screen.getByRole("dialog", { name: "Clear all products from this cart?" });
    await user.click(within(dialog).getByRole("button", { name: "Clear Cart" }));
    expect(await screen.findByText("Cart cleared successfully.")).toBeVisible();
    expect(await within(region).findByText("This cart is empty.")).toBeVisible();
  });

  it("ends the session with End Session and the lobby's confirm; cancelling keeps it", async () => {
    const cart = withName(sharedCart("creator"), "Party");
    const sessionId = cart.sessionId._id;
    const { user, fetchMock, state } = openCart([cart], {
      routes: {
        [`PUT /api/sessions/${sessionId}/end`]: () => {
          state.carts = [];
          return json(200, { message: "Session ended", sessionId });
        },
      },
    });
    const region = await screen.findByRole("region", { name: "Party" });
    expect(within(region).queryByRole("button", { name: /Delete/ })).toBeNull();
    await user.click(within(region).getByRole("button", { name: "End Session Party" }));
    const dialog = screen.getByRole("dialog", { name: "End “Party”?" });
    expect(dialog).toHaveTextContent("The session ends for everyone");
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(callsTo(fetchMock, `PUT /api/sessions/${sessionId}/end`)).toHaveLength(0);

    await user.click(within(region).getByRole("button", { name: "End Session Party" }));
    await user.click(
      within(screen.getByRole("dialog", { name: "End “Party”?" })).getByRole("button", {
        name: "End Session",
      }),
    );
    expect(await screen.findByText("Session ended")).toBeVisible();
    expect(await screen.findByText("You have no carts yet.")).toBeVisible();
    expect(screen.getByText("You have 0 active cart(s).")).toBeVisible();
    expect(callsTo(fetchMock, `DELETE /api/carts/${cart._id}`)).toHaveLength(0);
  });

  describe("removing a line", () => {
    afterEach(() => onlineManager.setOnline(true));

    /** Ben's socks, shared by Ben and the test user, and the test user's own mug. */
    function cartWithSharedSocks(role: "creator" | "participant") {
      const cart = withName(sharedCart(role), "Party");
      const [mug, socks] = cart.products as [CartLine, CartLine];
      const shared = { ...socks, sharedWith: [ben, { _id: testUser._id, name: testUser.name }] };
      return { cart: { ...cart, products: [mug, shared] }, mug, socks: shared };
    }

    it("asks before removing someone else's line, naming it and whose it is", async () => {
      const { cart, socks } = cartWithSharedSocks("creator");
      const remove = `DELETE /api/carts/${cart._id}/product/${socks.productId._id}`;
      const { user, fetchMock } = openCart([cart], {
        routes: { [remove]: () => json(200, { cart: { ...cart, products: [cart.products[0]] } }) },
      });
      const region = await screen.findByRole("region", { name: "Party" });
      await user.click(within(region).getByRole("button", { name: "Remove Wool Socks" }));
      const dialog = screen.getByRole("dialog", { name: "Remove Ben Brown's Wool Socks?" });
      expect(dialog).toHaveAccessibleDescription(
        "Ben Brown added it; it is shared with you. You can undo this for a few seconds after.",
      );
      await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
      expect(within(region).getByRole("row", { name: /Wool Socks/ })).toBeVisible();
      expect(callsTo(fetchMock, remove)).toHaveLength(0);

      await user.click(within(region).getByRole("button", { name: "Remove Wool Socks" }));
      await confirmRemoval(user, "Remove Ben Brown's Wool Socks?");
      await waitFor(() => expect(callsTo(fetchMock, remove)).toHaveLength(1));
      expect(await screen.findByText("Removed Ben Brown's Wool Socks.")).toBeVisible();
    });

    it("asks before removing one's own line that others share", async () => {
      const cart = withName(sharedCart("participant"), "Party");
      const mug = { ...cart.products[0]!, sharedWith: [{ _id: testUser._id, name: "Ada" }, ben] };
      const { user } = openCart([{ ...cart, products: [mug, cart.products[1]!] }]);
      const region = await screen.findByRole("region", { name: "Party" });
      await user.click(within(region).getByRole("button", { name: "Remove Stoneware Mug" }));
      const dialog = screen.getByRole("dialog", { name: "Remove your Stoneware Mug?" });
      expect(dialog).toHaveAccessibleDescription(
        "You added it; it is shared with Ben Brown. You can undo this for a few seconds after.",
      );
    });

    it("removes one's own unshared line at once; Undo puts it back through the server", async () => {
      const { cart, mug } = cartWithSharedSocks("participant");
      const without = { ...cart, products: [cart.products[1]!] };
      const { user, fetchMock, state } = openCart([cart], {
        routes: {
          [`DELETE /api/carts/${cart._id}/product/${mug.productId._id}`]: () => {
            state.carts = [without];
            return json(200, { cart: without });
          },
          [`POST /api/carts/${cart._id}/lines/${mug._id}/restore`]: () => {
            state.carts = [cart];
            return json(200, { cart });
          },
        },
      });
      const region = await screen.findByRole("region", { name: "Party" });
      await user.click(within(region).getByRole("button", { name: "Remove Stoneware Mug" }));
      expect(screen.queryByRole("dialog")).toBeNull();
      await waitFor(() => expect(within(region).queryByRole("row", { name: /Mug/ })).toBeNull());
      expect(await screen.findByText("Removed your Stoneware Mug.")).toBeVisible();
      await waitFor(() =>
        expect(
          callsTo(fetchMock, `DELETE /api/carts/${cart._id}/product/${mug.productId._id}`),
        ).toHaveLength(1),
      );

      await user.click(screen.getByRole("button", { name: "Undo" }));
      expect(await within(region).findByRole("row", { name: /Stoneware Mug/ })).toBeVisible();
      const [restore] = callsTo(fetchMock, `POST /api/carts/${cart._id}/lines/${mug._id}/restore`);
      expect(new Headers(restore!.headers).get("Idempotency-Key")).toMatch(/^[0-9a-f-]{36}$/);
      await waitFor(() => expect(within(region).queryByText(/Saving|Pending/)).toBeNull());
    });

    it("offline, Undo takes the queued removal back: nothing is sent", async () => {
      const { cart } = cartWithSharedSocks("participant");
      const { user, fetchMock } = openCart([cart]);
      const region = await screen.findByRole("region", { name: "Party" });
      act(() => onlineManager.setOnline(false));
      await user.click(within(region).getByRole("button", { name: "Remove Stoneware Mug" }));
      expect(within(region).queryByRole("row", { name: /Stoneware Mug/ })).toBeNull();
      await user.click(await screen.findByRole("button", { name: "Undo" }));
      expect(await within(region).findByRole("row", { name: /Stoneware Mug/ })).toBeVisible();
      expect(within(region).queryByText("Pending: waiting for connection")).toBeNull();

      act(() => onlineManager.setOnline(true));
      await new Promise((resolve) => setTimeout(resolve, 50));
      const writes = fetchMock.mock.calls.filter(
        ([, init]) => init?.method && init.method !== "GET",
      );
      expect(writes).toHaveLength(0);
    });
  });

  it("shows the order summary card and goes on to the session summary", async () => {
    const line = makeLine(testUser, products.mug, 3);
    const cart = withName(makeCart([line]), "Party");
    const { user } = openCart([cart]);
    const summary = await screen.findByRole("region", { name: "Order Summary for Party" });
    const figures = within(summary)
      .getAllByRole("definition")
      .map((dd) => dd.textContent);
    expect(figures).toEqual(["$38.97", "$0.39", "$5.12", "$44.48"]);
    await user.click(
      within(summary).getByRole("button", { name: "Proceed to Checkout for Party" }),
    );
    await waitFor(() =>
      expect(window.location.pathname).toBe(`/session-summary/${cart.sessionId._id}`),
    );
  });

  it("says the cart total is before fees and tax, and the shares include them", async () => {
    const cart = withName(makeCart([makeLine(testUser, products.mug, 3)]), "Party");
    openCart([cart]);
    const party = await screen.findByRole("region", { name: "Party" });
    expect(within(party).getByText("Cart total").closest("div")?.parentElement).toHaveTextContent(
      "Cart total · 3 items$38.97Before fees and tax",
    );
    const shares = within(party).getByRole("list", { name: "Running totals" });
    expect(shares).toHaveAccessibleDescription("Each share includes its part of the fees and tax.");
    expect(within(shares).getByText("$44.48")).toBeVisible();
  });

  it("alerts 'Session ID is missing.' when the cart has no session id", async () => {
    const alert = vi.spyOn(window, "alert").mockImplementation(() => undefined);
    const cart = makeCart([makeLine(testUser, products.tea)]);
    const broken = { ...cart, sessionId: { ...cart.sessionId, _id: "", sessionName: "Odd" } };
    const { user } = openCart([broken]);
    const summary = await screen.findByRole("region", { name: "Order Summary for Odd" });
    await user.click(within(summary).getByRole("button", { name: "Proceed to Checkout for Odd" }));
    expect(alert).toHaveBeenCalledWith("Session ID is missing.");
  });

  it("says so when there are no carts, with a way to the sessions", async () => {
    openCart([]);
    expect(await screen.findByText("You have no carts yet.")).toBeVisible();
    expect(screen.getByText("You have 0 active cart(s).")).toBeVisible();
    expect(screen.getByRole("link", { name: "Go to sessions" })).toHaveAttribute(
      "href",
      "/sessions",
    );
  });

  describe("a checked-out session's cart", () => {
    /** Ben's view: Ada checked out and is the payee; Ben's share is still open. */
    function openCheckedOut(as: typeof testUser = { ...ben, email: "ben@example.com", roles: [] }) {
      const ended = makeCart([makeLine(testUser, products.mug, 2)], { status: "completed" });
      const sessionId = ended.sessionId._id;
      const order = makeOrder({ sessionId });
      const state = { order };
      const app = openCart([], {
        path: `/cart/${sessionId}`,
        as,
        routes: {
          [`GET /api/sessions/${sessionId}/cart`]: () =>
            json(200, { cart: { ...ended, sessionId: { ...ended.sessionId, status: "ended" } } }),
          "GET /api/orders": () => json(200, { orders: [state.order] }),
          "POST /api/orders/o-1/paid": () => {
            state.order = withShareStatus(state.order, ben._id, "paid");
            return json(200, { order: state.order });
          },
        },
      });
      return { ...app, order };
    }

    it("shows the order with my share and the pay button instead of 'no carts'", async () => {
      const { user, order, fetchMock } = openCheckedOut();
      const card = await screen.findByRole("region", { name: `Order ${order.number}` });
      expect(within(card).getByText("Your share $14.84")).toBeVisible();
      expect(within(card).getByText("Unpaid")).toBeVisible();
      expect(
        within(card).getByRole("link", { name: `View order ${order.number}` }),
      ).toHaveAttribute("href", "/orders/o-1");
      expect(screen.queryByText("You have no carts yet.")).not.toBeInTheDocument();

      await user.click(within(card).getByRole("button", { name: "I've paid my share" }));
      expect(await within(card).findByText("Paid, awaiting confirmation")).toBeVisible();
      expect(within(card).queryByRole("button", { name: "I've paid my share" })).toBeNull();
      expect(callsTo(fetchMock, "POST /api/orders/o-1/paid")).toHaveLength(1);
    });

    it("offers the payee a link to the order, not a pay button", async () => {
      const { order } = openCheckedOut(testUser);
      const card = await screen.findByRole("region", { name: `Order ${order.number}` });
      expect(within(card).getByText("Your share $29.65")).toBeVisible();
      expect(within(card).getByText("Paid the shop")).toBeVisible();
      expect(within(card).queryByRole("button", { name: "I've paid my share" })).toBeNull();
      expect(
        within(card).getByRole("link", { name: `View order ${order.number}` }),
      ).toBeInTheDocument();
    });

    it("says an ended session without an order is in Cart History", async () => {
      const ended = makeCart([], { status: "completed" });
      openCart([], {
        path: `/cart/${ended.sessionId._id}`,
        routes: {
          [`GET /api/sessions/${ended.sessionId._id}/cart`]: () =>
            json(200, { cart: { ...ended, sessionId: { ...ended.sessionId, status: "ended" } } }),
          "GET /api/orders": () => json(200, { orders: [] }),
        },
      });
      expect(await screen.findByText(/has ended, so its cart is read-only now/)).toBeVisible();
      expect(screen.getByText("You have no carts yet.")).toBeVisible();
    });
  });

  it("shows an error with a retry", async () => {
    let fail = true;
    const { user } = openCart([], {
      routes: {
        "GET /api/carts": () =>
          fail
            ? json(500, { message: "Database unavailable", code: "INTERNAL_ERROR" })
            : json(200, { carts: [] }),
      },
    });
    expect(await screen.findByText("We couldn't load your carts.")).toBeVisible();
    fail = false;
    await user.click(screen.getByRole("button", { name: "Try again" }));
    expect(await screen.findByText("You have no carts yet.")).toBeVisible();
  });

  it("with no cart but a join request waiting, says it waits and links to it, where it can be withdrawn", async () => {
    const request = {
      sessionId: "5e0f3a1c-2b4d-4e6f-8a9b-0c1d2e3f4a5b",
      sessionName: "Friday dinner",
      creator: { _id: "a0000000-0000-4000-8000-000000000001", name: "Ann Archer" },
      requestedAt: "2025-05-01T09:00:00.000Z",
    };
    const { user } = openCart([], {
      routes: {
        "GET /api/sessions/join-requests/mine": () => json(200, { requests: [request] }),
        "GET /api/sessions/my": () => json(200, { sessions: [] }),
      },
    });
    expect(
      await screen.findByText("Your request to join “Friday dinner” is waiting"),
    ).toBeVisible();
    expect(
      screen.getByText(/Ann Archer lets you in; then the session's cart shows here/),
    ).toBeVisible();
    expect(screen.queryByText("You have no carts yet.")).toBeNull();
    await user.click(screen.getByRole("link", { name: "See your request" }));
    expect(window.location.pathname).toBe("/sessions");
    expect(window.location.hash).toBe("#waiting-requests");
    const waiting = await screen.findByRole("region", { name: "Waiting for approval" });
    expect(within(waiting).getByText("Friday dinner")).toBeVisible();
    await waitFor(() =>
      expect(within(waiting).getByRole("heading", { name: "Waiting for approval" })).toHaveFocus(),
    );
    expect(
      within(waiting).getByRole("button", { name: "Withdraw request to join Friday dinner" }),
    ).toBeVisible();
  });

  it("refetches the carts when the session sync reports a new version", async () => {
    const cart = withName(sharedCart("creator"), "Party");
    let version = 1;
    const { fetchMock, queryClient, state } = openCart([cart], {
      routes: {
        "GET /api/sessions/sync": () => json(200, { sessions: [], version }),
      },
    });
    await screen.findByRole("region", { name: "Party" });
    await waitFor(() => expect(callsTo(fetchMock, "GET /api/sessions/sync").length).toBe(1));
    const before = callsTo(fetchMock, "GET /api/carts").length;

    state.carts = [
      { ...cart, products: cart.products.slice(0, 1), totalPrice: 25.98, itemCount: 2 },
    ];
    version = 2;
    await queryClient.refetchQueries({ queryKey: ["sessions", "sync"] });
    await waitFor(() => expect(callsTo(fetchMock, "GET /api/carts").length).toBe(before + 1));
    await waitFor(() => expect(screen.queryByText("Wool Socks")).not.toBeInTheDocument());
  });
});

describe("a cart with a deadline", () => {
  const withDeadline = (
    cart: Cart,
    deadline: Omit<Deadline, "remindersAhead" | "remindedOnSetAt">,
  ): Cart => ({
    ...cart,
    sessionId: {
      ...cart.sessionId,
      deadline: { remindersAhead: [], remindedOnSetAt: null, ...deadline },
    },
  });
  const minutesFromNow = (n: number) => new Date(Date.now() + n * 60_000).toISOString();

  it("says when it closes, in the reader's zone, with how long is left", async () => {
    const closesAt = minutesFromNow(3 * 60 + 5);
    const cart = withName(
      withDeadline(sharedCart("participant"), {
        closesAt,
        remindAt: [60],
        autoCheckout: false,
        locked: false,
      }),
      "Party",
    );
    openCart([cart]);
    const region = await screen.findByRole("region", { name: "Party" });
    const notice = within(region).getByTestId("deadline-notice");
    expect(notice).toHaveTextContent(`${closesText(closesAt)} (closes in 3 h)`);
    expect(controlsIn(region)).not.toEqual([]);
  });

  it("once closed, says so and takes no changes; the creator checks out or reopens it", async () => {
    const closesAt = minutesFromNow(-5);
    const closed = { closesAt, remindAt: [], autoCheckout: false, locked: true };
    const mine = withName(withDeadline(sharedCart("creator"), closed), "Mine");
    const theirs = withName(withDeadline(sharedCart("participant"), closed), "Theirs");
    const { user } = openCart([mine, theirs]);

    const own = await screen.findByRole("region", { name: "Mine" });
    const notice = within(own).getByTestId("deadline-notice");
    expect(notice).toHaveTextContent(closedText(closesAt));
    expect(controlsIn(own)).toEqual([]);
    expect(within(own).getByRole("button", { name: "Clear Cart Mine" })).toBeDisabled();
    expect(within(notice).getByRole("link", { name: "Check out" })).toHaveAttribute(
      "href",
      `/session-summary/${mine.sessionId._id}`,
    );
    expect(within(notice).getByRole("button", { name: "Reopen" })).toBeVisible();
    // Ending the session stays possible.
    expect(within(own).getByRole("button", { name: /End Session/ })).toBeEnabled();

    const other = section("Theirs");
    await user.click(within(other).getByRole("button", { name: "Items in Theirs" }));
    const theirNotice = within(other).getByTestId("deadline-notice");
    expect(theirNotice).toHaveTextContent(
      `${closedText(closesAt)} Nothing can be added or changed. Ann Archer checks out or reopens it.`,
    );
    expect(within(theirNotice).queryByRole("link", { name: "Check out" })).toBeNull();
    expect(controlsIn(other)).toEqual([]);
  });

  it("once closed with automatic checkout, tells a member it is checked out at the deadline's time", async () => {
    const closesAt = "2025-05-02T16:30:00.000Z";
    const closed = { closesAt, remindAt: [], autoCheckout: true, locked: true };
    openCart([withName(withDeadline(sharedCart("participant"), closed), "Theirs")]);
    const notice = within(await screen.findByRole("region", { name: "Theirs" })).getByTestId(
      "deadline-notice",
    );
    const time = new Intl.DateTimeFormat(undefined, { hour: "numeric", minute: "2-digit" }).format(
      new Date(closesAt),
    );
    expect(notice).toHaveTextContent(
      `${closedText(closesAt)} Nothing can be added or changed. It is checked out automatically at ${time}, unless it is empty.`,
    );
    expect(notice).not.toHaveTextContent("checks out or reopens");
    expect(within(notice).queryByRole("link", { name: "Check out" })).toBeNull();
  });

  it("closes on the page at the deadline itself, before any answer from the server", async () => {
    const closesAt = new Date(Date.now() + 1_200).toISOString();
    const cart = withName(
      withDeadline(sharedCart("participant"), {
        closesAt,
        remindAt: [],
        autoCheckout: false,
        locked: false,
      }),
      "Party",
    );
    openCart([cart]);
    const region = await screen.findByRole("region", { name: "Party" });
    expect(within(region).getByTestId("deadline-notice")).toHaveTextContent(
      "closes in less than a minute",
    );
    expect(controlsIn(region)).not.toEqual([]);
    await waitFor(
      () =>
        expect(within(region).getByTestId("deadline-notice")).toHaveTextContent(
          closedText(closesAt),
        ),
      { timeout: 4_000 },
    );
    expect(controlsIn(region)).toEqual([]);
  });
});
