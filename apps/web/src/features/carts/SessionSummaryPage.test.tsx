import { describe, expect, it } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import type { Order, Session, SessionSummary } from "@cartner/contract";
import { callsTo, json, stubFetch, type StubHandler } from "../../test/fetch-stub.ts";
import { renderApp, signInAs, testUser } from "../../test/render-app.tsx";
import { ben, cleo, makeCart, makeLine, products } from "../../test/test-carts.ts";
import { makeOrder } from "../../test/test-orders.ts";
import { makeSession, member, sessionAs } from "../../test/test-sessions.ts";

function openSummary(
  handler: StubHandler,
  options: { session?: Session; orders?: Order[]; routes?: Record<string, StubHandler> } = {},
) {
  signInAs();
  const session =
    options.session ??
    makeSession({
      _id: "s-1",
      invitedUsers: [
        member(testUser, "creator"),
        { ...member(ben, "participant"), ready: true },
        member(cleo, "participant"),
      ],
    });
  const mock = stubFetch({
    "GET /api/auth/validate-token": () => json(200, { valid: true, user: testUser }),
    "GET /api/sessions/sync": () => json(200, { sessions: [], version: 0 }),
    "GET /api/sessions/s-1/summary": handler,
    "GET /api/sessions/s-1": () => json(200, { session }),
    "GET /api/orders": () => json(200, { orders: options.orders ?? [] }),
    ...options.routes,
  });
  return { ...renderApp("/session-summary/s-1"), mock };
}

const summary: SessionSummary = {
  sessionName: "Weekend groceries",
  participants: [
    { _id: testUser._id, name: testUser.name },
    { _id: ben._id, name: ben.name },
    { _id: cleo._id, name: cleo.name },
  ],
  cartItems: [
    {
      product: { _id: "p-mug", name: "Stoneware Mug", price: 12.99, imageUrl: "/m.svg" },
      quantity: 2,
      addedBy: testUser.name,
      addedById: testUser._id,
      estimated: false,
      note: "ripe ones",
      substitute: "none",
    },
    {
      product: { _id: "p-tea", name: "Jasmine Green Tea", price: 6.5, imageUrl: "/t.svg" },
      quantity: 2,
      addedBy: ben.name,
      addedById: ben._id,
      estimated: false,
      note: null,
      substitute: "any",
    },
  ],
  // As the server computes it; the page shows it as is.
  split: [
    {
      userId: testUser._id,
      name: testUser.name,
      subtotal: 25.98,
      fees: 0.26,
      tax: 3.41,
      total: 29.65,
      budget: null,
      overBudget: false,
    },
    {
      userId: ben._id,
      name: ben.name,
      subtotal: 13,
      fees: 0.13,
      tax: 1.71,
      total: 14.84,
      budget: null,
      overBudget: false,
    },
  ],
  privateCount: 0,
  subtotal: 38.98,
  fees: 0.39,
  tax: 5.12,
  total: 44.49,
};

describe("session summary", () => {
  it("shows the items, the server's split per participant and the total", async () => {
    openSummary(() => json(200, summary));
    expect(
      await screen.findByRole("heading", { level: 1, name: "Weekend groceries" }),
    ).toBeVisible();

    const items = screen.getByRole("table", { name: "Items in the cart" });
    expect(
      within(items)
        .getAllByRole("columnheader")
        .map((th) => th.textContent),
    ).toEqual(["Product", "Quantity", "Added by"]);
    expect(within(items).getByRole("row", { name: /Jasmine Green Tea/ })).toHaveTextContent(
      "Ben Brown",
    );

    const shares = within(screen.getByRole("list", { name: "Cost per participant" })).getAllByRole(
      "listitem",
    );
    expect(shares).toHaveLength(3);
    expect(shares[0]).toHaveTextContent(/Ada Lovelace \(you\)Total \$29\.65/);
    expect(shares[0]).toHaveTextContent("$25.98");
    expect(shares[0]).toHaveTextContent("$0.26");
    expect(shares[0]).toHaveTextContent("$3.41");
    expect(shares[1]).toHaveTextContent("$14.84");
    expect(shares[2]).toHaveTextContent(/Cleo Chu.*\$0\.00.*Nothing added yet/);

    const total = screen.getByRole("region", { name: "Total" });
    expect(
      within(total)
        .getAllByRole("definition")
        .map((dd) => dd.textContent),
    ).toEqual(["$38.98", "$0.39", "$5.12", "$44.49"]);

    expect(await within(total).findByRole("button", { name: "Check out" })).toBeEnabled();
  });

  it("says the total includes private items, by their count only", async () => {
    openSummary(() => json(200, { ...summary, privateCount: 2 }));
    expect(await screen.findByText("Includes 2 private items")).toBeVisible();
  });

  it("lets the creator check out after a confirm that says who is ready, then opens the order", async () => {
    const order = makeOrder();
    const { user, mock } = openSummary(() => json(200, summary), {
      routes: {
        "POST /api/sessions/s-1/checkout": () => json(201, { order }),
        "GET /api/orders/o-1": () => json(200, { order }),
      },
    });
    await user.click(await screen.findByRole("button", { name: "Check out" }));
    const dialog = screen.getByRole("dialog", { name: "Check out this cart?" });
    expect(dialog).toHaveTextContent("Ready: Ben Brown. Not done yet: Ada Lovelace, Cleo Chu.");
    // Cancel first: nothing is sent.
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(callsTo(mock, "POST /api/sessions/s-1/checkout")).toHaveLength(0);
    await user.click(screen.getByRole("button", { name: "Check out" }));
    await user.click(
      within(screen.getByRole("dialog", { name: "Check out this cart?" })).getByRole("button", {
        name: "Check out",
      }),
    );
    expect(await screen.findByRole("heading", { level: 1, name: "CRT-000007" })).toBeVisible();
    expect(callsTo(mock, "POST /api/sessions/s-1/checkout")).toHaveLength(1);
    // By default the creator pays it all: no payers are sent.
    expect(callsTo(mock, "POST /api/sessions/s-1/checkout")[0]!.body).toBeUndefined();
  });

  it("names lines left out and lines over the stock, and checks out what is left only when the creator says so", async () => {
    const order = makeOrder();
    const socks = makeLine(ben, products.socks, 2, { available: false });
    const lantern = makeLine(testUser, { name: "Lantern", price: 9 }, 3, { stockShort: 2 });
    const cart = makeCart([socks, lantern], {
      members: [member(testUser, "creator"), member(ben, "participant")],
    });
    const { user, mock } = openSummary(() => json(200, summary), {
      routes: {
        "GET /api/sessions/s-1/cart": () => json(200, { cart }),
        "POST /api/sessions/s-1/checkout": () => json(201, { order, leftOut: [] }),
        "GET /api/orders/o-1": () => json(200, { order }),
      },
    });
    await waitFor(() => expect(callsTo(mock, "GET /api/sessions/s-1/cart")).toHaveLength(1));
    await user.click(await screen.findByRole("button", { name: "Check out" }));
    const dialog = screen.getByRole("dialog", { name: "Check out this cart?" });
    expect(dialog).toHaveTextContent("Left out, no longer available: Wool Socks (2).");
    expect(dialog).toHaveTextContent("Not enough in stock: Lantern (1 left of 3).");
    const confirm = within(dialog).getByRole("button", { name: "Check out" });
    expect(confirm).toBeDisabled();
    await user.click(within(dialog).getByRole("checkbox", { name: "Take what is left" }));
    expect(confirm).toBeEnabled();
    await user.click(confirm);
    expect(await screen.findByRole("heading", { level: 1, name: "CRT-000007" })).toBeVisible();
    const [call] = callsTo(mock, "POST /api/sessions/s-1/checkout");
    expect(JSON.parse(String(call!.body))).toEqual({ overStock: "take_what_is_left" });
  });

  it("says checkout waits for lines waiting for approval, and drops them only when the creator says so", async () => {
    const order = makeOrder();
    const mug = makeLine(testUser, products.mug, 1);
    const socks = makeLine(ben, products.socks, 2, {
      pending: { requestedAt: "2025-05-02T10:00:00.000Z", message: null },
    });
    const cart = makeCart([mug, socks], {
      members: [member(testUser, "creator"), member(ben, "participant")],
    });
    const { user, mock } = openSummary(() => json(200, summary), {
      routes: {
        "GET /api/sessions/s-1/cart": () => json(200, { cart }),
        "POST /api/sessions/s-1/checkout": () => json(201, { order, leftOut: [] }),
        "GET /api/orders/o-1": () => json(200, { order }),
      },
    });
    await waitFor(() => expect(callsTo(mock, "GET /api/sessions/s-1/cart")).toHaveLength(1));
    await user.click(await screen.findByRole("button", { name: "Check out" }));
    const dialog = screen.getByRole("dialog", { name: "Check out this cart?" });
    expect(dialog).toHaveTextContent(
      "Waiting for approval: Wool Socks (2, Ben Brown). Checkout waits for them: approve or decline them first, or check out without them.",
    );
    const confirm = within(dialog).getByRole("button", { name: "Check out" });
    expect(confirm).toBeDisabled();
    await user.click(
      within(dialog).getByRole("checkbox", { name: "Check out without them (drop them)" }),
    );
    expect(dialog).toHaveTextContent("They are dropped: the order is checked out without them.");
    await user.click(confirm);
    expect(await screen.findByRole("heading", { level: 1, name: "CRT-000007" })).toBeVisible();
    const [call] = callsTo(mock, "POST /api/sessions/s-1/checkout");
    expect(JSON.parse(String(call!.body))).toEqual({ pending: "drop" });
  });

  it("flags the items checkout leaves out or is short of, counts none left out, and tells the shop nothing about them", async () => {
    const mug = makeLine(testUser, products.mug, 2, { available: false, note: "ripe ones" });
    const tea = makeLine(ben, products.tea, 2, { stockShort: 1 });
    const cart = makeCart(
      [
        { ...mug, productId: { ...mug.productId, _id: "p-mug" } },
        { ...tea, productId: { ...tea.productId, _id: "p-tea" } },
      ],
      { members: [member(testUser, "creator"), member(ben, "participant")] },
    );
    const { user } = openSummary(() => json(200, summary), {
      routes: { "GET /api/sessions/s-1/cart": () => json(200, { cart }) },
    });
    const items = await screen.findByRole("table", { name: "Items in the cart" });
    const mugRow = within(items).getByRole("row", { name: /Stoneware Mug/ });
    expect(
      await within(mugRow).findByText("No longer available: left out at checkout"),
    ).toBeVisible();
    expect(
      within(within(items).getByRole("row", { name: /Jasmine Green Tea/ })).getByText(
        "Only 1 left in stock",
      ),
    ).toBeVisible();
    // The mugs count in no total: the header counts the tea only.
    expect(screen.getByText(/3 participants · 2 items/)).toBeVisible();
    await user.click(screen.getByRole("button", { name: "Check out" }));
    const dialog = screen.getByRole("dialog", { name: "Check out this cart?" });
    expect(dialog).toHaveTextContent("Left out, no longer available: Stoneware Mug (2).");
    // Its note is for a line nobody buys: not under "For the shop".
    expect(dialog).not.toHaveTextContent("ripe ones");
  });

  it("lets the creator split the payment at checkout, sending exactly the amounts shown once they add up", async () => {
    const order = makeOrder();
    const { user, mock } = openSummary(() => json(200, summary), {
      routes: {
        "POST /api/sessions/s-1/checkout": () => json(201, { order }),
        "GET /api/orders/o-1": () => json(200, { order }),
      },
    });
    await user.click(await screen.findByRole("button", { name: "Check out" }));
    const dialog = screen.getByRole("dialog", { name: "Check out this cart?" });
    const payers = within(dialog).getByRole("region", { name: "Who pays the shop" });
    expect(payers).toHaveTextContent("Ada Lovelace pays the shop all of $44.49.");
    const toggle = within(payers).getByRole("button", { name: "Split the payment" });
    expect(toggle).toHaveAttribute("aria-expanded", "false");
    await user.click(toggle);
    // The focus moves to the first payer once the rows are drawn (a frame later).
    await waitFor(() => expect(within(payers).getByLabelText("Payer 1")).toHaveFocus());

    // Two payers to start, in halves that add up: the creator and the other member with a share.
    expect(within(payers).getByLabelText("Payer 1")).toHaveValue(testUser._id);
    expect(within(payers).getByLabelText("Payer 2")).toHaveValue(ben._id);
    const adaAmount = within(payers).getByLabelText("Amount Ada Lovelace paid");
    const benAmount = within(payers).getByLabelText("Amount Ben Brown paid");
    expect(adaAmount).toHaveValue("22.25");
    expect(benAmount).toHaveValue("22.24");
    expect(payers).toHaveTextContent("The amounts add up to the total.");
    // Cleo has no share, so nobody else may be added.
    expect(within(payers).queryByRole("button", { name: "Add a payer" })).toBeNull();
    const confirm = within(dialog).getByRole("button", { name: "Check out" });

    await user.clear(benAmount);
    await user.type(benAmount, "20");
    expect(payers).toHaveTextContent("Left to assign: $2.24");
    expect(confirm).toBeDisabled();
    await user.clear(adaAmount);
    await user.type(adaAmount, "24.5");
    expect(payers).toHaveTextContent("Over the total by $0.01");
    expect(confirm).toBeDisabled();
    await user.type(adaAmount, "x");
    expect(within(payers).getByText("An amount like 12.40")).toBeVisible();
    await user.clear(adaAmount);
    await user.type(adaAmount, "24.49");
    expect(payers).toHaveTextContent("The amounts add up to the total.");
    expect(confirm).toBeEnabled();

    await user.click(confirm);
    expect(await screen.findByRole("heading", { level: 1, name: "CRT-000007" })).toBeVisible();
    const [call] = callsTo(mock, "POST /api/sessions/s-1/checkout");
    expect(JSON.parse(String(call!.body))).toEqual({
      payers: [
        { userId: testUser._id, amount: 24.49 },
        { userId: ben._id, amount: 20 },
      ],
    });
  });

  it("goes back to the creator paying it all, and then sends no payers", async () => {
    const order = makeOrder();
    const { user, mock } = openSummary(() => json(200, summary), {
      routes: {
        "POST /api/sessions/s-1/checkout": () => json(201, { order }),
        "GET /api/orders/o-1": () => json(200, { order }),
      },
    });
    await user.click(await screen.findByRole("button", { name: "Check out" }));
    const dialog = screen.getByRole("dialog", { name: "Check out this cart?" });
    await user.click(within(dialog).getByRole("button", { name: "Split the payment" }));
    await waitFor(() => expect(within(dialog).getByLabelText("Payer 1")).toHaveFocus());
    await user.type(within(dialog).getByLabelText("Amount Ben Brown paid"), "9");
    expect(within(dialog).getByRole("button", { name: "Check out" })).toBeDisabled();
    await user.click(within(dialog).getByRole("button", { name: "Ada Lovelace pays it all" }));
    expect(dialog).toHaveTextContent("Ada Lovelace pays the shop all of $44.49.");
    await user.click(within(dialog).getByRole("button", { name: "Check out" }));
    expect(await screen.findByRole("heading", { level: 1, name: "CRT-000007" })).toBeVisible();
    expect(callsTo(mock, "POST /api/sessions/s-1/checkout")[0]!.body).toBeUndefined();
  });

  it("tells a participant who checks out, and links everyone to the order once there is one", async () => {
    openSummary(() => json(200, summary), { session: sessionAs("participant", { _id: "s-1" }) });
    expect(await screen.findByText(/Ben Brown checks out for the group/)).toBeVisible();
    expect(screen.queryByRole("button", { name: "Check out" })).toBeNull();
  });

  it("links to the order once the cart is checked out", async () => {
    openSummary(() => json(200, summary), { orders: [makeOrder()] });
    expect(await screen.findByRole("link", { name: /View order CRT-000007/ })).toHaveAttribute(
      "href",
      "/orders/o-1",
    );
  });

  it("shows a friendly not-found state on a 404", async () => {
    openSummary(() => json(404, { message: "Session not found", code: "NOT_FOUND" }));
    expect(
      await screen.findByRole("heading", { level: 1, name: "Summary not found" }),
    ).toBeVisible();
  });
});
