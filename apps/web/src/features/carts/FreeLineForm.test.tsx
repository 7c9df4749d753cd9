import { afterEach, describe, expect, it } from "vitest";
import { act, screen, waitFor, within } from "@testing-library/react";
import { onlineManager } from "@tanstack/react-query";
import type { Cart, CartLine } from "@cartner/contract";
import { callsTo, json, stubFetch } from "../../test/fetch-stub.ts";
import { renderApp, signInAs, testUser } from "../../test/render-app.tsx";
import { ben, makeCart, makeLine, member, products } from "../../test/test-carts.ts";
import { ADD_FREE_LINE_LABEL, freeLineBody } from "./FreeLineForm.tsx";

/** The test user's mug and Ben's socks; the test user is a participant (Ann created it). */
function cartAsParticipant() {
  const ann = { _id: "a0000000-0000-4000-8000-000000000001", name: "Ann Archer" };
  const mug = makeLine(testUser, products.mug, 1);
  const socks = makeLine(ben, products.socks, 1);
  return makeCart([mug, socks], {
    creator: ann,
    members: [member(ann, "creator"), member(testUser, "participant"), member(ben, "participant")],
  });
}

function open(cart: Cart) {
  signInAs();
  let current = cart;
  const candles: CartLine = makeLine(testUser, { name: "Birthday candles", price: 1.99 }, 3, {
    productId: {
      _id: null,
      name: "Birthday candles",
      price: 1.99,
      imageUrl: "http://localhost/free-line.svg",
    },
    lineTotal: 5.97,
    free: true,
    estimated: true,
    note: "blue ones",
  });
  const fetchMock = stubFetch({
    "GET /api/auth/validate-token": () => json(200, { valid: true, user: testUser }),
    "GET /api/sessions/sync": () => json(200, { sessions: [], version: 0 }),
    "GET /api/carts": () => json(200, { carts: [current] }),
    [`POST /api/carts/${cart._id}/free-lines`]: () => {
      current = { ...current, products: [...current.products, candles] };
      return json(200, { message: "Added to cart", cart: current });
    },
    [`PATCH /api/carts/${cart._id}/lines/${cart.products[0]!._id}`]: ({ body }) => {
      const patch = body as { note: string | null; substitute: CartLine["substitute"] };
      current = {
        ...current,
        products: current.products.map((l, i) => (i === 0 ? { ...l, ...patch } : l)),
      };
      return json(200, { cart: current });
    },
  });
  return { ...renderApp("/cart"), fetchMock };
}

describe("free lines on the cart page", () => {
  it("adds something not in the list with the keyboard: what the form shows is what it sends", async () => {
    const cart = cartAsParticipant();
    const { user, fetchMock } = open(cart);
    await screen.findAllByText(products.mug.name);
    await user.click(screen.getByRole("button", { name: ADD_FREE_LINE_LABEL }));
    const form = screen.getByRole("form", { name: ADD_FREE_LINE_LABEL });
    // The name field takes the focus; an empty name and a negative price are refused here.
    expect(within(form).getByLabelText("Name")).toHaveFocus();
    await user.type(within(form).getByLabelText(/Estimated price each/), "-1");
    await user.keyboard("{Enter}");
    expect(await within(form).findByText("Name what you need")).toBeInTheDocument();
    expect(within(form).getByText("A price of 0 or more")).toBeInTheDocument();
    expect(callsTo(fetchMock, `POST /api/carts/${cart._id}/free-lines`)).toHaveLength(0);

    await user.type(within(form).getByLabelText("Name"), "Birthday candles");
    const quantity = within(form).getByLabelText("Quantity");
    await user.clear(quantity);
    await user.type(quantity, "3");
    const price = within(form).getByLabelText(/Estimated price each/);
    await user.clear(price);
    await user.type(price, "1.99");
    await user.type(within(form).getByLabelText(/Note for the shopper/), "blue ones");
    await user.keyboard("{Enter}");
    await waitFor(() =>
      expect(callsTo(fetchMock, `POST /api/carts/${cart._id}/free-lines`)).toHaveLength(1),
    );
    const [sent] = callsTo(fetchMock, `POST /api/carts/${cart._id}/free-lines`);
    expect(JSON.parse(String(sent!.body))).toEqual({
      name: "Birthday candles",
      quantity: 3,
      estimatedPrice: 1.99,
      note: "blue ones",
    });
    // The new line shows by name, marked estimated, with its note.
    const named = await screen.findAllByText("Birthday candles");
    const row = named.map((e) => e.closest("tr")).find(Boolean)!;
    expect(within(row).getByText("Estimated")).toBeInTheDocument();
    expect(within(row).getByText("Note: blue ones")).toBeInTheDocument();
    expect(screen.getByText(/includes estimated prices/)).toBeInTheDocument();
  });

  it("the adder edits a line's note and substitute; another member's line has no editor", async () => {
    const cart = cartAsParticipant();
    const { user, fetchMock } = open(cart);
    await screen.findAllByText(products.mug.name);
    expect(
      screen.queryByRole("button", { name: `Note and substitute: ${products.socks.name}` }),
    ).not.toBeInTheDocument();
    await user.click(
      screen.getByRole("button", { name: `Note and substitute: ${products.mug.name}` }),
    );
    const form = screen.getByRole("form", { name: `Note and substitute for ${products.mug.name}` });
    await user.type(within(form).getByLabelText("Note for the shopper"), "the blue glaze");
    await user.selectOptions(within(form).getByLabelText("If it is not there"), "none");
    await user.click(within(form).getByRole("button", { name: "Save" }));
    const url = `PATCH /api/carts/${cart._id}/lines/${cart.products[0]!._id}`;
    await waitFor(() => expect(callsTo(fetchMock, url)).toHaveLength(1));
    expect(JSON.parse(String(callsTo(fetchMock, url)[0]!.body))).toEqual({
      note: "the blue glaze",
      substitute: "none",
    });
    expect(await screen.findByText("Note: the blue glaze")).toBeInTheDocument();
    expect(screen.getByText("No substitute")).toBeInTheDocument();
  });
});

describe("a free line kept private", () => {
  it("sends hiddenFrom with the members picked: not the creator, not oneself", async () => {
    const cart = cartAsParticipant();
    const { user, fetchMock } = open(cart);
    await screen.findAllByText(products.mug.name);
    await user.click(screen.getByRole("button", { name: ADD_FREE_LINE_LABEL }));
    const form = screen.getByRole("form", { name: ADD_FREE_LINE_LABEL });
    await user.type(within(form).getByLabelText("Name"), "Birthday candles");
    await user.click(within(form).getByText("Keep it private from…"));
    const group = within(form).getByRole("group", { name: /won't see it/ });
    // Only Ben: Ann created the session (she sees every private line), and the adder is oneself.
    expect(within(group).getAllByRole("checkbox")).toHaveLength(1);
    await user.click(within(group).getByRole("checkbox", { name: /Ben/ }));
    await user.click(within(form).getByRole("button", { name: "Add to cart" }));
    await waitFor(() =>
      expect(callsTo(fetchMock, `POST /api/carts/${cart._id}/free-lines`)).toHaveLength(1),
    );
    const [sent] = callsTo(fetchMock, `POST /api/carts/${cart._id}/free-lines`);
    expect(JSON.parse(String(sent!.body))).toEqual({
      name: "Birthday candles",
      quantity: 1,
      hiddenFrom: [ben._id],
    });
  });
});

describe("free lines and notes offline", () => {
  afterEach(() => onlineManager.setOnline(true));

  it("queues a free line and a note made offline as pending, then sends them once, in order", async () => {
    const cart = cartAsParticipant();
    const { user, fetchMock } = open(cart);
    await screen.findAllByText(products.mug.name);
    act(() => onlineManager.setOnline(false));

    await user.click(screen.getByRole("button", { name: ADD_FREE_LINE_LABEL }));
    const form = screen.getByRole("form", { name: ADD_FREE_LINE_LABEL });
    await user.type(within(form).getByLabelText("Name"), "Birthday candles");
    await user.type(within(form).getByLabelText(/Estimated price each/), "1.99");
    await user.keyboard("{Enter}");
    // The form closes at once and gives the focus back; the line waits, drawn as it will be.
    const toggle = await screen.findByRole("button", { name: ADD_FREE_LINE_LABEL });
    expect(toggle).toHaveFocus();
    const candles = screen.getAllByRole("row").find((r) => r.textContent?.includes("Birthday"))!;
    expect(within(candles).getByText("Pending: waiting for connection")).toBeInTheDocument();
    expect(within(candles).getByText("Estimated")).toBeInTheDocument();

    await user.click(
      screen.getByRole("button", { name: `Note and substitute: ${products.mug.name}` }),
    );
    const noteForm = screen.getByRole("form", {
      name: `Note and substitute for ${products.mug.name}`,
    });
    await user.type(within(noteForm).getByLabelText("Note for the shopper"), "the blue glaze");
    await user.click(within(noteForm).getByRole("button", { name: "Save" }));
    const mugRow = screen.getAllByRole("row").find((r) => r.textContent?.includes("Mug"))!;
    expect(within(mugRow).getByText("Note: the blue glaze")).toBeInTheDocument();
    expect(within(mugRow).getByText("Pending: waiting for connection")).toBeInTheDocument();
    expect(
      within(mugRow).getByRole("button", { name: `Note and substitute: ${products.mug.name}` }),
    ).toHaveFocus();

    const writes = () =>
      fetchMock.mock.calls.filter(([, init]) => init?.method && init.method !== "GET");
    expect(writes()).toHaveLength(0);
    act(() => onlineManager.setOnline(true));
    await waitFor(() => expect(writes()).toHaveLength(2));
    const [free, note] = writes();
    expect(String(free![0])).toContain(`/api/carts/${cart._id}/free-lines`);
    expect(String(note![0])).toContain(`/api/carts/${cart._id}/lines/${cart.products[0]!._id}`);
    const keys = writes().map(([, init]) => new Headers(init!.headers).get("Idempotency-Key"));
    expect(new Set(keys).size).toBe(2);
    await waitFor(() =>
      expect(screen.queryByText("Pending: waiting for connection")).not.toBeInTheDocument(),
    );
    expect(writes()).toHaveLength(2);
  });
});

describe("freeLineBody", () => {
  it("names each field the server would refuse", () => {
    expect(
      freeLineBody({ name: "x".repeat(121), quantity: "0", estimatedPrice: "1.234", note: "" }),
    ).toEqual({
      errors: {
        name: "At most 120 characters",
        quantity: "A whole number from 1 to 99",
        estimatedPrice: "At most two decimals",
      },
    });
    expect(
      freeLineBody({ name: " Bread ", quantity: "2", estimatedPrice: "", note: "x".repeat(201) }),
    ).toEqual({ errors: { note: "At most 200 characters" } });
    expect(freeLineBody({ name: " Bread ", quantity: "2", estimatedPrice: "0", note: "" })).toEqual(
      { body: { name: "Bread", quantity: 2, estimatedPrice: 0 } },
    );
  });
});
