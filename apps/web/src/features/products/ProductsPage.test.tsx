import { describe, expect, it, vi } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import { json, stubFetch, type StubHandler } from "../../test/fetch-stub.ts";
import { renderApp, signInAs, testUser } from "../../test/render-app.tsx";
import type { Product } from "@cartner/contract";
import { listBody, sampleProducts } from "./test-products.ts";

const validate: StubHandler = () => json(200, { valid: true, user: testUser });

/** The requests the page sent to GET /api/products, in order. */
function productRequests(mock: ReturnType<typeof stubFetch>): URLSearchParams[] {
  return mock.mock.calls
    .map(([input]) => new URL(String(input), "http://localhost"))
    .filter((url) => url.pathname === "/api/products")
    .map((url) => url.searchParams);
}

/** Their filters (the query string without the page, which every request names). */
function productQueries(mock: ReturnType<typeof stubFetch>): string[] {
  return productRequests(mock).map((params) => {
    const filters = new URLSearchParams(params);
    filters.delete("limit");
    filters.delete("offset");
    return filters.toString();
  });
}

function openProducts(path = "/products", products: StubHandler = () => json(200, listBody())) {
  signInAs();
  const fetchMock = stubFetch({
    "GET /api/auth/validate-token": validate,
    "GET /api/products": products,
  });
  return { ...renderApp(path), fetchMock };
}

describe("products page", () => {
  it("reads the catalog a page at a time, the next when asked for", async () => {
    const many = Array.from({ length: 62 }, (_, i) => ({
      ...sampleProducts[i % sampleProducts.length]!,
      _id: `p-${i}`,
      name: `Product ${i}`,
    }));
    // Each request answered with the page it names.
    const page = () => {
      const offset = Number(productRequests(fetchMock).at(-1)!.get("offset"));
      return json(200, { products: many.slice(offset, offset + 60), total: 62 });
    };
    const { user, fetchMock } = openProducts("/products", page);
    expect(await screen.findByText("62 products")).toBeInTheDocument();
    // The first page is drawn a few cards at a time (useProgressiveCount).
    await waitFor(() => expect(screen.getAllByRole("article")).toHaveLength(60), {
      timeout: 10_000,
    });
    expect(screen.getByText("Showing 60 of 62")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Show more products" }));
    await waitFor(() => expect(screen.getAllByRole("article")).toHaveLength(62), {
      timeout: 10_000,
    });
    expect(screen.queryByRole("button", { name: "Show more products" })).not.toBeInTheDocument();
    expect(new Set(productRequests(fetchMock).map((params) => params.toString()))).toEqual(
      new Set(["limit=60&offset=0", "limit=60&offset=60"]),
    );
  });

  it("shows the server's products as cards with the result count", async () => {
    openProducts();
    expect(await screen.findByRole("heading", { level: 1, name: "Marketplace" })).toBeVisible();
    expect(await screen.findByText("4 products")).toBeInTheDocument();

    // The first row comes at once, the rest right after (see the next test).
    await waitFor(() => expect(screen.getAllByRole("article")).toHaveLength(4));
    const cards = screen.getAllByRole("article");
    const first = within(cards[0]!);
    const image = first.getByRole("img", { name: "Aurora Wireless Headphones" });
    // The first row is on screen at once (the first image is the page's largest paint); the rest
    // load as they scroll into view.
    expect(image).toHaveAttribute("loading", "eager");
    expect(image).toHaveAttribute("fetchpriority", "high");
    expect(image).toHaveAttribute("width");
    expect(image).toHaveAttribute("height");
    const second = within(cards[1]!).getByRole("img", { name: "Pocket Speaker" });
    expect(second).toHaveAttribute("loading", "eager");
    expect(second).not.toHaveAttribute("fetchpriority");
    const fourth = within(cards[3]!).getByRole("img", { name: "Glow Serum" });
    expect(fourth).toHaveAttribute("loading", "lazy");
    expect(fourth).not.toHaveAttribute("fetchpriority");
    expect(first.getByText("$129.99")).toBeInTheDocument();
    expect(first.getByRole("img", { name: "Rated 4.5 out of 5" })).toBeInTheDocument();
    expect(first.getByText("1,284 reviews")).toBeInTheDocument();
    expect(first.getByRole("link", { name: "View Aurora Wireless Headphones" })).toHaveAttribute(
      "href",
      "/product/p-headphones",
    );
    // Out of stock: nothing to add.
    expect(
      within(cards[1]!).getByRole("button", { name: "Add Pocket Speaker to cart" }),
    ).toBeDisabled();
  });

  it("draws a long list a row first, then the rest in batches, until every product is there", async () => {
    const many: Product[] = Array.from({ length: 20 }, (_, i) => ({
      ...sampleProducts[i % sampleProducts.length]!,
      _id: `p-${i}`,
      name: `Product ${i + 1}`,
    }));
    openProducts("/products", () => json(200, listBody(many)));
    expect(await screen.findByText("20 products")).toBeInTheDocument();
    const list = screen.getAllByRole("list").find((ul) => ul.querySelector("article"))!;
    // The first row comes with the list (three cards from `lg` up), and the list says it is busy
    // until the rest are drawn.
    expect(within(list).getAllByRole("article").length).toBeLessThan(20);
    expect(list).toHaveAttribute("aria-busy", "true");

    await waitFor(() => expect(within(list).getAllByRole("article")).toHaveLength(20));
    expect(list).not.toHaveAttribute("aria-busy");
    const names = within(list)
      .getAllByRole("heading", { level: 3 })
      .map((heading) => heading.textContent);
    expect(names).toEqual(many.map((product) => product.name));
    // The first row's images load at once, the first with high priority; the others lazily.
    const images = within(list).getAllByRole("img", { name: /^Product \d+$/ });
    expect(images.map((image) => image.getAttribute("loading"))).toEqual([
      "eager",
      "eager",
      "eager",
      ...Array<string>(17).fill("lazy"),
    ]);
    expect(images[0]).toHaveAttribute("fetchpriority", "high");
  });

  it("says an add needs an active session (SPEC's toast) for now", async () => {
    const { user } = openProducts();
    await user.click(
      await screen.findByRole("button", { name: "Add Aurora Wireless Headphones to cart" }),
    );
    expect(await screen.findByText("Please select a session with a cart.")).toBeInTheDocument();
  });

  it("filters through the URL: a category, the sort and a search each push an entry", async () => {
    const { user, fetchMock } = openProducts();
    await screen.findByText("4 products");

    await user.click(screen.getByRole("checkbox", { name: "Electronics" }));
    await waitFor(() => expect(window.location.search).toBe("?category=Electronics"));

    await user.click(screen.getByRole("radio", { name: "Price Low to High" }));
    await waitFor(() =>
      expect(window.location.search).toBe("?category=Electronics&sort=price_asc"),
    );
    expect(screen.getByRole("radio", { name: "Price Low to High" })).toBeChecked();

    await user.type(screen.getByRole("searchbox", { name: "Search products" }), "audio{Enter}");
    await waitFor(() =>
      expect(window.location.search).toBe("?q=audio&category=Electronics&sort=price_asc"),
    );
    await waitFor(() =>
      expect(productQueries(fetchMock)).toEqual([
        "",
        "category=Electronics",
        "category=Electronics&sort=price_asc",
        "q=audio&category=Electronics&sort=price_asc",
      ]),
    );

    // Back undoes one change at a time, and the controls follow the URL.
    window.history.back();
    await waitFor(() =>
      expect(screen.getByRole("searchbox", { name: "Search products" })).toHaveValue(""),
    );
    window.history.back();
    await waitFor(() => expect(screen.getByRole("radio", { name: "Relevance" })).toBeChecked());
    expect(screen.getByRole("checkbox", { name: "Electronics" })).toBeChecked();
  });

  it("reads a shared link's filters into the controls and the request", async () => {
    const { fetchMock } = openProducts(
      "/products?category=Drinks&category=Beauty&minPrice=5&maxPrice=30&sort=rating&q=tea",
    );
    await screen.findByText("4 products for “tea”");
    expect(screen.getByRole("checkbox", { name: "Drinks" })).toBeChecked();
    expect(screen.getByRole("checkbox", { name: "Beauty" })).toBeChecked();
    expect(screen.getByRole("checkbox", { name: "Electronics" })).not.toBeChecked();
    expect(screen.getByRole("radio", { name: "Customer Rating" })).toBeChecked();
    expect(screen.getByRole("slider", { name: "Minimum price" })).toHaveAttribute(
      "aria-valuenow",
      "5",
    );
    expect(screen.getByRole("slider", { name: "Maximum price" })).toHaveAttribute(
      "aria-valuenow",
      "30",
    );
    expect(screen.getByRole("searchbox", { name: "Search products" })).toHaveValue("tea");
    expect(productQueries(fetchMock)).toEqual([
      "q=tea&category=Beauty&category=Drinks&minPrice=5&maxPrice=30&sort=rating",
    ]);
  });

  it("says when nothing matches, and Clear filters brings the whole list back", async () => {
    const { user, fetchMock } = openProducts("/products?category=Beauty&q=zzz", ({ path }) =>
      json(200, path === "/api/products" ? listBody([]) : {}),
    );
    expect(await screen.findByText("No products match your filters.")).toBeInTheDocument();
    expect(screen.getByText("0 products for “zzz”")).toBeInTheDocument();

    stubFetch({
      "GET /api/auth/validate-token": validate,
      "GET /api/products": () => json(200, listBody()),
    });
    await user.click(screen.getByRole("button", { name: "Clear filters" }));

    await waitFor(() => expect(window.location.search).toBe(""));
    expect(await screen.findByText("4 products")).toBeInTheDocument();
    expect(screen.queryByText("No products match your filters.")).not.toBeInTheDocument();
    expect(screen.getByRole("checkbox", { name: "Beauty" })).not.toBeChecked();
    expect(screen.getByRole("searchbox", { name: "Search products" })).toHaveValue("");
    expect(productQueries(fetchMock)).toEqual(["q=zzz&category=Beauty"]);
  });

  it("shows an error with a retry that loads the list", async () => {
    let fail = true;
    const { user } = openProducts("/products", () =>
      fail
        ? json(500, { message: "Database unavailable", code: "INTERNAL_ERROR" })
        : json(200, listBody()),
    );
    expect(await screen.findByText("We couldn't load the products.")).toBeInTheDocument();
    expect(screen.getByText("Database unavailable")).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole("button", { name: "Try again" }));
    expect(await screen.findByText("4 products")).toBeInTheDocument();
  });

  it("collapses the filters behind a Filters toggle", async () => {
    const { user } = openProducts("/products?category=Food");
    const toggle = await screen.findByRole("button", { name: /^Filters/ });
    expect(toggle).toHaveAttribute("aria-expanded", "false");
    expect(toggle).toHaveTextContent("1 active");
    const panel = document.getElementById(toggle.getAttribute("aria-controls") ?? "");
    expect(panel).toHaveClass("hidden");
    await user.click(toggle);
    expect(toggle).toHaveAttribute("aria-expanded", "true");
    expect(panel).not.toHaveClass("hidden");
  });

  it("on a small screen, mounts the price slider when the filters are first shown", async () => {
    vi.stubGlobal("matchMedia", () => ({
      matches: false,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    }));
    const { user } = openProducts("/products?minPrice=100&maxPrice=500");
    const toggle = await screen.findByRole("button", { name: /^Filters/ });
    expect(await screen.findByText("4 products")).toBeInTheDocument();
    expect(screen.queryByRole("slider", { name: "Minimum price" })).not.toBeInTheDocument();

    await user.click(toggle);
    expect(screen.getByRole("slider", { name: "Minimum price" })).toHaveAttribute(
      "aria-valuenow",
      "100",
    );
    expect(screen.getByRole("slider", { name: "Maximum price" })).toHaveAttribute(
      "aria-valuenow",
      "500",
    );
    // Closed again, the panel keeps its slider.
    await user.click(toggle);
    expect(toggle).toHaveAttribute("aria-expanded", "false");
    expect(screen.getByRole("slider", { name: "Minimum price" })).toBeInTheDocument();
  });

  it("shows the price slider at once where the filters sit beside the grid", async () => {
    vi.stubGlobal("matchMedia", (query: string) => ({
      matches: query === "(min-width: 64rem)",
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    }));
    openProducts();
    expect(await screen.findByRole("slider", { name: "Minimum price" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: /^Filters/ })).toHaveAttribute(
      "aria-expanded",
      "false",
    );
  });
});

describe("product page", () => {
  const headphones = sampleProducts[0]!;

  function openProduct(id: string, detail: StubHandler) {
    signInAs();
    stubFetch({
      "GET /api/auth/validate-token": validate,
      "GET /api/products": () => json(200, listBody()),
      [`GET /api/products/${id}`]: detail,
    });
    return renderApp(`/product/${id}`);
  }

  it("shows the product, SPEC's placeholders and the similar products, same category first", async () => {
    const { user } = openProduct(headphones._id, () => json(200, { product: headphones }));
    expect(
      await screen.findByRole("heading", { level: 1, name: "Aurora Wireless Headphones" }),
    ).toBeVisible();
    expect(screen.getByText("$129.99")).toBeInTheDocument();
    expect(screen.getByText("In stock: 12")).toBeInTheDocument();
    expect(screen.getByText(headphones.description)).toBeInTheDocument();
    expect(screen.getByText("Session data not available")).toBeInTheDocument();
    expect(screen.getByText("Cart data not available")).toBeInTheDocument();
    expect(screen.getByText("No reviews yet.")).toBeInTheDocument();

    const similar = () => screen.getByRole("region", { name: "Similar Products" });
    const links = await waitFor(() => within(similar()).getAllByRole("link"));
    expect(links.map((link) => link.getAttribute("href"))).toEqual([
      "/product/p-speaker",
      "/product/p-tea",
      "/product/p-serum",
    ]);
    expect(within(similar()).getByRole("button", { name: "Next products" })).toBeInTheDocument();
    expect(
      within(similar()).getByRole("button", { name: "Previous products" }),
    ).toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: "Add to Cart" }));
    expect(await screen.findByText("Please select a session with a cart.")).toBeInTheDocument();
  });

  it("says 'Product not found.' for a missing product", async () => {
    openProduct("nope", () => json(404, { message: "Product not found", code: "NOT_FOUND" }));
    expect(
      await screen.findByRole("heading", { level: 1, name: "Product not found." }),
    ).toBeVisible();
    expect(screen.getByRole("link", { name: "Back to products" })).toHaveAttribute(
      "href",
      "/products",
    );
  });

  it("opened from a filtered list, links back to that list", async () => {
    signInAs();
    stubFetch({
      "GET /api/auth/validate-token": validate,
      "GET /api/products": () => json(200, listBody()),
      "GET /api/products/p-headphones": () => json(200, { product: headphones }),
    });
    const { user } = renderApp("/products?category=Electronics&sort=rating");
    await user.click(await screen.findByRole("link", { name: "View Aurora Wireless Headphones" }));
    await waitFor(() => expect(window.location.pathname).toBe("/product/p-headphones"));
    const back = await screen.findByRole("link", { name: "Back to products" });
    expect(back).toHaveAttribute("href", "/products?category=Electronics&sort=rating");
    await user.click(back);
    await waitFor(() => expect(window.location.search).toBe("?category=Electronics&sort=rating"));
    expect(screen.getByRole("checkbox", { name: "Electronics" })).toBeChecked();
  });
});
