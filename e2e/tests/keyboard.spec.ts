import { expect, test, type Page } from "@playwright/test";
import { signUp } from "./fixtures.ts";

interface TabReport {
  stops: number;
  /** Tab stops that Tab never reached. */
  missed: string[];
  /** Elements that took focus from Tab with no visible change (no outline, same box-shadow). */
  noIndicator: string[];
}

/**
 * Presses Tab through the whole page. Every element that should be a Tab stop (focusable, visible,
 * enabled, not inert; one per group of radio buttons) must be reached, and each must show a focus
 * indicator when it is: an outline, or a box-shadow other than its unfocused one.
 */
async function tabThrough(page: Page): Promise<TabReport> {
  // / and /login are painted from prerendered HTML before React adopts it: tab once every control
  // is React's (hydration can re-render a control while Tab is on its way).
  await page.waitForFunction(() =>
    Array.from(document.querySelectorAll("#root a[href], #root button, #root input")).every((el) =>
      Object.keys(el).some((key) => key.startsWith("__reactFiber$")),
    ),
  );
  await page.evaluate(() => document.body.focus());
  const stops = await page.evaluate(() => {
    const describe = (el: HTMLElement) =>
      `${el.tagName.toLowerCase()} "${(el.getAttribute("aria-label") ?? el.textContent ?? el.getAttribute("name") ?? "").trim().slice(0, 40)}"`;
    const selector =
      'a[href], button, input, select, textarea, summary, [tabindex], [contenteditable="true"]';
    const candidates = Array.from(document.querySelectorAll<HTMLElement>(selector)).filter(
      (el) =>
        el.tabIndex >= 0 &&
        !el.matches(":disabled") &&
        !el.closest("[inert], .Toastify") &&
        el.checkVisibility({ visibilityProperty: true }),
    );
    const radioGroups = new Map<string, number>();
    let next = 0;
    for (const el of candidates) {
      const group = el instanceof HTMLInputElement && el.type === "radio" ? el.name : "";
      let stop: number;
      if (group && radioGroups.has(group)) stop = radioGroups.get(group)!;
      else {
        stop = next++;
        if (group) radioGroups.set(group, stop);
      }
      el.dataset.tabStop = String(stop);
      el.dataset.tabName = describe(el);
      el.dataset.blurShadow = getComputedStyle(el).boxShadow;
    }
    const log: Array<{ stop: string | null; name: string; indicator: boolean }> = [];
    (window as unknown as { tabLog: typeof log }).tabLog = log;
    document.addEventListener("focusin", (event) => {
      const el = event.target as HTMLElement;
      const entry = { stop: el.dataset.tabStop ?? null, name: el.dataset.tabName ?? describe(el) };
      // Judge the look once the focus settles: a roving-focus container (Radix tab list) passes
      // focus straight on to its current item, and only that item needs to show it.
      queueMicrotask(() => {
        const style = getComputedStyle(el);
        const outline = style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0;
        const indicator = outline || style.boxShadow !== el.dataset.blurShadow;
        log.push({ ...entry, indicator: indicator || document.activeElement !== el });
      });
    });
    return next;
  });

  // A few presses more than there are stops: focus leaves the page once at the end.
  for (let i = 0; i < stops + 5; i++) await page.keyboard.press("Tab");

  return page.evaluate((count) => {
    const log = (
      window as unknown as {
        tabLog: Array<{ stop: string | null; name: string; indicator: boolean }>;
      }
    ).tabLog;
    const reached = new Set(log.map((entry) => entry.stop));
    const missed = Array.from(document.querySelectorAll<HTMLElement>("[data-tab-stop]"))
      .filter((el) => !reached.has(el.dataset.tabStop!))
      .map((el) => el.dataset.tabName!);
    const noIndicator = [...new Set(log.filter((e) => !e.indicator).map((e) => e.name))];
    return { stops: count, missed: [...new Set(missed)], noIndicator };
  }, stops);
}

async function expectKeyboardUsable(page: Page, minStops: number) {
  const report = await tabThrough(page);
  const where = new URL(page.url()).pathname;
  expect(report.stops, `Tab stops on ${where}`).toBeGreaterThanOrEqual(minStops);
  expect(report.missed, `not reachable with Tab on ${where}`).toEqual([]);
  expect(report.noIndicator, `no visible focus indicator on ${where}`).toEqual([]);
}

test("signed out, the landing and login pages are fully usable with Tab", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expectKeyboardUsable(page, 5);

  await page.goto("/login");
  await expect(page.getByRole("button", { name: "Sign in", exact: true })).toBeVisible();
  await expectKeyboardUsable(page, 4);
});

test("signed in, products, a product, sessions and the cart are fully usable with Tab", async ({
  page,
}) => {
  await signUp(page);
  const token = await page.evaluate(() => localStorage.getItem("token"));
  const headers = { Authorization: `Bearer ${token}` };
  const created = await page.request.post("/api/sessions", {
    headers,
    data: { sessionName: "Keyboard run", sessionType: "Solo", participants: "1" },
  });
  expect(created.ok()).toBe(true);
  const { session } = (await created.json()) as { session: { cartId: string } };
  const listed = await page.request.get("/api/products", { headers });
  const { products } = (await listed.json()) as {
    products: Array<{ _id: string; name: string; stock: number }>;
  };
  const product = products.find((p) => p.stock > 0)!;
  const added = await page.request.post(`/api/carts/${session.cartId}/product`, {
    headers,
    data: { productId: product._id, quantity: 1 },
  });
  expect(added.ok()).toBe(true);

  await page.goto("/products");
  await expect(page.getByRole("button", { name: `Add ${product.name} to cart` })).toBeEnabled();
  await expectKeyboardUsable(page, 50);

  await page.goto(`/product/${product._id}`);
  await expect(page.getByRole("heading", { level: 1, name: product.name })).toBeVisible();
  await expectKeyboardUsable(page, 8);

  await page.goto("/sessions");
  await expect(
    page.getByRole("tabpanel", { name: "Active" }).getByText("Keyboard run").first(),
  ).toBeVisible();
  await expectKeyboardUsable(page, 8);

  await page.goto("/cart");
  await expect(page.getByText(product.name).first()).toBeVisible();
  await expectKeyboardUsable(page, 6);
});
