import { describe, expect, it } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import type { CatalogChange, Product, User } from "@cartner/contract";
import { callsTo, json, stubFetch, type StubHandler } from "../../test/fetch-stub.ts";
import { renderApp, signInAs, testUser } from "../../test/render-app.tsx";

const product = (_id: string, name: string, price: number, stock: number): Product => ({
  _id,
  name,
  price,
  imageUrl: `/api/catalog/images/${_id}.svg`,
  rating: 0,
  reviews: 0,
  description: "",
  category: "Electronics",
  stock,
  brand: null,
  gtin: null,
  available: true,
  key: _id,
});
const sampleProducts = [
  product("p-headphones", "Aurora Wireless Headphones", 129.99, 12),
  product("p-speaker", "Pocket Speaker", 49, 0),
];

const operator: User = { ...testUser, roles: ["operator"] };
const ann = { _id: testUser._id, name: testUser.name };

function open(routes: Record<string, StubHandler>, options: { user?: User; path?: string } = {}) {
  const user = options.user ?? operator;
  signInAs(user);
  const mock = stubFetch({
    "GET /api/auth/validate-token": () => json(200, { valid: true, user }),
    "GET /api/sessions/sync": () => json(200, { sessions: [], version: 0 }),
    "GET /api/catalog/changes": () => json(200, { changes: [], nextCursor: null }),
    ...routes,
  });
  return { ...renderApp(options.path ?? "/catalog"), mock };
}

/** GET /api/catalog/products answering what `current()` holds at each call. */
const listing = (current: () => Product[]) => () =>
  json(200, { products: current(), nextCursor: null });

describe("the Catalog page", () => {
  it("is linked from the navigation for operators only", async () => {
    open({ "GET /api/catalog/products": listing(() => sampleProducts) }, { path: "/sessions" });
    const nav = await screen.findByRole("navigation", { name: "Main" });
    expect(await within(nav).findByRole("link", { name: "Catalog" })).toHaveAttribute(
      "href",
      "/catalog",
    );
  });

  it("is not linked for a member, and tells a member who opens it that it is the operators'", async () => {
    open(
      {
        "GET /api/catalog/products": () =>
          json(403, { message: "Only the catalog's operators can do that.", code: "FORBIDDEN" }),
        "GET /api/catalog/changes": () =>
          json(403, { message: "Only the catalog's operators can do that.", code: "FORBIDDEN" }),
      },
      { user: testUser },
    );
    expect(
      await screen.findByText("Only the catalog's operators can see this page."),
    ).toBeVisible();
    const nav = screen.getByRole("navigation", { name: "Main" });
    expect(within(nav).queryByRole("link", { name: "Catalog" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Add a product" })).toBeNull();
  });

  it("edits a price in place with the keyboard, and shows the saved value", async () => {
    let products = sampleProducts;
    const { user, mock } = open({
      "GET /api/catalog/products": listing(() => products),
      "PATCH /api/catalog/products/p-headphones": ({ body }) => {
        products = products.map((p) =>
          p._id === "p-headphones" ? { ...p, ...(body as Partial<Product>) } : p,
        );
        return json(200, { product: products[0] });
      },
    });
    const edit = await screen.findByRole("button", { name: "Edit Aurora Wireless Headphones" });
    await user.click(edit);
    const form = screen.getByRole("form", { name: "Edit Aurora Wireless Headphones" });
    // The editor opens on its first field.
    expect(within(form).getByLabelText("Name")).toHaveFocus();
    const price = within(form).getByLabelText("Price");
    await user.clear(price);
    await user.type(price, "119.50{Enter}");
    await waitFor(() =>
      expect(callsTo(mock, "PATCH /api/catalog/products/p-headphones")).toHaveLength(1),
    );
    expect(
      JSON.parse(String(callsTo(mock, "PATCH /api/catalog/products/p-headphones")[0]!.body)),
    ).toEqual({
      price: 119.5,
    });
    await waitFor(() =>
      expect(screen.queryByRole("form", { name: "Edit Aurora Wireless Headphones" })).toBeNull(),
    );
    const row = screen
      .getByRole("button", { name: "Edit Aurora Wireless Headphones" })
      .closest("li")!;
    expect(await within(row).findByText("$119.50")).toBeVisible();
  });

  it("cancels with Escape, back on the Edit button, sending nothing", async () => {
    const { user, mock } = open({ "GET /api/catalog/products": listing(() => sampleProducts) });
    const edit = await screen.findByRole("button", { name: "Edit Pocket Speaker" });
    await user.click(edit);
    await user.type(screen.getByLabelText("Stock"), "5");
    await user.keyboard("{Escape}");
    expect(screen.queryByRole("form", { name: "Edit Pocket Speaker" })).toBeNull();
    await waitFor(() =>
      expect(screen.getByRole("button", { name: "Edit Pocket Speaker" })).toHaveFocus(),
    );
    expect(callsTo(mock, "PATCH /api/catalog/products/p-speaker")).toHaveLength(0);
  });

  it("shows the server's refusal by the field it names", async () => {
    const { user } = open({
      "GET /api/catalog/products": listing(() => sampleProducts),
      "PATCH /api/catalog/products/p-speaker": () =>
        json(400, {
          message: "Invalid price: must be at most 1000000",
          code: "VALIDATION",
          fields: { price: "must be at most 1000000" },
        }),
    });
    await user.click(await screen.findByRole("button", { name: "Edit Pocket Speaker" }));
    const price = screen.getByLabelText("Price");
    await user.clear(price);
    await user.type(price, "2000000");
    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(await screen.findByText("must be at most 1000000")).toBeVisible();
    expect(price).toHaveAttribute("aria-invalid", "true");
    expect(price).toHaveFocus();
  });

  it("makes a product unavailable, and available again", async () => {
    let products = sampleProducts;
    const { user, mock } = open({
      "GET /api/catalog/products": listing(() => products),
      "PATCH /api/catalog/products/p-speaker": ({ body }) => {
        products = products.map((p) =>
          p._id === "p-speaker" ? { ...p, ...(body as Partial<Product>) } : p,
        );
        return json(200, { product: products.find((p) => p._id === "p-speaker") });
      },
    });
    const row = (await screen.findByRole("button", { name: "Edit Pocket Speaker" })).closest("li")!;
    // Each row's toggle names its product (a list of "Make unavailable" says nothing).
    await user.click(within(row).getByRole("button", { name: "Make unavailable: Pocket Speaker" }));
    expect(await within(row).findByText("Off sale")).toBeVisible();
    await user.click(within(row).getByRole("button", { name: "Make available: Pocket Speaker" }));
    expect(await within(row).findByText("On sale")).toBeVisible();
    expect(
      callsTo(mock, "PATCH /api/catalog/products/p-speaker").map((c) => JSON.parse(String(c.body))),
    ).toEqual([{ available: false }, { available: true }]);
  });

  it("searches as the operator types", async () => {
    const { user, mock } = open({
      "GET /api/catalog/products": listing(() => sampleProducts),
    });
    await user.type(
      await screen.findByRole("searchbox", { name: "Search the catalog" }),
      "speaker",
    );
    await waitFor(() =>
      expect(
        mock.mock.calls.some(([input]) =>
          String(input).includes("/api/catalog/products?q=speaker"),
        ),
      ).toBe(true),
    );
  });

  it("adds a product with its picture", async () => {
    const added = { ...sampleProducts[0]!, _id: "p-new", name: "Birthday candles", price: 2.5 };
    const { user, mock } = open({
      "GET /api/catalog/products": listing(() => sampleProducts),
      "POST /api/catalog/products": () => json(201, { product: added }),
      "PUT /api/catalog/products/p-new/image": () => json(200, { product: added }),
    });
    await user.click(await screen.findByRole("button", { name: "Add a product" }));
    // The form opens on its first field (the button that opened it is gone).
    expect(screen.getByRole("textbox", { name: "Name" })).toHaveFocus();
    await user.type(screen.getByRole("textbox", { name: "Name" }), "Birthday candles");
    await user.type(screen.getByRole("textbox", { name: "Price" }), "2.50");
    await user.upload(
      screen.getByLabelText(/Picture/),
      new File([new Uint8Array([0xff, 0xd8, 0xff])], "candles.jpg", { type: "image/jpeg" }),
    );
    await user.click(screen.getByRole("button", { name: "Add product" }));
    await waitFor(() =>
      expect(callsTo(mock, "PUT /api/catalog/products/p-new/image")).toHaveLength(1),
    );
    expect(JSON.parse(String(callsTo(mock, "POST /api/catalog/products")[0]!.body))).toEqual({
      name: "Birthday candles",
      category: "Groceries",
      price: 2.5,
      stock: 0,
      description: "",
    });
    const upload = callsTo(mock, "PUT /api/catalog/products/p-new/image")[0]!.body as FormData;
    expect((upload.get("image") as File).name).toBe("candles.jpg");
    // The form closes once the product is there, and the focus is back on its button.
    await waitFor(() => expect(screen.queryByRole("button", { name: "Add product" })).toBeNull());
    expect(screen.getByRole("button", { name: "Add a product" })).toHaveFocus();
  });

  it("names the field a new product is refused for, without a request when it can tell", async () => {
    const { user, mock } = open({ "GET /api/catalog/products": listing(() => sampleProducts) });
    await user.click(await screen.findByRole("button", { name: "Add a product" }));
    await user.type(screen.getByRole("textbox", { name: "Price" }), "cheap");
    await user.click(screen.getByRole("button", { name: "Add product" }));
    expect(await screen.findByText("Enter a name.")).toBeVisible();
    expect(screen.getByText("Enter a price such as 2.99.")).toBeVisible();
    expect(screen.getByRole("textbox", { name: "Name" })).toHaveFocus();
    expect(callsTo(mock, "POST /api/catalog/products")).toHaveLength(0);
  });

  it("lists recent changes with who made them", async () => {
    const changes: CatalogChange[] = [
      {
        at: "2026-11-29T10:00:00.000Z",
        by: ann,
        productId: "p-speaker",
        field: "price",
        from: 49,
        to: 45,
      },
    ];
    open({
      "GET /api/catalog/products": listing(() => sampleProducts),
      "GET /api/catalog/changes": () => json(200, { changes, nextCursor: null }),
      "GET /api/products/p-speaker": () => json(200, { product: sampleProducts[1] }),
    });
    const list = await screen.findByRole("list", { name: "Recent changes" });
    expect(
      await within(list).findByText(
        "Ada Lovelace changed the price of Pocket Speaker from $49.00 to $45.00",
      ),
    ).toBeVisible();
  });

  it("says when nothing matches", async () => {
    open({ "GET /api/catalog/products": listing(() => []) });
    expect(await screen.findByText("No products here yet.")).toBeVisible();
    expect(await screen.findByText(/No changes yet/)).toBeVisible();
  });
});
