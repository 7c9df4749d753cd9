import { describe, expect, it } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import type { Cart } from "@cartner/contract";
import { callsTo, json, stubFetch } from "../../test/fetch-stub.ts";
import { renderApp, signInAs, testUser } from "../../test/render-app.tsx";
import { ben, cleo, makeCart, makeLine, member, products } from "../../test/test-carts.ts";

const ann = { _id: "a0000000-0000-4000-8000-000000000001", name: "Ann Archer" };

/** Ann creates; the test user (a participant) added the mug, Ben the socks; Cleo takes part. */
function cartOf(overrides: Partial<Cart> = {}, hiddenFrom: string[] = []) {
  const mug = makeLine(testUser, products.mug, 1, { hiddenFrom });
  const socks = makeLine(ben, products.socks, 1);
  return makeCart([mug, socks], {
    creator: ann,
    members: [
      member(ann, "creator"),
      member(testUser, "participant"),
      member(ben, "participant"),
      member(cleo, "participant"),
    ],
    ...overrides,
  });
}

function open(cart: Cart) {
  signInAs();
  let current = cart;
  const url = `/api/carts/${cart._id}/lines/${cart.products[0]!._id}/hidden-from`;
  const fetchMock = stubFetch({
    "GET /api/auth/validate-token": () => json(200, { valid: true, user: testUser }),
    "GET /api/sessions/sync": () => json(200, { sessions: [], version: 0 }),
    "GET /api/carts": () => json(200, { carts: [current] }),
    [`PUT ${url}`]: ({ body }) => {
      const { userIds } = body as { userIds: string[] };
      current = {
        ...current,
        products: current.products.map((l, i) => (i === 0 ? { ...l, hiddenFrom: userIds } : l)),
      };
      return json(200, { cart: current });
    },
  });
  return { ...renderApp("/cart"), fetchMock, url };
}

describe("private lines on the cart page", () => {
  it("the adder hides their line from chosen members (never the creator); it shows as private", async () => {
    const { user, fetchMock, url } = open(cartOf());
    await screen.findAllByText(products.mug.name);
    expect(screen.queryByText("Private")).toBeNull();
    const panel = screen.getByTestId("line-hiding");
    await user.click(within(panel).getByText("Keep items private"));
    // Only their own line, and only Ben and Cleo to hide it from.
    const boxes = within(panel).getAllByRole("checkbox");
    expect(boxes.map((b) => b.closest("label")!.textContent)).toEqual([ben.name, cleo.name]);
    await user.click(within(panel).getByRole("checkbox", { name: cleo.name }));
    await user.click(within(panel).getByRole("button", { name: /^Save/ }));
    await waitFor(() => expect(callsTo(fetchMock, `PUT ${url}`)).toHaveLength(1));
    expect(JSON.parse(String(callsTo(fetchMock, `PUT ${url}`)[0]!.body))).toEqual({
      userIds: [cleo._id],
    });
    await waitFor(() => expect(screen.getAllByText("Private").length).toBeGreaterThan(0));
  });

  it("a member a line is hidden from sees the count with the total, not the line", async () => {
    const cart = cartOf({ privateCount: 1 });
    open({ ...cart, products: cart.products.slice(1), totalPrice: 99.5 });
    await screen.findAllByText(products.socks.name);
    expect(screen.queryByText(products.mug.name)).toBeNull();
    expect(screen.getByText(/includes 1 private item/)).toBeInTheDocument();
  });
});
