import { describe, expect, it } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import { callsTo, json, stubFetch } from "../../test/fetch-stub.ts";
import { renderApp, signInAs, testUser } from "../../test/render-app.tsx";
import { makeOrder, withShareStatus, withZeroShare } from "../../test/test-orders.ts";
import { ben } from "../../test/test-sessions.ts";

describe("navigation bar", () => {
  it("offers Explore, Login and the sign-up call to action when signed out", async () => {
    stubFetch({});
    renderApp("/");
    const nav = await screen.findByRole("navigation", { name: "Main" });
    expect(within(nav).getByRole("link", { name: "Explore" })).toHaveAttribute("href", "/products");
    expect(within(nav).getByRole("link", { name: "Login" })).toHaveAttribute("href", "/login");
    expect(within(nav).getByRole("link", { name: "Become a cartner today" })).toHaveAttribute(
      "href",
      "/register",
    );
    expect(within(nav).queryByRole("button", { name: "Logout" })).not.toBeInTheDocument();
  });

  it("shows the signed-in links and logs out with a goodbye toast", async () => {
    signInAs();
    const fetchMock = stubFetch({
      "GET /api/auth/validate-token": () => json(200, { valid: true, user: testUser }),
      "POST /api/auth/logout": () => new Response(null, { status: 204 }),
    });
    const { user } = renderApp("/sessions");
    const nav = await screen.findByRole("navigation", { name: "Main" });
    for (const name of ["Home", "Explore Marketplace", "Sessions", "My Cart", "My Orders"]) {
      expect(within(nav).getByRole("link", { name })).toBeInTheDocument();
    }
    expect(within(nav).getByRole("link", { name: /Welcome, Ada/ })).toHaveAttribute(
      "href",
      "/profile",
    );

    await user.click(within(nav).getByRole("button", { name: "Logout" }));

    await waitFor(() => expect(window.location.pathname).toBe("/login"));
    expect(
      await screen.findByText("You've logged out successfully. See you soon, Ada Lovelace!"),
    ).toBeInTheDocument();
    expect(window.localStorage.getItem("token")).toBeNull();
    expect(window.localStorage.getItem("user")).toBeNull();
    expect(callsTo(fetchMock, "POST /api/auth/logout")).toHaveLength(1);
    expect(within(nav).getByRole("link", { name: "Login" })).toBeInTheDocument();
  });

  it("links My Orders, with the count of my shares still to pay, and Balances", async () => {
    const benUser = { ...ben, email: "ben@example.com", roles: [] };
    signInAs(benUser);
    // Ben owes two shares and has said he paid a third; Ada's order with Ann has no share of his;
    // two were adjusted to nothing before he paid (one stored "unpaid" by an older server).
    const owed = (id: string) => ({ ...makeOrder(), _id: id });
    const orders = [
      owed("o-1"),
      owed("o-2"),
      withShareStatus(owed("o-3"), ben._id, "paid"),
      makeOrder({ _id: "o-4", split: makeOrder().split.slice(0, 1) }),
      withZeroShare(owed("o-5"), ben._id),
      withZeroShare(owed("o-6"), ben._id, "unpaid"),
    ];
    stubFetch({
      "GET /api/auth/validate-token": () => json(200, { valid: true, user: benUser }),
      // The badge asks only for the orders still to pay, never the whole history.
      "GET /api/orders": ({ query }) =>
        query.get("toPay") === "true"
          ? json(200, { orders, nextCursor: null })
          : json(400, { message: "toPay is missing", code: "VALIDATION_ERROR" }),
    });
    const { user } = renderApp("/profile/edit");
    const nav = await screen.findByRole("navigation", { name: "Main" });
    const myOrders = await within(nav).findByRole("link", {
      name: /^My Orders ?\(2 shares to pay\)$/,
    });
    expect(myOrders).toHaveAttribute("href", "/orders");
    expect(within(myOrders).getByTestId("unpaid-shares")).toHaveTextContent(/^2/);
    expect(within(nav).getByRole("link", { name: "Balances" })).toHaveAttribute(
      "href",
      "/balances",
    );

    await user.click(myOrders);
    await waitFor(() => expect(window.location.pathname).toBe("/orders"));
    expect(myOrders).toHaveAttribute("aria-current", "page");
  });

  it("says more than a page of shares to pay with a plus", async () => {
    const benUser = { ...ben, email: "ben@example.com", roles: [] };
    signInAs(benUser);
    stubFetch({
      "GET /api/auth/validate-token": () => json(200, { valid: true, user: benUser }),
      "GET /api/orders": () =>
        json(200, { orders: [{ ...makeOrder(), _id: "o-1" }], nextCursor: "o-1" }),
    });
    renderApp("/profile/edit");
    const nav = await screen.findByRole("navigation", { name: "Main" });
    const myOrders = await within(nav).findByRole("link", {
      name: /^My Orders ?\(more than 1 share to pay\)$/,
    });
    expect(within(myOrders).getByTestId("unpaid-shares")).toHaveTextContent(/^1\+/);
  });

  it("shows no count when nothing is left to pay (the payee's own share is not one)", async () => {
    signInAs();
    const fetchMock = stubFetch({
      "GET /api/auth/validate-token": () => json(200, { valid: true, user: testUser }),
      "GET /api/orders": () => json(200, { orders: [makeOrder()], nextCursor: null }),
    });
    renderApp("/sessions");
    const nav = await screen.findByRole("navigation", { name: "Main" });
    await waitFor(() => expect(callsTo(fetchMock, "GET /api/orders")).toHaveLength(1));
    expect(within(nav).getByRole("link", { name: "My Orders" })).toBeInTheDocument();
    expect(within(nav).queryByTestId("unpaid-shares")).not.toBeInTheDocument();
  });

  it("toggles the menu with the hamburger and closes it on route change", async () => {
    stubFetch({});
    const { user } = renderApp("/");
    const toggle = await screen.findByRole("button", { name: "Menu" });
    const nav = screen.getByRole("navigation", { name: "Main" });
    expect(toggle).toHaveAttribute("aria-controls", nav.id);
    expect(toggle).toHaveAttribute("aria-expanded", "false");

    await user.click(toggle);
    expect(toggle).toHaveAttribute("aria-expanded", "true");

    await user.click(within(nav).getByRole("link", { name: "Login" }));
    await waitFor(() => expect(window.location.pathname).toBe("/login"));
    expect(toggle).toHaveAttribute("aria-expanded", "false");
  });
});
