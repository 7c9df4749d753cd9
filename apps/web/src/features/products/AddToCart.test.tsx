import { describe, expect, it, vi } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import type { Session } from "@cartner/contract";
import { callsTo, json, stubFetch, type StubHandler } from "../../test/fetch-stub.ts";
import { renderApp, signInAs, testUser } from "../../test/render-app.tsx";
import { ben, cleo, makeSession, member, sessionAs } from "../../test/test-sessions.ts";
import { listBody, sampleProducts } from "./test-products.ts";

const headphones = sampleProducts[0]!;
const addButton = () =>
  screen.findByRole("button", { name: "Add Aurora Wireless Headphones to cart" });

function openProducts(
  sessions: Session[],
  { path = "/products", routes = {} }: { path?: string; routes?: Record<string, StubHandler> } = {},
) {
  signInAs();
  const fetchMock = stubFetch({
    "GET /api/auth/validate-token": () => json(200, { valid: true, user: testUser }),
    "GET /api/sessions/sync": () => json(200, { sessions, version: 1 }),
    "GET /api/products": () => json(200, listBody()),
    [`GET /api/products/${headphones._id}`]: () => json(200, { product: headphones }),
    ...routes,
  });
  return { ...renderApp(path), fetchMock };
}

describe("add to cart", () => {
  it("asks for a session when none is active", async () => {
    const { user, fetchMock } = openProducts([]);
    await waitFor(() => expect(callsTo(fetchMock, "GET /api/sessions/sync")).toHaveLength(1));
    await user.click(await addButton());
    expect(await screen.findByText("Please select a session with a cart.")).toBeInTheDocument();
  });

  it("adds one to the active session's cart and says so", async () => {
    const session = makeSession({ sessionName: "Party" });
    const { user, fetchMock } = openProducts([session], {
      routes: {
        [`POST /api/carts/${session.cartId}/product`]: () =>
          json(200, { message: "Added to cart", cart: {} }),
      },
    });
    const button = await addButton();
    await waitFor(() => expect(callsTo(fetchMock, "GET /api/sessions/sync")).toHaveLength(1));
    await user.click(button);
    expect(await screen.findByText("Added to cart for selected session.")).toBeInTheDocument();
    const [call] = callsTo(fetchMock, `POST /api/carts/${session.cartId}/product`);
    expect(JSON.parse(String(call?.body))).toEqual({ productId: headphones._id, quantity: 1 });
  });

  it("waits for the sessions when clicked before they arrive", async () => {
    const session = makeSession({ sessionName: "Party" });
    let answerSync: (response: Response) => void = () => undefined;
    const { user, fetchMock } = openProducts([], {
      routes: {
        "GET /api/sessions/sync": () =>
          new Promise<Response>((resolve) => {
            answerSync = resolve;
          }),
        [`POST /api/carts/${session.cartId}/product`]: () =>
          json(200, { message: "Added to cart", cart: {} }),
      },
    });
    await user.click(await addButton());
    answerSync(json(200, { sessions: [session], version: 1 }));
    expect(await screen.findByText("Added to cart for selected session.")).toBeInTheDocument();
    expect(callsTo(fetchMock, `POST /api/carts/${session.cartId}/product`)).toHaveLength(1);
    expect(screen.queryByText("Please select a session with a cart.")).not.toBeInTheDocument();
  });

  it("says it failed, with the server's reason on a second line", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const session = makeSession({ sessionName: "Party" });
    const { user, fetchMock } = openProducts([session], {
      routes: {
        [`POST /api/carts/${session.cartId}/product`]: () =>
          json(409, { message: "Only 12 in stock.", code: "CONFLICT" }),
      },
    });
    const button = await addButton();
    await waitFor(() => expect(callsTo(fetchMock, "GET /api/sessions/sync")).toHaveLength(1));
    await user.click(button);
    expect(await screen.findByText("Failed to add product to cart.")).toBeInTheDocument();
    expect(screen.getByText("Only 12 in stock.")).toBeInTheDocument();
  });

  it("disables the add buttons for a viewer, saying why", async () => {
    const { fetchMock } = openProducts([sessionAs("viewer", { sessionName: "Watching" })]);
    await waitFor(() => expect(callsTo(fetchMock, "GET /api/sessions/sync")).toHaveLength(1));
    await waitFor(async () => expect(await addButton()).toBeDisabled());
    expect(await addButton()).toHaveAttribute(
      "title",
      "Viewers can't add items to this session's cart.",
    );
    expect(await addButton()).toHaveAccessibleDescription(
      "Viewers can't add items to this session's cart.",
    );
  });

  it("keeps the buttons enabled for a participant", async () => {
    const { fetchMock } = openProducts([sessionAs("participant")]);
    await waitFor(() => expect(callsTo(fetchMock, "GET /api/sessions/sync")).toHaveLength(1));
    expect(await addButton()).toBeEnabled();
  });

  it("disables the product page's button for a viewer, with the reason beside it", async () => {
    openProducts([sessionAs("viewer")], { path: `/product/${headphones._id}` });
    const button = await screen.findByRole("button", { name: "Add to Cart" });
    await waitFor(() => expect(button).toBeDisabled());
    expect(button).toHaveAccessibleDescription("Viewers can't add items to this session's cart.");
  });

  it("on the product page, keeps the add private from the members picked (hiddenFrom)", async () => {
    // The test user created it; Ben takes part, Cleo watches: both can be kept from it.
    const session = makeSession({
      invitedUsers: [
        member(testUser, "creator"),
        member(ben, "participant"),
        member(cleo, "viewer"),
      ],
    });
    const { user, fetchMock } = openProducts([session], {
      path: `/product/${headphones._id}`,
      routes: {
        [`POST /api/carts/${session.cartId}/product`]: () =>
          json(200, { message: "Added to cart", cart: {} }),
      },
    });
    const disclosure = await screen.findByText("Keep it private from…");
    // Closed at first; opened with the keyboard, a checkbox per member but oneself.
    expect(screen.queryByRole("checkbox", { name: /Ben Brown/ })).not.toBeVisible();
    disclosure.closest("summary")!.focus();
    await user.keyboard("{Enter}");
    const group = screen.getByRole("group", { name: /won't see it/ });
    expect(
      within(group)
        .getAllByRole("checkbox")
        .map((c) => c.closest("label")!.textContent),
    ).toEqual([expect.stringContaining("Ben Brown"), expect.stringContaining("Cleo Chu")]);
    await user.click(within(group).getByRole("checkbox", { name: /Ben Brown/ }));
    await user.click(screen.getByRole("button", { name: "Add to Cart" }));
    expect(await screen.findByText("Added to cart for selected session.")).toBeInTheDocument();
    const [call] = callsTo(fetchMock, `POST /api/carts/${session.cartId}/product`);
    expect(JSON.parse(String(call?.body))).toEqual({
      productId: headphones._id,
      quantity: 1,
      hiddenFrom: [ben._id],
    });
  });

  it("offers no privacy where there is no one to keep it from (only the creator and oneself)", async () => {
    openProducts([sessionAs("participant")], { path: `/product/${headphones._id}` });
    await waitFor(async () =>
      expect(await screen.findByRole("button", { name: "Add to Cart" })).toBeEnabled(),
    );
    expect(screen.queryByText("Keep it private from…")).not.toBeInTheDocument();
  });
});
