import { describe, expect, it } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import type { Cart } from "@cartner/contract";
import { callsTo, json, stubFetch } from "../../test/fetch-stub.ts";
import { renderApp, signInAs, testUser } from "../../test/render-app.tsx";
import { ben, makeCart, makeLine, member, products } from "../../test/test-carts.ts";

/**
 * The test user's mug at a new price (was 2 less), Ben's socks no longer available, and a third
 * line short of stock; the test user has `role`.
 */
function flaggedCart(role: "participant" | "viewer") {
  const ann = { _id: "a0000000-0000-4000-8000-000000000001", name: "Ann Archer" };
  const mug = makeLine(ann, products.mug, 1, {
    priceChanged: true,
    addedPrice: products.mug.price - 2,
    seenPrice: products.mug.price - 2,
  });
  const socks = makeLine(ben, products.socks, 2, { available: false });
  const more = makeLine(ann, { name: "Lantern", price: 9 }, 3, { stockShort: 2 });
  return makeCart([mug, socks, more], {
    creator: ann,
    members: [member(ann, "creator"), member(testUser, role), member(ben, "participant")],
  });
}

function open(cart: Cart) {
  signInAs();
  let current = cart;
  const fetchMock = stubFetch({
    "GET /api/auth/validate-token": () => json(200, { valid: true, user: testUser }),
    "GET /api/sessions/sync": () => json(200, { sessions: [], version: 0 }),
    "GET /api/carts": () => json(200, { carts: [current] }),
    [`POST /api/carts/${cart._id}/lines/${cart.products[0]!._id}/acknowledge-price`]: () => {
      current = {
        ...current,
        products: current.products.map((l, i) => (i === 0 ? { ...l, priceChanged: false } : l)),
      };
      return json(200, { cart: current });
    },
  });
  return { ...renderApp("/cart"), fetchMock };
}

describe("a cart's lines following the catalog", () => {
  it("shows a changed price with 'was' until a member who pays says OK", async () => {
    const cart = flaggedCart("participant");
    const { user, fetchMock } = open(cart);
    const row = (await screen.findAllByText(products.mug.name))[0]!.closest("tr")!;
    expect(within(row).getByText(/^was/)).toHaveTextContent(`was $${products.mug.price - 2}`);
    await user.click(
      within(row).getByRole("button", { name: `OK, new price of ${products.mug.name} seen` }),
    );
    await waitFor(() =>
      expect(
        callsTo(
          fetchMock,
          `POST /api/carts/${cart._id}/lines/${cart.products[0]!._id}/acknowledge-price`,
        ),
      ).toHaveLength(1),
    );
    await waitFor(() => expect(within(row).queryByText(/^was/)).toBeNull());
  });

  it("after a second change shows as 'was' the price last acknowledged, not the one added at", async () => {
    // Added at 2.99, acknowledged at 3.49, now 3.99.
    const ann = { _id: "a0000000-0000-4000-8000-000000000001", name: "Ann Archer" };
    const bread = makeLine(ann, { name: "Sourdough", price: 3.99 }, 1, {
      priceChanged: true,
      addedPrice: 2.99,
      seenPrice: 3.49,
    });
    open(
      makeCart([bread], {
        creator: ann,
        members: [member(ann, "creator"), member(testUser, "participant")],
      }),
    );
    const row = (await screen.findAllByText("Sourdough"))[0]!.closest("tr")!;
    expect(within(row).getByText(/^was/)).toHaveTextContent("was $3.49");
    expect(within(row).queryByText(/2\.99/)).toBeNull();
  });

  it("flags an unavailable line and one over the stock; a viewer sees 'was' without OK", async () => {
    open(flaggedCart("viewer"));
    await screen.findAllByText(products.mug.name);
    expect(screen.getByText("No longer available: left out at checkout")).toBeInTheDocument();
    // Its total counts in no total: struck through, and said so.
    const socks = screen.getAllByText(products.socks.name)[0]!.closest("tr")!;
    expect(within(socks).getByText("(not counted)")).toBeInTheDocument();
    expect(within(socks).getByText("$25.98").tagName).toBe("S");
    expect(screen.getByText("Only 1 left in stock")).toBeInTheDocument();
    expect(screen.getByText(/^was/)).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: /^OK, new price/ })).toBeNull();
  });
});
