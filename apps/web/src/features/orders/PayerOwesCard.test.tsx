/**
 * A payer without a share who owes the reader on the order: Ada, the payee at weight 0, paid the
 * shop with Ben; Ben paid Ada his part, then his line got cheaper, and Ada owes him back what he
 * paid beyond it. Ben settles it from the order page as he would a share.
 */
import { describe, expect, it } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import type { Order } from "@cartner/contract";
import { callsTo, json, stubFetch } from "../../test/fetch-stub.ts";
import { renderApp, signInAs, testUser } from "../../test/render-app.tsx";
import { makeOrder } from "../../test/test-orders.ts";
import { ben } from "../../test/test-sessions.ts";

const benUser = { ...testUser, _id: ben._id, name: ben.name, email: "ben@example.com" };
const ada = { _id: testUser._id, name: testUser.name };

/**
 * Ben's share only (Ada carries none); `credit`: what Ada owes Ben back, `claimedBack`: what of it
 * she says she paid him back.
 */
function adaOwesBenBack(credit: number, claimedBack = 0): Order {
  const order = makeOrder();
  const benShare = order.split.find((s) => s.userId === ben._id)!;
  return {
    ...order,
    split: [
      {
        ...benShare,
        total: 10,
        originalTotal: 14.84,
        paid: 5 + credit,
        credit,
        status: "confirmed",
        settledAs: credit > 0 ? null : "written_off",
      },
    ],
    total: 10,
    originalTotal: 14.84,
    payers: [
      { user: ada, amount: 5 },
      { user: { _id: ben._id, name: ben.name }, amount: 5 },
    ],
    parts: [
      { debtor: ben._id, payer: ada._id, amount: 5, open: 0, credit, claimed: 0, claimedBack },
    ],
  };
}

function open(routes: Parameters<typeof stubFetch>[0], user = benUser) {
  signInAs(user);
  const mock = stubFetch({
    "GET /api/auth/validate-token": () => json(200, { valid: true, user }),
    "GET /api/sessions/sync": () => json(200, { sessions: [], version: 0 }),
    ...routes,
  });
  return { ...renderApp("/orders/o-1"), mock };
}

const owedList = () => screen.queryByRole("list", { name: "Payers without a share who owe you" });

describe("a payer without a share who owes the reader", () => {
  it("shows what they owe, and the one owed writes it off or records cash as for a share", async () => {
    let order = adaOwesBenBack(2.42);
    const bodies: unknown[] = [];
    const { user, mock } = open({
      "GET /api/orders/o-1": () => json(200, { order }),
      [`POST /api/orders/o-1/confirm/${ada._id}`]: ({ body }) => {
        bodies.push(body);
        order = adaOwesBenBack(0);
        return json(200, { order });
      },
    });
    await screen.findByRole("list", { name: "Shares" });
    const card = within(owedList()!).getByRole("listitem");
    expect(card).toHaveTextContent(/Ada Lovelace · payee.*Owes you \$2\.42.*No share/);
    expect(card).toHaveTextContent(
      "Ada Lovelace paid the shop and has no share in this order: they owe you $2.42 back.",
    );
    // Nothing said paid: no transfer to confirm, but cash or a write-off.
    expect(within(card).queryByRole("button", { name: /Confirm received/ })).toBeNull();

    // Cash, by keyboard: asked first, and cancelling sends nothing.
    within(card).getByRole("button", { name: "What Ada Lovelace owes you: Paid in cash" }).focus();
    await user.keyboard("{Enter}");
    const cash = await screen.findByRole("dialog", {
      name: "Record Ada Lovelace's $2.42 to you as paid in cash?",
    });
    expect(cash).toHaveTextContent(
      "Say so once Ada Lovelace has handed you $2.42. What they owe you is settled and leaves your balances.",
    );
    await user.click(within(cash).getByRole("button", { name: "Cancel" }));
    expect(bodies).toEqual([]);

    await user.click(
      within(card).getByRole("button", { name: "What Ada Lovelace owes you: Write off" }),
    );
    const dialog = await screen.findByRole("dialog", {
      name: "Write off what Ada Lovelace owes you?",
    });
    expect(dialog).toHaveTextContent(
      "Ada Lovelace will no longer owe you $2.42: it is written off and leaves your balances. This cannot be undone.",
    );
    await user.click(within(dialog).getByRole("button", { name: "Write it off" }));
    await waitFor(() => expect(bodies).toEqual([{ how: "written_off" }]));
    expect(callsTo(mock, `POST /api/orders/o-1/confirm/${ada._id}`)).toHaveLength(1);
    // Settled: nothing is owed, and the card goes.
    await waitFor(() => expect(owedList()).toBeNull());
    expect(screen.queryByRole("button", { name: /Write off|Paid in cash/ })).toBeNull();
  });

  it("Ada says she paid it back: Ben confirms he received it, by keyboard", async () => {
    let order = adaOwesBenBack(2.42, 2.42);
    const bodies: unknown[] = [];
    const { user } = open({
      "GET /api/orders/o-1": () => json(200, { order }),
      [`POST /api/orders/o-1/confirm/${ada._id}`]: ({ body }) => {
        bodies.push(body);
        order = adaOwesBenBack(0);
        return json(200, { order });
      },
    });
    await screen.findByRole("list", { name: "Shares" });
    const card = within(owedList()!).getByRole("listitem");
    expect(card).toHaveTextContent(/Owes you \$2\.42.*No share.*Paid, awaiting confirmation/);
    // Said paid: the transfer is confirmed, not recorded as cash nor written off.
    expect(within(card).queryByRole("button", { name: /Paid in cash|Write off/ })).toBeNull();
    const confirm = within(card).getByRole("button", {
      name: "Confirm received from Ada Lovelace",
    });
    expect(confirm).toHaveTextContent("Confirm received");
    // In the page's tab order, and sent with Enter.
    for (let i = 0; i < 60 && document.activeElement !== confirm; i++) await user.tab();
    expect(confirm).toHaveFocus();
    await user.keyboard("{Enter}");
    await waitFor(() => expect(bodies).toEqual([{ how: "transfer" }]));
    expect(await screen.findByText("Payment confirmed.")).toBeVisible();
    await waitFor(() => expect(owedList()).toBeNull());
  });

  it("shows nothing when they owe the reader nothing, nor to the one who owes", async () => {
    const settled = open({ "GET /api/orders/o-1": () => json(200, { order: adaOwesBenBack(0) }) });
    await screen.findByRole("list", { name: "Shares" });
    expect(owedList()).toBeNull();
    expect(screen.queryByTestId("order-payer-owes")).toBeNull();
    expect(screen.queryByRole("button", { name: /Write off|Paid in cash|Confirm/ })).toBeNull();
    settled.unmount();

    // Ada owes Ben back: she is owed nothing here, so no such card; she pays Ben back instead.
    open({ "GET /api/orders/o-1": () => json(200, { order: adaOwesBenBack(2.42) }) }, testUser);
    const shares = await screen.findByRole("list", { name: "Shares" });
    expect(owedList()).toBeNull();
    expect(screen.queryByRole("button", { name: /Write off|Paid in cash/ })).toBeNull();
    expect(
      within(shares).getByRole("button", { name: "Paid back $2.42 to Ben Brown" }),
    ).toBeVisible();
  });
});
