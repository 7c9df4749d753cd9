import { describe, expect, it } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import type { BuyAgainItem, Cart } from "@cartner/contract";
import { callsTo, json, stubFetch, type StubHandler } from "../../test/fetch-stub.ts";
import { renderApp, signInAs, testUser } from "../../test/render-app.tsx";
import { ben, makeCart, makeLine, member, products } from "../../test/test-carts.ts";
import { BUY_AGAIN_LOADING, boughtText } from "./BuyAgain.tsx";

const item = (name: string, price: number, times: number): BuyAgainItem => {
  const slug = name.toLowerCase().replace(/\W+/g, "-");
  return {
    productId: `p-${slug}`,
    name,
    imageUrl: `/api/catalog/images/${slug}.svg`,
    price,
    times,
    lastAt: "2025-04-25T18:00:00.000Z",
  };
};

const bread = item("Sourdough Bread", 4.2, 3);
const oats = item("Rolled Oats", 2.5, 2);
// Already in the cart (the test user's line): never offered.
const mug = item(products.mug.name, products.mug.price, 5);

function cartAs(role: "creator" | "participant" | "viewer"): Cart {
  const ann = { _id: "a0000000-0000-4000-8000-000000000001", name: "Ann Archer" };
  const creator = role === "creator" ? testUser : ann;
  return makeCart([makeLine(testUser, products.mug, 1)], {
    creator,
    members: [
      member(creator, "creator"),
      ...(role === "creator" ? [] : [member(testUser, role)]),
      member(ben, "participant"),
    ],
  });
}

function open(cart: Cart, buyAgain: StubHandler, routes: Record<string, StubHandler> = {}) {
  signInAs(testUser);
  const state = { cart };
  const fetchMock = stubFetch({
    "GET /api/auth/validate-token": () => json(200, { valid: true, user: testUser }),
    "GET /api/sessions/sync": () => json(200, { sessions: [], version: 0 }),
    "GET /api/carts": () => json(200, { carts: [state.cart] }),
    [`GET /api/carts/${cart._id}/buy-again`]: buyAgain,
    ...routes,
  });
  return { ...renderApp("/cart"), fetchMock, state };
}

describe("Buy again on the cart", () => {
  it("lists past purchases not in the cart with picture, price and times, and adds one in one tap", async () => {
    const cart = cartAs("participant");
    const added = {
      ...cart,
      products: [...cart.products, makeLine(testUser, { name: bread.name, price: bread.price })],
    };
    const { user, fetchMock, state } = open(cart, () => json(200, { items: [mug, bread, oats] }), {
      [`POST /api/carts/${cart._id}/product`]: () => {
        state.cart = added;
        return json(200, { message: "Added to cart", cart: added });
      },
    });
    const list = await screen.findByRole("region", { name: "Buy again" });
    const rows = within(list).getAllByRole("listitem");
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringMatching(/Sourdough Bread.*4\.20.*Bought 3 times.*Add/),
      expect.stringMatching(/Rolled Oats.*2\.50.*Bought 2 times.*Add/),
    ]);
    expect(rows[0]!.querySelector("img")).toHaveAttribute("src", bread.imageUrl);
    expect(callsTo(fetchMock, `GET /api/carts/${cart._id}/buy-again`)).toHaveLength(1);
    const asked = fetchMock.mock.calls.map(([input]) => String(input));
    expect(asked.filter((url) => url.includes("/buy-again"))).toEqual([
      expect.stringMatching(/\/buy-again\?limit=12$/),
    ]);

    await user.click(within(list).getByRole("button", { name: "Add Sourdough Bread" }));
    const [post] = callsTo(fetchMock, `POST /api/carts/${cart._id}/product`);
    expect(JSON.parse(String(post!.body))).toEqual({ productId: bread.productId, quantity: 1 });
    // The bread is in the cart now: it leaves the list, and focus goes to the next Add button.
    const region = () => screen.getByRole("region", { name: "Buy again" });
    await waitFor(() =>
      expect(within(region()).queryByRole("button", { name: "Add Sourdough Bread" })).toBeNull(),
    );
    expect(within(region()).getByRole("button", { name: "Add Rolled Oats" })).toHaveFocus();
    expect(
      await screen.findByRole("table", { name: `Items in ${cart.sessionId.sessionName}` }),
    ).toHaveTextContent("Sourdough Bread");
  });

  it("adds a free line again by its name, at what was paid last, and not one the cart has", async () => {
    const cart = cartAs("participant");
    const candles: BuyAgainItem = {
      productId: null,
      name: "Birthday candles",
      imageUrl: "http://localhost/free-line.svg",
      price: 3.1,
      times: 2,
      lastAt: "2025-04-25T18:00:00.000Z",
    };
    const napkins = { ...candles, name: "Paper napkins", price: 1.5, times: 1 };
    const held = makeLine(testUser, { name: "PAPER NAPKINS ", price: 1.5 }, 1, {
      productId: { _id: null, name: "PAPER NAPKINS ", price: 1.5, imageUrl: candles.imageUrl },
      free: true,
      estimated: true,
    });
    const withNapkins = { ...cart, products: [...cart.products, held] };
    const { user, fetchMock, state } = open(
      withNapkins,
      () => json(200, { items: [candles, napkins] }),
      {
        [`POST /api/carts/${cart._id}/free-lines`]: () => {
          const line = makeLine(testUser, { name: "Birthday candles", price: 3.1 }, 1, {
            productId: {
              _id: null,
              name: "Birthday candles",
              price: 3.1,
              imageUrl: candles.imageUrl,
            },
            free: true,
            estimated: true,
          });
          state.cart = { ...withNapkins, products: [...withNapkins.products, line] };
          return json(200, { message: "Added to cart", cart: state.cart });
        },
      },
    );
    const region = () => screen.getByRole("region", { name: "Buy again" });
    await screen.findByRole("region", { name: "Buy again" });
    // The napkins are in the cart already (another case, a trailing space): not offered.
    expect(
      within(region())
        .getAllByRole("listitem")
        .map((row) => row.textContent),
    ).toEqual([expect.stringMatching(/Birthday candles.*3\.10.*Bought 2 times/)]);
    await user.click(within(region()).getByRole("button", { name: "Add Birthday candles" }));
    const [post] = callsTo(fetchMock, `POST /api/carts/${cart._id}/free-lines`);
    expect(JSON.parse(String(post!.body))).toEqual({
      name: "Birthday candles",
      quantity: 1,
      estimatedPrice: 3.1,
    });
    // Nothing is left to offer: the list says so and keeps the focus.
    expect(await within(region()).findByText(/Everything this group bought before/)).toBeVisible();
    expect(within(region()).getByRole("heading", { name: "Buy again" })).toHaveFocus();
  });

  it("says it is loading, then shows nothing when the group bought nothing else", async () => {
    let answer: (response: Response) => void = () => {};
    open(cartAs("creator"), () => new Promise<Response>((resolve) => (answer = resolve)));
    expect(await screen.findByText(BUY_AGAIN_LOADING)).toHaveAttribute("role", "status");
    answer(json(200, { items: [mug] }));
    await waitFor(() => expect(screen.queryByText(BUY_AGAIN_LOADING)).toBeNull());
    expect(screen.queryByRole("region", { name: "Buy again" })).toBeNull();
  });

  it("shows four, then the rest on request", async () => {
    const many = ["A", "B", "C", "D", "E", "F"].map((letter, i) =>
      item(`Item ${letter}`, 1, 6 - i),
    );
    const { user } = open(cartAs("creator"), () => json(200, { items: many }));
    const list = await screen.findByRole("region", { name: "Buy again" });
    expect(within(list).getAllByRole("listitem")).toHaveLength(4);
    const more = within(list).getByRole("button", { name: "Show 2 more" });
    expect(more).toHaveAttribute("aria-expanded", "false");
    await user.click(more);
    expect(within(list).getAllByRole("listitem")).toHaveLength(6);
    expect(within(list).getByRole("button", { name: "Show fewer" })).toHaveAttribute(
      "aria-expanded",
      "true",
    );
  });

  it("is not offered to a viewer, who cannot add", async () => {
    const cart = cartAs("viewer");
    const { fetchMock } = open(cart, () => json(200, { items: [bread] }));
    expect(await screen.findByText(/You're a viewer here/)).toBeVisible();
    expect(screen.queryByRole("region", { name: "Buy again" })).toBeNull();
    expect(callsTo(fetchMock, `GET /api/carts/${cart._id}/buy-again`)).toHaveLength(0);
  });
});

describe("boughtText", () => {
  it("counts in words", () => {
    expect(boughtText(1)).toBe("Bought once");
    expect(boughtText(4)).toBe("Bought 4 times");
  });
});
