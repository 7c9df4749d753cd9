import { describe, expect, it, vi } from "vitest";
import { screen, waitFor } from "@testing-library/react";
import type { Session } from "@cartner/contract";
import { callsTo, json, stubFetch, type StubHandler } from "../../test/fetch-stub.ts";
import { renderApp, signInAs, testUser } from "../../test/render-app.tsx";
import { makeSession, sessionAs } from "../../test/test-sessions.ts";
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
});
