import { expect, test, type Locator, type Page } from "@playwright/test";
import { expectNoA11yViolations, signUp, watchConsole } from "./fixtures.ts";

interface GridCard {
  name: string;
  category: string;
  price: number;
}

/** The grid's cards once it has settled (no newer list loading behind the current one). */
async function readGrid(page: Page): Promise<GridCard[]> {
  await expect(page.locator('main ul[aria-busy="true"]')).toHaveCount(0);
  return page.getByRole("article").evaluateAll((cards) =>
    cards.map((card) => ({
      name: card.querySelector("h3")?.textContent?.trim() ?? "",
      category: card.querySelector('[data-testid="product-category"]')?.textContent?.trim() ?? "",
      price: Number(
        (card.querySelector('[data-testid="product-price"]')?.textContent ?? "").replace(
          /[^0-9.]/g,
          "",
        ),
      ),
    })),
  );
}

/** The result count the page announces, e.g. "48 products". */
function resultCount(page: Page): Locator {
  return page.getByRole("status").filter({ hasText: /^\d[\d,]* products?\b/ });
}

async function countOf(page: Page): Promise<number> {
  const text = (await resultCount(page).textContent()) ?? "";
  return Number(text.replace(/,/g, "").match(/^(\d+)/)?.[1] ?? Number.NaN);
}

/** Scrolls every image on the page into view (lazy ones start loading), then checks each loaded. */
async function expectAllImagesLoaded(page: Page, expected: number) {
  const images = page.locator("main img");
  await expect(images).toHaveCount(expected);
  for (let i = 0; i < expected; i++) await images.nth(i).scrollIntoViewIfNeeded();
  await expect
    .poll(() =>
      images.evaluateAll((all) =>
        all
          .map((el, i) => ({ i, el: el as HTMLImageElement }))
          .filter(({ el }) => !(el.complete && el.naturalWidth > 0))
          .map(({ i, el }) => `#${i + 1} ${el.currentSrc || el.src}`),
      ),
    )
    .toEqual([]);
}

test.beforeEach(async ({ page }) => {
  await signUp(page);
});

test("filter by category and price, sort, search, open a product and come back to the same list", async ({
  page,
}) => {
  const problems = watchConsole(page);
  await page.goto("/products");
  await expect(page.getByRole("heading", { level: 1, name: "Marketplace" })).toBeVisible();
  await expect(resultCount(page)).toBeVisible();
  const all = await readGrid(page);
  expect(all.length).toBeGreaterThanOrEqual(48);
  expect(await countOf(page)).toBe(all.length);

  // A category.
  await page.getByRole("checkbox", { name: "Electronics" }).check();
  await expect(page).toHaveURL(/[?&]category=Electronics\b/);
  await expect(async () => {
    const cards = await readGrid(page);
    expect(cards.length).toBeGreaterThanOrEqual(5);
    expect(cards.length).toBeLessThan(all.length);
    expect(new Set(cards.map((c) => c.category))).toEqual(new Set(["Electronics"]));
  }).toPass();

  // A price range, with the keyboard: minimum up by $10 (two steps), maximum down by $400.
  const min = page.getByRole("slider", { name: "Minimum price" });
  const max = page.getByRole("slider", { name: "Maximum price" });
  await min.focus();
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  await expect(min).toHaveAttribute("aria-valuenow", "10");
  await max.focus();
  for (let i = 0; i < 8; i++) await page.keyboard.press("PageDown");
  await expect(max).toHaveAttribute("aria-valuenow", "600");
  await expect(max).toHaveAttribute("aria-valuetext", "$600");
  await expect(page).toHaveURL(/minPrice=10&maxPrice=600/);
  await expect(async () => {
    const cards = await readGrid(page);
    expect(cards.length).toBeGreaterThan(0);
    for (const card of cards) {
      expect(card.category).toBe("Electronics");
      expect(card.price).toBeGreaterThanOrEqual(10);
      expect(card.price).toBeLessThanOrEqual(600);
    }
  }).toPass();

  // Sort: one choice at a time.
  await page.getByRole("radio", { name: "Price High to Low" }).check();
  await expect(page).toHaveURL(/sort=price_desc/);
  await page.getByRole("radio", { name: "Price Low to High" }).check();
  await expect(page).toHaveURL(/sort=price_asc/);
  await expect(page.getByRole("radio", { name: "Price High to Low" })).not.toBeChecked();
  let sorted: GridCard[] = [];
  await expect(async () => {
    sorted = await readGrid(page);
    const prices = sorted.map((c) => c.price);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
  }).toPass();

  // Search for a word from one of the names shown: that product stays, within the same filters.
  const target = sorted[0]!;
  const word =
    target.name
      .split(/\s+/)
      .filter((w) => /^[A-Za-z]{3,}$/.test(w))
      .sort((a, b) => b.length - a.length)[0] ?? target.name;
  await page.getByRole("searchbox", { name: "Search products" }).fill(word);
  await page.getByRole("searchbox", { name: "Search products" }).press("Enter");
  await expect.poll(() => new URL(page.url()).searchParams.get("q")).toBe(word);
  await expect(async () => {
    const cards = await readGrid(page);
    expect(cards.map((c) => c.name)).toContain(target.name);
    expect(cards.length).toBeLessThanOrEqual(sorted.length);
    expect(await countOf(page)).toBe(cards.length);
  }).toPass();

  const listUrl = page.url();
  const listNames = (await readGrid(page)).map((c) => c.name);

  // Open the product, then the browser's Back: the same filtered list.
  await page.getByRole("link", { name: `View ${target.name}` }).click();
  await expect(page).toHaveURL(/\/product\/[^/]+$/);
  await expect(page.getByRole("heading", { level: 1, name: target.name })).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(listUrl);
  await expect(async () => {
    expect((await readGrid(page)).map((c) => c.name)).toEqual(listNames);
  }).toPass();
  await expect(page.getByRole("checkbox", { name: "Electronics" })).toBeChecked();
  await expect(page.getByRole("radio", { name: "Price Low to High" })).toBeChecked();
  await expect(page.getByRole("searchbox", { name: "Search products" })).toHaveValue(word);

  // Open it again, hop to a similar product, and use the page's own back link.
  await page.getByRole("link", { name: `View ${target.name}` }).click();
  const similar = page.getByRole("region", { name: "Similar Products" });
  await similar.getByRole("link").first().click();
  await expect(page.getByRole("heading", { level: 1 })).not.toHaveText(target.name);
  await page.getByRole("link", { name: "Back to products" }).click();
  await expect(page).toHaveURL(listUrl);
  await expect(async () => {
    expect((await readGrid(page)).map((c) => c.name)).toEqual(listNames);
  }).toPass();

  expect(problems).toEqual([]);
});

test("a search with no match says so, and Clear filters brings everything back", async ({
  page,
}) => {
  await page.goto("/products?category=Beauty&q=zzqx-nothing-like-this");
  await expect(page.getByText("No products match your filters.")).toBeVisible();
  await page.getByRole("button", { name: "Clear filters" }).click();
  await expect(page).toHaveURL(/\/products$/);
  await expect(resultCount(page)).toBeVisible();
  expect(await countOf(page)).toBeGreaterThanOrEqual(48);
  await expect(page.getByRole("checkbox", { name: "Beauty" })).not.toBeChecked();
});

test("every product image loads, in the grid and on a product page", async ({ page }) => {
  test.slow();
  const problems = watchConsole(page);
  await page.goto("/products");
  await expect(resultCount(page)).toBeVisible();
  const cards = await readGrid(page);
  await expectAllImagesLoaded(page, cards.length);

  await page.getByRole("link", { name: `View ${cards[0]!.name}` }).click();
  await expect(page.getByRole("heading", { level: 1, name: cards[0]!.name })).toBeVisible();
  // Similar products: the others of its category (a page of it, not the whole catalog).
  const similar = page.getByRole("region", { name: "Similar Products" });
  const sameCategory = cards.filter((card) => card.category === cards[0]!.category).length;
  await expect(similar.getByRole("link")).toHaveCount(sameCategory - 1);
  // The main image plus one per similar product.
  await expectAllImagesLoaded(page, sameCategory);
  expect(problems).toEqual([]);
});

test("an unknown product says 'Product not found.'", async ({ page }) => {
  await page.goto("/product/no-such-product");
  await expect(page.getByRole("heading", { level: 1, name: "Product not found." })).toBeVisible();
  await page.getByRole("link", { name: "Back to products" }).click();
  await expect(page).toHaveURL(/\/products$/);
});

test("at 360 px the filters collapse behind a Filters button and nothing overflows sideways", async ({
  page,
}) => {
  await page.setViewportSize({ width: 360, height: 780 });
  await page.goto("/products");
  await expect(resultCount(page)).toBeVisible();
  const toggle = page.getByRole("button", { name: /^Filters/ });
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await expect(page.getByRole("checkbox", { name: "Electronics" })).toBeHidden();
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  await page.getByRole("checkbox", { name: "Clothing" }).check();
  await expect(page).toHaveURL(/category=Clothing/);
  await expect(toggle).toContainText("1");

  const overflow = () =>
    page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(await overflow()).toBeLessThanOrEqual(0);
  const first = (await readGrid(page))[0]!;
  await page.getByRole("link", { name: `View ${first.name}` }).click();
  await expect(page.getByRole("heading", { level: 1, name: first.name })).toBeVisible();
  expect(await overflow()).toBeLessThanOrEqual(0);
});

test("the products and product pages have no serious accessibility violations", async ({
  page,
}) => {
  await page.goto("/products?category=Electronics&minPrice=50&maxPrice=900");
  await expect(resultCount(page)).toBeVisible();
  await readGrid(page);
  await expectNoA11yViolations(page);

  const first = (await readGrid(page))[0]!;
  await page.getByRole("link", { name: `View ${first.name}` }).click();
  await expect(
    page.getByRole("region", { name: "Similar Products" }).getByRole("link").first(),
  ).toBeVisible();
  await expectNoA11yViolations(page);
});
