import { describe, expect, it } from "vitest";
import { screen, waitFor } from "@testing-library/react";
import type { Cart } from "@cartner/contract";
import { callsTo, json, stubFetch } from "../../test/fetch-stub.ts";
import { renderApp, signInAs, testUser } from "../../test/render-app.tsx";
import { ben, makeCart, makeLine, member, products } from "../../test/test-carts.ts";
import { STAPLE_HINT } from "./StapleToggle.tsx";

/** A cart with the test user's mug and Ben's socks; the test user has `role`. */
function cartAs(role: "creator" | "participant") {
  const ann = { _id: "a0000000-0000-4000-8000-000000000001", name: "Ann Archer" };
  const creator = role === "creator" ? testUser : ann;
  const mug = makeLine(testUser, products.mug, 1);
  const socks = makeLine(ben, products.socks, 1, { staple: true });
  return makeCart([mug, socks], {
    creator,
    members: [
      member(creator, "creator"),
      ...(role === "creator" ? [] : [member(testUser, role)]),
      member(ben, "participant"),
    ],
  });
}

function open(cart: Cart) {
  signInAs();
  let current = cart;
  const fetchMock = stubFetch({
    "GET /api/auth/validate-token": () => json(200, { valid: true, user: testUser }),
    "GET /api/sessions/sync": () => json(200, { sessions: [], version: 0 }),
    "GET /api/carts": () => json(200, { carts: [current] }),
    [`PUT /api/carts/${cart._id}/lines/${cart.products[0]!._id}/staple`]: ({ body }) => {
      const { staple } = body as { staple: boolean };
      current = {
        ...current,
        products: current.products.map((l, i) => (i === 0 ? { ...l, staple } : l)),
      };
      return json(200, { cart: current });
    },
  });
  return { ...renderApp("/cart"), fetchMock };
}

const toggles = () =>
  screen
    .queryAllByRole("button", { name: new RegExp(`^${STAPLE_HINT}`) })
    .map((b) => [b.getAttribute("aria-label"), b.getAttribute("aria-pressed")]);

describe("staple lines on the cart page", () => {
  it("the creator pins any line; a staple shows its badge", async () => {
    const cart = cartAs("creator");
    const { user, fetchMock } = open(cart);
    await screen.findAllByText(products.mug.name);
    expect(toggles()).toEqual([
      [`${STAPLE_HINT}: ${products.mug.name}`, "false"],
      [`${STAPLE_HINT}: ${products.socks.name}`, "true"],
    ]);
    expect(screen.getAllByText("Staple")).toHaveLength(1);

    await user.click(screen.getByRole("button", { name: `${STAPLE_HINT}: ${products.mug.name}` }));
    await waitFor(() =>
      expect(
        callsTo(fetchMock, `PUT /api/carts/${cart._id}/lines/${cart.products[0]!._id}/staple`),
      ).toHaveLength(1),
    );
    await waitFor(() => expect(screen.getAllByText("Staple")).toHaveLength(2));
    expect(
      screen.getByRole("button", { name: `${STAPLE_HINT}: ${products.mug.name}` }),
    ).toHaveAttribute("aria-pressed", "true");
  });

  it("a participant pins only their own line", async () => {
    open(cartAs("participant"));
    await screen.findAllByText(products.mug.name);
    expect(toggles()).toEqual([[`${STAPLE_HINT}: ${products.mug.name}`, "false"]]);
    // Ben's staple still shows as one.
    expect(screen.getAllByText("Staple")).toHaveLength(1);
  });
});
