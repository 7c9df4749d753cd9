/**
 * A share card of a payer who owes the reader a credit back: Ada (the payee) and Ben both paid
 * the shop and both have a share; Ada paid Ben her part, then her share got smaller, so Ben owes
 * her back what she paid beyond it. Ada settles it on Ben's card as she would his share: cash or
 * a write-off, or confirming the transfer once Ben says he paid it back.
 */
import { describe, expect, it } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import type { Order } from "@cartner/contract";
import { callsTo, json, stubFetch } from "../../test/fetch-stub.ts";
import { renderApp, signInAs, testUser } from "../../test/render-app.tsx";
import { makeOrder } from "../../test/test-orders.ts";
import { ben } from "../../test/test-sessions.ts";

const benUser = { ...testUser, _id: ben._id, name: ben.name, email: "ben@example.com" };

/**
 * `credit`: what Ben owes Ada back (0: settled), `claimedBack`: what of it he says he paid back.
 * Ben's share owes only that, so it is unpaid, or paid once he says so.
 */
function benOwesAdaBack(credit: number, claimedBack = 0): Order {
  return makeOrder({
    payers: [
      { user: { _id: testUser._id, name: testUser.name }, amount: 30 },
      { user: { _id: ben._id, name: ben.name }, amount: 14.49 },
    ],
    split: makeOrder().split.map((s) =>
      s.userId === testUser._id
        ? { ...s, total: 25, originalTotal: 29.65, paid: 25 + credit, credit }
        : {
            ...s,
            status: credit === 0 ? "confirmed" : claimedBack > 0 ? "paid" : "unpaid",
            paid: 4.83,
          },
    ),
    parts: [
      {
        debtor: testUser._id,
        payer: ben._id,
        amount: 4.84,
        open: 0,
        credit,
        claimed: 0,
        claimedBack,
      },
    ],
  });
}

function open(routes: Parameters<typeof stubFetch>[0], user = testUser) {
  signInAs(user);
  const mock = stubFetch({
    "GET /api/auth/validate-token": () => json(200, { valid: true, user }),
    "GET /api/sessions/sync": () => json(200, { sessions: [], version: 0 }),
    ...routes,
  });
  return { ...renderApp("/orders/o-1"), mock };
}

/** The share card of the member named. */
async function cardOf(name: string) {
  const shares = await screen.findByRole("list", { name: "Shares" });
  const card = within(shares)
    .getAllByRole("listitem")
    .find((li) => li.textContent?.startsWith(name));
  expect(card, name).toBeDefined();
  return card!;
}

const confirmUrl = `POST /api/orders/o-1/confirm/${ben._id}`;

describe("a share card of a payer who owes the reader a credit back", () => {
  it("offers the one owed cash or a write-off, said as what they owe, and sends cash by keyboard", async () => {
    let order = benOwesAdaBack(1.5);
    const bodies: unknown[] = [];
    const { user, mock } = open({
      "GET /api/orders/o-1": () => json(200, { order }),
      [confirmUrl]: ({ body }) => {
        bodies.push(body);
        order = benOwesAdaBack(0);
        return json(200, { order });
      },
    });
    const card = await cardOf("Ben Brown");
    expect(card).toHaveTextContent("Owes a credit back");
    // What is settled is not his share ($14.84) but what he owes back, said on the card.
    expect(card).toHaveTextContent("Ben Brown owes you $1.50 back.");
    // Nothing said paid back: nothing to confirm.
    expect(within(card).queryByRole("button", { name: /Confirm received/ })).toBeNull();
    const write = within(card).getByRole("button", { name: "What Ben Brown owes you: Write off" });
    expect(write).toHaveTextContent("Write off");
    const cash = within(card).getByRole("button", {
      name: "What Ben Brown owes you: Paid in cash",
    });

    // In the page's tab order; Enter asks first, then sends.
    for (let i = 0; i < 60 && document.activeElement !== cash; i++) await user.tab();
    expect(cash).toHaveFocus();
    await user.keyboard("{Enter}");
    const dialog = await screen.findByRole("dialog", {
      name: "Record Ben Brown's $1.50 to you as paid in cash?",
    });
    expect(dialog).toHaveTextContent(
      "Say so once Ben Brown has handed you $1.50. What they owe you is settled and leaves your balances.",
    );
    await user.click(within(dialog).getByRole("button", { name: "Record cash payment" }));
    await waitFor(() => expect(bodies).toEqual([{ how: "cash" }]));
    expect(callsTo(mock, confirmUrl)).toHaveLength(1);
    expect(await screen.findByText("Recorded as paid in cash.")).toBeVisible();
    // Settled: the card offers nothing more.
    await waitFor(() =>
      expect(screen.queryByRole("button", { name: /Write off|Paid in cash/ })).toBeNull(),
    );
  });

  it("asks before writing it off, in the words of what they owe", async () => {
    const bodies: unknown[] = [];
    const { user } = open({
      "GET /api/orders/o-1": () => json(200, { order: benOwesAdaBack(1.5) }),
      [confirmUrl]: ({ body }) => {
        bodies.push(body);
        return json(200, { order: benOwesAdaBack(0) });
      },
    });
    const card = await cardOf("Ben Brown");
    await user.click(
      within(card).getByRole("button", { name: "What Ben Brown owes you: Write off" }),
    );
    const dialog = await screen.findByRole("dialog", {
      name: "Write off what Ben Brown owes you?",
    });
    expect(dialog).toHaveTextContent(
      "Ben Brown will no longer owe you $1.50: it is written off and leaves your balances. This cannot be undone.",
    );
    await user.click(within(dialog).getByRole("button", { name: "Write it off" }));
    await waitFor(() => expect(bodies).toEqual([{ how: "written_off" }]));
    expect(await screen.findByText("Written off.")).toBeVisible();
  });

  it("once he says he paid it back, the one owed confirms it received, by keyboard", async () => {
    let order = benOwesAdaBack(1.5, 1.5);
    const bodies: unknown[] = [];
    const { user } = open({
      "GET /api/orders/o-1": () => json(200, { order }),
      [confirmUrl]: ({ body }) => {
        bodies.push(body);
        order = benOwesAdaBack(0);
        return json(200, { order });
      },
    });
    const card = await cardOf("Ben Brown");
    expect(card).toHaveTextContent("Paid, awaiting confirmation");
    expect(card).toHaveTextContent("Ben Brown owes you $1.50 back.");
    expect(within(card).queryByRole("button", { name: /Paid in cash|Write off/ })).toBeNull();
    const confirm = within(card).getByRole("button", { name: "Confirm received from Ben Brown" });
    expect(confirm).toHaveTextContent("Confirm received");
    for (let i = 0; i < 60 && document.activeElement !== confirm; i++) await user.tab();
    expect(confirm).toHaveFocus();
    await user.keyboard("{Enter}");
    await waitFor(() => expect(bodies).toEqual([{ how: "transfer" }]));
    expect(await screen.findByText("Payment confirmed.")).toBeVisible();
    await waitFor(() =>
      expect(screen.queryByRole("button", { name: /Confirm received/ })).toBeNull(),
    );
  });

  it("offers no settling to one owed a credit back who did not pay the shop (only payers settle)", async () => {
    // Ben alone paid the shop: Ada, the payee, paid nothing, so she settles nothing; Ben pays
    // her back by a transfer.
    const order = benOwesAdaBack(1.5);
    open({
      "GET /api/orders/o-1": () =>
        json(200, {
          order: { ...order, payers: [{ user: { _id: ben._id, name: ben.name }, amount: 44.49 }] },
        }),
    });
    const card = await cardOf("Ben Brown");
    expect(card).toHaveTextContent("Owes a credit back");
    expect(
      screen.queryByRole("button", { name: /Confirm received|Paid in cash|Write off/ }),
    ).toBeNull();
  });

  it("offers the one who owes it no settling of it: they pay it back instead", async () => {
    open({ "GET /api/orders/o-1": () => json(200, { order: benOwesAdaBack(1.5, 1.5) }) }, benUser);
    const ada = await cardOf("Ada Lovelace");
    expect(
      within(ada).getByRole("button", { name: "Paid back $1.50 to Ada Lovelace" }),
    ).toBeVisible();
    expect(
      screen.queryByRole("button", { name: /Confirm received|Paid in cash|Write off/ }),
    ).toBeNull();
  });
});
