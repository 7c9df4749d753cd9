import { describe, expect, it } from "vitest";
import { screen, within } from "@testing-library/react";
import type { Order } from "@cartner/contract";
import { callsTo, json, stubFetch } from "../../test/fetch-stub.ts";
import { renderApp, signInAs, testUser } from "../../test/render-app.tsx";
import { makeOrder } from "../../test/test-orders.ts";
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

/** The order after the payee marked Ben's tea as not delivered (Ben had paid and been confirmed). */
function teaMissing(order: Order): Order {
  return {
    ...order,
    subtotal: 25.98,
    fees: 0.26,
    tax: 3.41,
    total: 29.65,
    originalTotal: 44.49,
    lines: order.lines.map((l, i) =>
      i === 1
        ? {
            ...l,
            adjusted: {
              name: l.name,
              unitPrice: 6.5,
              quantity: 2,
              refunded: 0,
              missing: true,
              lineTotal: 0,
            },
          }
        : l,
    ),
    split: order.split.map((s) =>
      s.userId === ben._id
        ? { ...s, subtotal: 0, fees: 0, tax: 0, total: 0, paid: 14.84, credit: 14.84 }
        : s,
    ),
    adjustments: [
      {
        _id: "adj-1",
        at: "2025-05-03T12:00:00.000Z",
        by: { _id: testUser._id, name: testUser.name },
        kind: "missing",
        lineIndex: 1,
        note: "Out of stock",
        disputes: [],
      },
    ],
  };
}

const confirmedBen = (order: Order): Order => ({
  ...order,
  split: order.split.map((s) =>
    s.userId === ben._id ? { ...s, status: "confirmed", settledAs: "transfer" } : s,
  ),
});

describe("order adjustments", () => {
  it("the payee marks a line not delivered; the page shows the adjusted figures and Ben's credit", async () => {
    let order = confirmedBen(makeOrder());
    const bodies: unknown[] = [];
    const { user, mock } = open("/orders/o-1", {
      "GET /api/orders/o-1": () => json(200, { order }),
      "POST /api/orders/o-1/adjustments": ({ body }) => {
        bodies.push(body);
        order = teaMissing(order);
        return json(201, { order });
      },
    });
    const form = await screen.findByRole("form", { name: "Record a change" });
    await user.selectOptions(within(form).getByLabelText("What changed"), "Not delivered");
    await user.selectOptions(within(form).getByLabelText("Line"), "Jasmine Green Tea (Ben Brown)");
    await user.type(within(form).getByLabelText(/Note/), "Out of stock");
    await user.click(within(form).getByRole("button", { name: "Record change" }));
    expect(bodies).toEqual([{ kind: "missing", lineIndex: 1, note: "Out of stock" }]);
    const changes = await screen.findByRole("list", { name: "Changes after checkout" });
    expect(changes).toHaveTextContent("Jasmine Green Tea: not delivered");
    expect(changes).toHaveTextContent("Out of stock");
    expect(screen.getByText(/Adjusted after checkout: the total was \$44\.49/)).toBeVisible();
    const shares = within(screen.getByRole("list", { name: "Shares" })).getAllByRole("listitem");
    expect(shares[1]).toHaveTextContent("Credit $14.84");
    expect(shares[1]).toHaveTextContent(
      "Ben Brown's share changed from $14.84 to $0.00: Ada Lovelace owes Ben Brown $14.84 back.",
    );
    expect(screen.getByRole("table", { name: "Items in CRT-000007" })).toHaveTextContent(
      "Not delivered",
    );
    expect(callsTo(mock, "POST /api/orders/o-1/adjustments")).toHaveLength(1);
  });

  it("sends a substitution's name and price as typed, and shows the server's field error", async () => {
    const bodies: unknown[] = [];
    const { user } = open("/orders/o-1", {
      "GET /api/orders/o-1": () => json(200, { order: makeOrder() }),
      "POST /api/orders/o-1/adjustments": ({ body }) => {
        bodies.push(body);
        return json(400, {
          message: "Invalid amount: Ada Lovelace's share cannot be negative",
          code: "VALIDATION",
          fields: { unitPrice: "The line would cost less than was already refunded on it" },
        });
      },
    });
    const form = await screen.findByRole("form", { name: "Record a change" });
    await user.selectOptions(within(form).getByLabelText("What changed"), "Substituted");
    await user.type(within(form).getByLabelText("What came instead"), "Store brand mug");
    await user.type(within(form).getByLabelText("Unit price"), "abc");
    await user.click(within(form).getByRole("button", { name: "Record change" }));
    // Not a price: nothing is sent.
    expect(await within(form).findByText("Enter the unit price, like 2.49")).toBeVisible();
    expect(bodies).toEqual([]);
    await user.clear(within(form).getByLabelText("Unit price"));
    await user.type(within(form).getByLabelText("Unit price"), "9.99");
    await user.click(within(form).getByRole("button", { name: "Record change" }));
    expect(
      await within(form).findByText("The line would cost less than was already refunded on it"),
    ).toBeVisible();
    expect(bodies).toEqual([
      { kind: "substituted", lineIndex: 0, name: "Store brand mug", unitPrice: 9.99 },
    ]);
  });

  it("a line added by name shows as estimated with its note; the form starts on pricing it", async () => {
    const base = makeOrder();
    const candles = {
      ...base.lines[1]!,
      productId: null,
      name: "Birthday candles",
      unitPrice: 1.99,
      quantity: 3,
      lineTotal: 5.97,
      free: true,
      estimated: true,
      note: "blue ones",
      substitute: "similar" as const,
    };
    const order = { ...base, lines: [base.lines[0]!, candles] };
    const bodies: unknown[] = [];
    const { user } = open("/orders/o-1", {
      "GET /api/orders/o-1": () => json(200, { order }),
      "POST /api/orders/o-1/adjustments": ({ body }) => {
        bodies.push(body);
        return json(201, { order });
      },
    });
    const items = await screen.findByRole("table", { name: "Items in CRT-000007" });
    expect(items).toHaveTextContent("Birthday candlesEstimated");
    expect(items).toHaveTextContent("Note: blue ones");
    expect(items).toHaveTextContent("Something similar if it is not there");
    const form = screen.getByRole("form", { name: "Record a change" });
    expect(within(form).getByLabelText("What changed")).toHaveDisplayValue("Different price");
    expect(within(form).getByLabelText("Line")).toHaveDisplayValue(
      "Birthday candles (Ben Brown) · estimated",
    );
    await user.type(within(form).getByLabelText("Unit price"), "2.49");
    await user.click(within(form).getByRole("button", { name: "Record change" }));
    expect(bodies).toEqual([{ kind: "price", lineIndex: 1, unitPrice: 2.49 }]);
  });

  it("an order-level discount is sent as a negative amount", async () => {
    const bodies: unknown[] = [];
    const { user } = open("/orders/o-1", {
      "GET /api/orders/o-1": () => json(200, { order: makeOrder() }),
      "POST /api/orders/o-1/adjustments": ({ body }) => {
        bodies.push(body);
        return json(201, { order: makeOrder() });
      },
    });
    const form = await screen.findByRole("form", { name: "Record a change" });
    await user.selectOptions(within(form).getByLabelText("What changed"), "Order discount or fee");
    expect(within(form).queryByLabelText("Line")).toBeNull();
    await user.type(within(form).getByLabelText("Amount"), "2.50");
    await user.type(within(form).getByLabelText(/Label/), "Coupon");
    await user.click(within(form).getByRole("button", { name: "Record change" }));
    await screen.findByText("Change recorded: the shares are re-split.");
    expect(bodies).toEqual([{ kind: "order_fee", amount: -2.5, name: "Coupon" }]);
  });

  it("a member sees their own share change and disputes it; the payee sees the dispute", async () => {
    let order = teaMissing(confirmedBen(makeOrder()));
    const bodies: unknown[] = [];
    const { user } = open(
      "/orders/o-1",
      {
        "GET /api/orders/o-1": () => json(200, { order }),
        "POST /api/orders/o-1/adjustments/adj-1/dispute": ({ body }) => {
          bodies.push(body);
          order = {
            ...order,
            adjustments: order.adjustments.map((a) => ({
              ...a,
              disputes: [
                {
                  by: { _id: ben._id, name: ben.name },
                  at: "2025-05-03T13:00:00.000Z",
                  comment: "The tea was in the bag",
                },
              ],
            })),
          };
          return json(200, { order });
        },
      },
      benUser,
    );
    expect(
      await screen.findByText(
        "Your share changed from $14.84 to $0.00: Ada Lovelace owes you $14.84 back.",
      ),
    ).toBeVisible();
    // Only the payee records changes.
    expect(screen.queryByRole("form", { name: "Record a change" })).toBeNull();
    await user.click(screen.getByRole("button", { name: "Dispute" }));
    await user.click(screen.getByRole("button", { name: "Send dispute" }));
    expect(await screen.findByText("Say what is wrong with this change.")).toBeVisible();
    await user.type(
      screen.getByLabelText("What is wrong with this change?"),
      "The tea was in the bag",
    );
    await user.click(screen.getByRole("button", { name: "Send dispute" }));
    const disputes = await screen.findByRole("list", { name: "Disputes" });
    expect(disputes).toHaveTextContent("Ben Brown disputes this: The tea was in the bag");
    expect(bodies).toEqual([{ comment: "The tea was in the bag" }]);
  });

  it("the payee sees which changes are disputed and why", async () => {
    const order = teaMissing(confirmedBen(makeOrder()));
    order.adjustments[0]!.disputes = [
      { by: { _id: ben._id, name: ben.name }, at: "2025-05-03T13:00:00.000Z", comment: "It came" },
    ];
    open("/orders/o-1", { "GET /api/orders/o-1": () => json(200, { order }) });
    expect(await screen.findByText(/1 change is disputed/)).toBeVisible();
    expect(screen.getByRole("list", { name: "Disputes" })).toHaveTextContent(
      "Ben Brown disputes this: It came",
    );
    // The payee records changes; they do not dispute them.
    expect(screen.queryByRole("button", { name: "Dispute" })).toBeNull();
  });
});
