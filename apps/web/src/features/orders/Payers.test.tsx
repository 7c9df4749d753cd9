import { describe, expect, it } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import type { Balance, Order, PlannedTransfer } from "@cartner/contract";
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

describe("several payers on the order page", () => {
  it("lets the payee split the total between payers, showing what is left, and sends what it shows", async () => {
    let order: Order = makeOrder();
    const bodies: unknown[] = [];
    const { user } = open("/orders/o-1", {
      "GET /api/orders/o-1": () => json(200, { order }),
      "PUT /api/orders/o-1/payers": ({ body }) => {
        bodies.push(body);
        order = {
          ...order,
          payers: [
            { user: { _id: testUser._id, name: testUser.name }, amount: 30 },
            { user: { _id: ben._id, name: ben.name }, amount: 14.49 },
          ],
          split: order.split.map((s) => ({ ...s, status: "unpaid", confirmedAt: null })),
          parts: [
            {
              debtor: testUser._id,
              payer: ben._id,
              amount: 9.66,
              open: 9.66,
              credit: 0,
              claimed: 0,
              claimedBack: 0,
            },
            {
              debtor: ben._id,
              payer: testUser._id,
              amount: 10.01,
              open: 10.01,
              credit: 0,
              claimed: 0,
              claimedBack: 0,
            },
          ],
        };
        return json(200, { order });
      },
    });
    await user.click(await screen.findByRole("button", { name: "Several people paid" }));
    const form = screen.getByRole("form", { name: "Who paid the shop" });
    const mine = within(form).getByLabelText("Ada Lovelace paid");
    expect(mine).toHaveValue("44.49");
    await user.clear(mine);
    await user.type(mine, "30");
    expect(within(form).getByTestId("payers-left")).toHaveTextContent("Left to assign: $14.49");
    const save = within(form).getByRole("button", { name: "Save payers" });
    expect(save).toBeDisabled();
    await user.type(within(form).getByLabelText("Ben Brown paid"), "14.5");
    expect(within(form).getByTestId("payers-left")).toHaveTextContent("Over the total by $0.01");
    await user.clear(within(form).getByLabelText("Ben Brown paid"));
    await user.type(within(form).getByLabelText("Ben Brown paid"), "14.49");
    expect(within(form).getByTestId("payers-left")).toHaveTextContent("add up to the total");
    await user.click(save);
    expect(bodies).toEqual([
      {
        payers: [
          { userId: testUser._id, amount: 30 },
          { userId: ben._id, amount: 14.49 },
        ],
      },
    ]);
    const payers = await screen.findByRole("list", { name: "Payers" });
    expect(payers).toHaveTextContent(/Ada Lovelace\$30\.00/);
    expect(payers).toHaveTextContent(/Ben Brown\$14\.49/);
    expect(screen.getByText(/Ada Lovelace and Ben Brown paid the shop\./)).toBeVisible();
    // Each share owes each other payer its part, to the cent.
    const owed = screen.getByRole("list", { name: "Who owes which payer" });
    expect(owed).toHaveTextContent(/Ada Lovelace owes Ben Brown \$\d+\.\d\d/);
    expect(owed).toHaveTextContent(/Ben Brown owes Ada Lovelace \$\d+\.\d\d/);
  });

  it("shows what is still open of each part, what is settled, and a credit owed back", async () => {
    const payers = [
      { user: { _id: testUser._id, name: testUser.name }, amount: 30 },
      { user: { _id: ben._id, name: ben.name }, amount: 14.49 },
    ];
    const order = makeOrder({
      payers,
      split: makeOrder().split.map((s) =>
        s.userId === testUser._id
          ? { ...s, total: 25, originalTotal: 29.65, paid: 9.66, credit: 1.5 }
          : { ...s, status: "unpaid", paid: 4 },
      ),
      parts: [
        {
          debtor: testUser._id,
          payer: ben._id,
          amount: 8.16,
          open: 0,
          credit: 1.5,
          claimed: 0,
          claimedBack: 0,
        },
        {
          debtor: ben._id,
          payer: testUser._id,
          amount: 10.01,
          open: 6.01,
          credit: 0,
          claimed: 0,
          claimedBack: 0,
        },
      ],
    });
    open("/orders/o-1", { "GET /api/orders/o-1": () => json(200, { order }) });
    const owed = await screen.findByRole("list", { name: "Who owes which payer" });
    const items = within(owed).getAllByRole("listitem");
    expect(items[0]).toHaveTextContent(
      "Ada Lovelace paid Ben Brown $9.66 for a part of $8.16: Ben Brown owes Ada Lovelace $1.50 back",
    );
    expect(items[1]).toHaveTextContent("Ben Brown owes Ada Lovelace $6.01 of $10.01");
    // The payee's own share shows its credit, and who owes it.
    expect(
      await screen.findByText(
        /Your share changed from \$29\.65 to \$25\.00: Ben Brown owes you \$1\.50 back\./,
      ),
    ).toBeVisible();
    const shares = within(screen.getByRole("list", { name: "Shares" })).getAllByRole("listitem");
    expect(shares[0]).toHaveTextContent("Credit $1.50");
  });

  it("says a part is settled once nothing of it is open", async () => {
    const order = makeOrder({
      payers: [
        { user: { _id: testUser._id, name: testUser.name }, amount: 30 },
        { user: { _id: ben._id, name: ben.name }, amount: 14.49 },
      ],
      parts: [
        {
          debtor: testUser._id,
          payer: ben._id,
          amount: 9.66,
          open: 0,
          credit: 0,
          claimed: 0,
          claimedBack: 0,
        },
        {
          debtor: ben._id,
          payer: testUser._id,
          amount: 10.01,
          open: 10.01,
          credit: 0,
          claimed: 0,
          claimedBack: 0,
        },
      ],
    });
    open("/orders/o-1", { "GET /api/orders/o-1": () => json(200, { order }) });
    const owed = await screen.findByRole("list", { name: "Who owes which payer" });
    expect(owed).toHaveTextContent("Ada Lovelace's part for Ben Brown, $9.66, is settled");
    expect(owed).toHaveTextContent("Ben Brown owes Ada Lovelace $10.01");
  });

  it("shows the server's refusal and offers no change once a share is paid", async () => {
    const order = makeOrder();
    const { user, unmount } = open("/orders/o-1", {
      "GET /api/orders/o-1": () => json(200, { order }),
      "PUT /api/orders/o-1/payers": () =>
        json(409, {
          message: "The payers can no longer change: a share is already paid or settled.",
          code: "CONFLICT",
        }),
    });
    await user.click(await screen.findByRole("button", { name: "Several people paid" }));
    await user.click(screen.getByRole("button", { name: "Save payers" }));
    // The adjustments form keeps its own (empty) alert region on the payee's page.
    const refusal = await screen.findByText(/can no longer change/);
    expect(refusal.closest('[role="alert"]')).not.toBeNull();

    const paid: Order = {
      ...order,
      split: order.split.map((s) => (s.userId === ben._id ? { ...s, status: "paid" } : s)),
    };
    unmount();
    open("/orders/o-1", { "GET /api/orders/o-1": () => json(200, { order: paid }) });
    expect(await screen.findByRole("list", { name: "Payers" })).toHaveTextContent("Ada Lovelace");
    expect(screen.queryByRole("button", { name: "Several people paid" })).toBeNull();
  });

  it("offers no change once an adjustment reopened a share that was partly paid", async () => {
    const order = makeOrder();
    const reopened: Order = {
      ...order,
      split: order.split.map((s) => (s.userId === ben._id ? { ...s, paid: 5 } : s)),
    };
    open("/orders/o-1", { "GET /api/orders/o-1": () => json(200, { order: reopened }) });
    expect(await screen.findByRole("list", { name: "Payers" })).toHaveTextContent("Ada Lovelace");
    expect(screen.queryByRole("button", { name: "Several people paid" })).toBeNull();
  });

  it("offers a sharer no change of payers", async () => {
    open(
      "/orders/o-1",
      { "GET /api/orders/o-1": () => json(200, { order: makeOrder() }) },
      benUser,
    );
    expect(await screen.findByRole("list", { name: "Payers" })).toHaveTextContent("Ada Lovelace");
    expect(screen.queryByRole("button", { name: "Several people paid" })).toBeNull();
  });
});

describe("the settle plan on the balances page", () => {
  const balances: Balance[] = [
    {
      user: { _id: ben._id, name: ben.name, avatar: "/a.svg" },
      amount: -12.4,
      orders: [
        {
          _id: "o-1",
          number: "CRT-000007",
          sessionName: "Weekend groceries",
          placedAt: "2025-05-03T10:00:00.000Z",
          amount: -12.4,
          status: "unpaid",
          credit: false,
        },
      ],
    },
  ];
  const cat = { _id: "c0000000-0000-4000-8000-000000000003", name: "Cat" };

  it("says who pays whom and lets the payer record their transfer after a confirm", async () => {
    let transfers: PlannedTransfer[] = [
      { from: { _id: testUser._id, name: testUser.name }, to: ben, amount: 12.4, recordable: true },
      { from: cat, to: ben, amount: 3, recordable: true },
    ];
    const bodies: unknown[] = [];
    const { user, mock } = open("/balances", {
      "GET /api/balances": () => json(200, { balances }),
      "GET /api/balances/settle-plan": () => json(200, { transfers }),
      "POST /api/balances/transfers": ({ body }) => {
        bodies.push(body);
        transfers = [{ from: cat, to: ben, amount: 3, recordable: true }];
        return json(201, { settled: [{ orderId: "o-1", amount: 12.4 }] });
      },
    });
    const items = await screen.findAllByTestId("planned-transfer");
    expect(items.map((i) => i.textContent)).toEqual([
      "You pay Ben Brown $12.40I've paid this",
      "Cat pays Ben Brown $3.00",
    ]);
    await user.click(screen.getByRole("button", { name: "Record that you paid Ben Brown $12.40" }));
    const dialog = await screen.findByRole("dialog", {
      name: "Record that you paid Ben Brown $12.40?",
    });
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(bodies).toEqual([]);
    await user.click(screen.getByRole("button", { name: "Record that you paid Ben Brown $12.40" }));
    await user.click(
      within(await screen.findByRole("dialog")).getByRole("button", { name: "Record transfer" }),
    );
    expect(await screen.findByText(/Transfer recorded: 1 order settled/)).toBeVisible();
    expect(bodies).toEqual([{ to: ben._id, amount: 12.4 }]);
    // The plan and balances are read again.
    await screen.findByText("Cat pays Ben Brown $3.00");
    expect(screen.queryByText(/You pay Ben Brown/)).toBeNull();
    expect(callsTo(mock, "GET /api/balances").length).toBeGreaterThan(1);
  });

  it("offers no record button for a transfer that passes on what others owe the payer", async () => {
    const bodies: unknown[] = [];
    const { user } = open("/balances", {
      "GET /api/balances": () => json(200, { balances }),
      "POST /api/balances/transfers": ({ body }) => {
        bodies.push(body);
        return json(201, { settled: [{ orderId: "o-1", amount: 12.4 }] });
      },
      "GET /api/balances/settle-plan": () =>
        json(200, {
          transfers: [
            { from: cat, to: ben, amount: 38.81, recordable: false },
            {
              from: { _id: testUser._id, name: testUser.name },
              to: ben,
              amount: 9.13,
              recordable: false,
            },
          ],
        }),
    });
    const items = await screen.findAllByTestId("planned-transfer");
    expect(items[1]).toHaveTextContent(
      "You pay Ben Brown $9.13It nets what others owe you, so it can't be recorded as one transfer: record what you pay Ben Brown from your balance with them below.",
    );
    for (const item of items) expect(within(item).queryByRole("button")).toBeNull();
    // The balance with Ben is what Ada can record: all she owes him, which settles whole shares.
    await user.click(
      screen.getByRole("button", {
        name: "Record that you paid Ben Brown all you owe them, $12.40",
      }),
    );
    await user.click(
      within(await screen.findByRole("dialog")).getByRole("button", { name: "Record transfer" }),
    );
    await waitFor(() => expect(bodies).toEqual([{ to: ben._id, amount: 12.4 }]));
  });

  it("says when nothing is left to transfer", async () => {
    open("/balances", {
      "GET /api/balances": () => json(200, { balances }),
      "GET /api/balances/settle-plan": () => json(200, { transfers: [] }),
    });
    expect(await screen.findByText("Nothing to transfer: everyone is settled up.")).toBeVisible();
  });
});
