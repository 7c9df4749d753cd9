import { describe, expect, it } from "vitest";
import { screen, within } from "@testing-library/react";
import type { Balance, Order } from "@cartner/contract";
import { callsTo, json, stubFetch } from "../../test/fetch-stub.ts";
import { renderApp, signInAs, testUser } from "../../test/render-app.tsx";
import { makeOrder, withShareStatus } from "../../test/test-orders.ts";
import { ben } from "../../test/test-sessions.ts";

function open(path: string, routes: Parameters<typeof stubFetch>[0], user = testUser) {
  signInAs(user);
  const mock = stubFetch({
    "GET /api/auth/validate-token": () => json(200, { valid: true, user }),
    "GET /api/sessions/sync": () => json(200, { sessions: [], version: 0 }),
    ...routes,
  });
  return { ...renderApp(path), mock };
}

const benUser = { ...testUser, _id: ben._id, name: ben.name, email: "ben@example.com" };

describe("order page", () => {
  it("shows the number, lines, shares with their status and the payee", async () => {
    open("/orders/o-1", { "GET /api/orders/o-1": () => json(200, { order: makeOrder() }) });
    expect(await screen.findByRole("heading", { level: 1, name: "CRT-000007" })).toBeVisible();
    const shares = within(screen.getByRole("list", { name: "Shares" })).getAllByRole("listitem");
    expect(shares[0]).toHaveTextContent(/Ada Lovelace \(you\) · payee.*\$29\.65.*Paid the shop/);
    expect(shares[1]).toHaveTextContent(/Ben Brown.*\$14\.84.*Unpaid/);
    expect(screen.getByRole("table", { name: "Items in CRT-000007" })).toHaveTextContent(
      "Jasmine Green Tea",
    );
    expect(screen.getByText(/Waiting on 1 of 1 share/)).toBeVisible();
    // Ben has not said he paid: nothing to confirm yet.
    expect(screen.queryByRole("button", { name: /Confirm received/ })).toBeNull();
  });

  it("lets a member say they paid; the page shows the answer", async () => {
    let order: Order = makeOrder();
    const { user, mock } = open(
      "/orders/o-1",
      {
        "GET /api/orders/o-1": () => json(200, { order }),
        "POST /api/orders/o-1/paid": () => {
          order = withShareStatus(order, ben._id, "paid");
          return json(200, { order });
        },
      },
      benUser,
    );
    expect(await screen.findByText(/Pay Ada Lovelace your share/)).toBeVisible();
    await user.click(screen.getByRole("button", { name: "I've paid my share" }));
    expect(await screen.findByText("Paid, awaiting confirmation")).toBeVisible();
    expect(callsTo(mock, "POST /api/orders/o-1/paid")).toHaveLength(1);
    expect(screen.queryByRole("button", { name: "I've paid my share" })).toBeNull();
  });

  it("lets the payee confirm a paid share and resend a failed email", async () => {
    let order: Order = withShareStatus(makeOrder(), ben._id, "paid");
    order = {
      ...order,
      split: order.split.map((s) => (s.userId === ben._id ? { ...s, mail: "failed" } : s)),
    };
    const { user, mock } = open("/orders/o-1", {
      "GET /api/orders/o-1": () => json(200, { order }),
      "POST /api/orders/o-1/mail": () => json(200, { order }),
      [`POST /api/orders/o-1/confirm/${ben._id}`]: () => {
        order = withShareStatus(order, ben._id, "confirmed");
        return json(200, { order });
      },
    });
    expect(await screen.findByText("Email not delivered")).toBeVisible();
    await user.click(screen.getByRole("button", { name: "Resend email to Ben Brown" }));
    expect(callsTo(mock, "POST /api/orders/o-1/mail")).toHaveLength(1);
    await user.click(screen.getByRole("button", { name: "Confirm received from Ben Brown" }));
    expect(await screen.findByText(/Everyone is settled up\./)).toBeVisible();
  });

  it("says so when the order is not there (or not yours)", async () => {
    open("/orders/o-404", {});
    expect(await screen.findByRole("heading", { level: 1, name: "Order not found" })).toBeVisible();
  });
});

describe("orders and balances", () => {
  it("lists my orders with my share and its status", async () => {
    open("/orders", { "GET /api/orders": () => json(200, { orders: [makeOrder()] }) }, benUser);
    const row = await screen.findByRole("link", { name: /CRT-000007/ });
    expect(row).toHaveAttribute("href", "/orders/o-1");
    expect(row).toHaveTextContent(/Your share \$14\.84.*Unpaid/);
  });

  it("says when there are no orders", async () => {
    open("/orders", { "GET /api/orders": () => json(200, { orders: [] }) });
    expect(await screen.findByText("No orders yet.")).toBeVisible();
  });

  it("says who owes whom, why, and links the orders behind it", async () => {
    const balances: Balance[] = [
      {
        user: { _id: ben._id, name: ben.name, avatar: "/a.svg" },
        amount: 14.84,
        orders: [
          {
            _id: "o-1",
            number: "CRT-000007",
            sessionName: "Weekend groceries",
            placedAt: "2025-05-03T10:00:00.000Z",
            amount: 14.84,
            status: "paid",
          },
        ],
      },
    ];
    open("/balances", { "GET /api/balances": () => json(200, { balances }) });
    const item = (await screen.findAllByTestId("balance"))[0]!;
    expect(item).toHaveTextContent("Ben Brown owes you $14.84");
    expect(item).toHaveTextContent(
      "CRT-000007 (Weekend groceries): $14.84 Ben Brown owes you, paid: confirm it on the order",
    );
    expect(within(item).getByRole("link", { name: "CRT-000007" })).toHaveAttribute(
      "href",
      "/orders/o-1",
    );
  });

  it("says when everyone is settled up", async () => {
    open("/balances", { "GET /api/balances": () => json(200, { balances: [] }) });
    expect(await screen.findByText("You're all settled up.")).toBeVisible();
  });
});
