import { describe, expect, it } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import type { Balance, Order } from "@cartner/contract";
import { callsTo, json, stubFetch } from "../../test/fetch-stub.ts";
import { renderApp, signInAs, testUser } from "../../test/render-app.tsx";
import { makeOrder, withShareStatus, withZeroShare } from "../../test/test-orders.ts";
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

  it("shows the order's history from its book, and who owes whom in words", async () => {
    const order = makeOrder();
    const entry = (n: number, kind: string, from: typeof ben, to: typeof ben, amount: number) => ({
      _id: `e-${n}`,
      at: `2026-11-28T20:2${n}:00.000Z`,
      kind,
      from,
      to,
      amount,
      by: testUser,
      note: kind === "adjustment" ? "Not delivered: Jasmine Green Tea" : null,
      pending: kind === "paid",
      ref: null,
    });
    const ada = { _id: testUser._id, name: testUser.name };
    const entries = [
      entry(1, "share", ben, ada, 14.84),
      entry(2, "adjustment", ada, ben, 6.5),
      entry(3, "paid", ada, ben, 8.34),
    ];
    open("/orders/o-1", {
      "GET /api/orders/o-1": () => json(200, { order }),
      "GET /api/orders/o-1/entries": () => json(200, { entries, nextCursor: null }),
    });
    const history = await screen.findByRole("list", { name: "History" });
    expect(
      within(history)
        .getAllByRole("listitem")
        .map((li) => li.textContent),
    ).toEqual([
      expect.stringContaining("Ben Brown owes Ada Lovelace $14.84"),
      expect.stringContaining("Ben Brown owes Ada Lovelace $6.50 less · Not delivered"),
      expect.stringMatching(/Ben Brown says they paid Ada Lovelace \$8\.34.*waiting/),
    ]);
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

  it("a share adjusted to nothing with nothing paid is settled: nothing to pay, no pay button or panel", async () => {
    for (const status of ["confirmed", "unpaid"] as const) {
      const order = withZeroShare(makeOrder(), ben._id, status);
      const { mock, unmount } = open(
        "/orders/o-1",
        {
          "GET /api/orders/o-1": () => json(200, { order }),
          "GET /api/orders/o-1/pay-info": () => json(200, {}),
        },
        benUser,
      );
      const shares = await screen.findByRole("list", { name: "Shares" });
      expect(within(shares).getAllByRole("listitem")[1]).toHaveTextContent(
        /Ben Brown \(you\).*\$0\.00.*Nothing to pay/,
      );
      expect(screen.getByText(/Everyone is settled up\./)).toBeVisible();
      expect(screen.queryByRole("button", { name: "I've paid my share" })).toBeNull();
      expect(screen.queryByRole("heading", { name: "Pay Ada Lovelace" })).toBeNull();
      expect(callsTo(mock, "GET /api/orders/o-1/pay-info")).toHaveLength(0);
      unmount();
    }
    // The payee sees it settled too: nothing to confirm, collect or write off.
    open("/orders/o-1", {
      "GET /api/orders/o-1": () => json(200, { order: withZeroShare(makeOrder(), ben._id) }),
    });
    expect(await screen.findByText(/Everyone is settled up\./)).toBeVisible();
    expect(screen.queryByRole("button", { name: /Paid in cash/ })).toBeNull();
    expect(screen.queryByRole("button", { name: /Write off/ })).toBeNull();
  });

  it("shows a member's credit to the payee, who records paying it back as a transfer", async () => {
    const order = makeOrder({
      split: makeOrder().split.map((s) =>
        s.userId === ben._id
          ? { ...s, total: 10, paid: 14.84, credit: 4.84, status: "confirmed" as const }
          : s,
      ),
      parts: [
        {
          debtor: ben._id,
          payer: testUser._id,
          amount: 10,
          open: 0,
          credit: 4.84,
          claimed: 0,
          claimedBack: 0,
        },
      ],
    });
    const bodies: unknown[] = [];
    const { user } = open("/orders/o-1", {
      "GET /api/orders/o-1": () => json(200, { order }),
      "POST /api/balances/transfers": ({ body }) => {
        bodies.push(body);
        return json(201, { settled: [{ orderId: "o-1", amount: 4.84 }] });
      },
    });
    const shares = await screen.findByRole("list", { name: "Shares" });
    const benCard = within(shares).getAllByRole("listitem")[1]!;
    expect(benCard).toHaveTextContent("Credit $4.84");
    expect(benCard).toHaveTextContent(
      "Ben Brown's share changed from $14.84 to $10.00: Ada Lovelace owes Ben Brown $4.84 back.",
    );
    await user.click(within(benCard).getByRole("button", { name: "Paid back $4.84 to Ben Brown" }));
    const dialog = await screen.findByRole("dialog", {
      name: "Record that you paid Ben Brown $4.84 back?",
    });
    await user.click(within(dialog).getByRole("button", { name: "Record transfer" }));
    await waitFor(() => expect(bodies).toEqual([{ to: ben._id, amount: 4.84 }]));
  });

  it("paying a credit back takes the reader's own open part to the same member with it, in one transfer", async () => {
    // Ben paid half the shop and his own share, then it was adjusted down: Ada owes him $4.84
    // back, and her own share's part for him, $10.00, is open too.
    const order = makeOrder({
      split: makeOrder().split.map((s) =>
        s.userId === ben._id
          ? { ...s, total: 10, paid: 14.84, credit: 4.84, status: "confirmed" as const }
          : s,
      ),
      parts: [
        {
          debtor: ben._id,
          payer: testUser._id,
          amount: 10,
          open: 0,
          credit: 4.84,
          claimed: 0,
          claimedBack: 0,
        },
        {
          debtor: testUser._id,
          payer: ben._id,
          amount: 10,
          open: 10,
          credit: 0,
          claimed: 0,
          claimedBack: 0,
        },
      ],
    });
    const bodies: unknown[] = [];
    const { user } = open("/orders/o-1", {
      "GET /api/orders/o-1": () => json(200, { order }),
      "POST /api/balances/transfers": ({ body }) => {
        bodies.push(body);
        return json(201, { settled: [{ orderId: "o-1", amount: 14.84 }] });
      },
    });
    const shares = await screen.findByRole("list", { name: "Shares" });
    const benCard = within(shares).getAllByRole("listitem")[1]!;
    await user.click(
      within(benCard).getByRole("button", { name: "Paid back $14.84 to Ben Brown" }),
    );
    const dialog = await screen.findByRole("dialog", {
      name: "Record that you paid Ben Brown $14.84?",
    });
    expect(dialog).toHaveTextContent(
      "$4.84 back, with what else is open between you on this order: one transfer settles it all.",
    );
    await user.click(within(dialog).getByRole("button", { name: "Record transfer" }));
    await waitFor(() => expect(bodies).toEqual([{ to: ben._id, amount: 14.84 }]));
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

  it("lets the payee settle an unpaid share in cash or write it off, after a confirm", async () => {
    let order: Order = makeOrder();
    // Ben has since deleted his account: his share stays, marked, and can still be settled.
    order = {
      ...order,
      split: order.split.map((s) => (s.userId === ben._id ? { ...s, accountDeleted: true } : s)),
    };
    const bodies: unknown[] = [];
    const { user } = open("/orders/o-1", {
      "GET /api/orders/o-1": () => json(200, { order }),
      [`POST /api/orders/o-1/confirm/${ben._id}`]: ({ body }) => {
        bodies.push(body);
        const how = (body as { how: "cash" | "written_off" }).how;
        order = {
          ...withShareStatus(order, ben._id, "confirmed"),
          split: order.split.map((s) =>
            s.userId === ben._id ? { ...s, status: "confirmed", settledAs: how } : s,
          ),
        };
        return json(200, { order });
      },
    });
    const benShare = async () =>
      within(await screen.findByRole("list", { name: "Shares" })).getAllByRole("listitem")[1]!;
    expect(await benShare()).toHaveTextContent(/Ben Brown.*Unpaid.*Deleted user/);
    // Unpaid: no transfer to confirm, but cash or a write-off.
    expect(screen.queryByRole("button", { name: /Confirm received/ })).toBeNull();

    await user.click(screen.getByRole("button", { name: "Ben Brown's share: Write off" }));
    const dialog = await screen.findByRole("dialog", { name: "Write off Ben Brown's share?" });
    expect(dialog).toHaveTextContent("Ben Brown will no longer owe you $14.84");
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(bodies).toEqual([]);

    await user.click(screen.getByRole("button", { name: "Ben Brown's share: Paid in cash" }));
    await user.click(
      within(
        await screen.findByRole("dialog", { name: "Record Ben Brown's share as paid in cash?" }),
      ).getByRole("button", { name: "Record cash payment" }),
    );
    expect(await screen.findByText(/Everyone is settled up\./)).toBeVisible();
    expect(bodies).toEqual([{ how: "cash" }]);
    expect(await benShare()).toHaveTextContent(/Paid in cash.*Deleted user/);
    expect(screen.queryByRole("button", { name: /Write off/ })).toBeNull();
  });

  it("shows how each share was settled", async () => {
    const order = makeOrder();
    const settled = (how: "transfer" | "cash" | "written_off") => ({
      ...order,
      split: order.split.map((s) =>
        s.userId === ben._id ? { ...s, status: "confirmed" as const, settledAs: how } : s,
      ),
    });
    for (const [how, label] of [
      ["transfer", "Confirmed"],
      ["written_off", "Written off"],
    ] as const) {
      const view = open("/orders/o-1", {
        "GET /api/orders/o-1": () => json(200, { order: settled(how) }),
      });
      const shares = within(await screen.findByRole("list", { name: "Shares" }));
      expect(shares.getAllByRole("listitem")[1]).toHaveTextContent(label);
      view.unmount();
    }
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

  it("shows older orders a page at a time, asking with the last order's cursor", async () => {
    const newer = makeOrder({ _id: "o-2", number: "CRT-000008" });
    const older = makeOrder({ _id: "o-1", number: "CRT-000007" });
    const { user } = open(
      "/orders",
      {
        "GET /api/orders": ({ query }) =>
          query.get("cursor") === "o-2"
            ? json(200, { orders: [older], nextCursor: null })
            : json(200, { orders: [newer], nextCursor: "o-2" }),
      },
      benUser,
    );
    await screen.findByRole("link", { name: /CRT-000008/ });
    expect(screen.queryByRole("link", { name: /CRT-000007/ })).not.toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Show more orders" }));
    expect(await screen.findByRole("link", { name: /CRT-000007/ })).toBeVisible();
    // The last page: nothing more to ask for.
    expect(screen.queryByRole("button", { name: /Show more/ })).not.toBeInTheDocument();
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
            credit: false,
          },
        ],
      },
    ];
    open("/balances", {
      "GET /api/balances": () => json(200, { balances }),
      "GET /api/balances/settle-plan": () => json(200, { transfers: [] }),
    });
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

  it("says a credit is owed back, not a payment to confirm", async () => {
    const balances: Balance[] = [
      {
        user: { _id: ben._id, name: ben.name, avatar: "/a.svg" },
        amount: -4.84,
        orders: [
          {
            _id: "o-1",
            number: "CRT-000007",
            sessionName: "Weekend groceries",
            placedAt: "2025-05-03T10:00:00.000Z",
            amount: -4.84,
            status: "paid",
            credit: true,
          },
        ],
      },
    ];
    open("/balances", {
      "GET /api/balances": () => json(200, { balances }),
      "GET /api/balances/settle-plan": () =>
        json(200, {
          transfers: [
            {
              from: { _id: testUser._id, name: testUser.name },
              to: { _id: ben._id, name: ben.name },
              amount: 4.84,
              recordable: true,
            },
          ],
        }),
    });
    const item = (await screen.findAllByTestId("balance"))[0]!;
    expect(item).toHaveTextContent("You owe Ben Brown $4.84");
    expect(item).toHaveTextContent(
      "CRT-000007 (Weekend groceries): $4.84 you owe Ben Brown back (a credit after a change)",
    );
    expect(item).not.toHaveTextContent("awaiting confirmation");
  });

  it("says when everyone is settled up", async () => {
    open("/balances", { "GET /api/balances": () => json(200, { balances: [] }) });
    expect(await screen.findByText("You're all settled up.")).toBeVisible();
  });
});

describe("private items on the order page", () => {
  /** Ben's tea is hidden from someone: Ada (the payee) sees it, marked; Ben is its adder. */
  const withPrivateTea = (order: Order): Order => ({
    ...order,
    lines: order.lines.map((l) =>
      l.name === "Jasmine Green Tea" ? { ...l, hiddenFrom: ["c-1"] } : l,
    ),
  });

  it("tells a reader some lines are hidden from how many the total includes, and nothing else", async () => {
    const order = makeOrder();
    const seen: Order = { ...order, lines: order.lines.slice(0, 1), privateCount: 2 };
    open("/orders/o-1", { "GET /api/orders/o-1": () => json(200, { order: seen }) }, benUser);
    expect(await screen.findByText("The total includes 2 private items.")).toBeVisible();
    expect(screen.getByRole("table", { name: "Items in CRT-000007" })).not.toHaveTextContent(
      "Jasmine Green Tea",
    );
    expect(screen.queryByText("Private")).toBeNull();
    expect(screen.queryByRole("button", { name: "Reveal private items" })).toBeNull();
  });

  it("marks private lines for the payee, who reveals them after confirming", async () => {
    let order = withPrivateTea(makeOrder());
    const { user, mock } = open("/orders/o-1", {
      "GET /api/orders/o-1": () => json(200, { order }),
      "POST /api/orders/o-1/reveal": () => {
        order = makeOrder();
        return json(200, { order });
      },
    });
    const items = await screen.findByRole("table", { name: "Items in CRT-000007" });
    const tea = within(items)
      .getAllByRole("row")
      .find((r) => r.textContent?.includes("Jasmine"))!;
    expect(within(tea).getByText("Private")).toBeVisible();
    expect(screen.queryByText(/private items\./)).toBeNull();

    await user.click(screen.getByRole("button", { name: "Reveal private items" }));
    const dialog = await screen.findByRole("dialog", { name: "Reveal the private item?" });
    expect(dialog).toHaveTextContent("Everyone in the session will see these items.");
    await user.click(within(dialog).getByRole("button", { name: "Reveal" }));
    await waitFor(() => expect(callsTo(mock, "POST /api/orders/o-1/reveal")).toHaveLength(1));
    await waitFor(() =>
      expect(screen.queryByRole("button", { name: "Reveal private items" })).toBeNull(),
    );
    expect(within(items).queryByText("Private")).toBeNull();
  });

  it("shows no reveal button to the adder who is not the payee", async () => {
    const order = withPrivateTea(makeOrder());
    open("/orders/o-1", { "GET /api/orders/o-1": () => json(200, { order }) }, benUser);
    const items = await screen.findByRole("table", { name: "Items in CRT-000007" });
    expect(within(items).getByText("Private")).toBeVisible();
    expect(screen.queryByRole("button", { name: "Reveal private items" })).toBeNull();
  });
});
