import { expect, test, type Page } from "@playwright/test";
import { signUp } from "./fixtures.ts";

/**
 * / and /login arrive as prerendered HTML, so they are drawn before (and
 * without) any JavaScript, and React then adopts that HTML without redrawing it.
 */

/** Console errors React prints when the HTML it adopts differs from what it would draw. */
function watchHydration(page: Page): string[] {
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" || message.type() === "warning") {
      if (/hydrat|did not match|server rendered/i.test(message.text())) {
        problems.push(message.text());
      }
    }
  });
  page.on("pageerror", (error) => problems.push(error.message));
  return problems;
}

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the landing and sign-in pages are already there", async ({ page }) => {
    await page.goto("/");
    await expect(
      page.getByRole("heading", { level: 1, name: /one cart for your group/i }),
    ).toBeVisible();
    await expect(page.getByRole("heading", { name: "Start a shopping session" })).toBeVisible();
    await expect(page.getByLabel("Session Name")).toBeVisible();
    await expect(page.getByRole("link", { name: "Login" })).toBeVisible();
    await expect(page).toHaveTitle("Cartner — shop together");
    await expect(page.locator("noscript .noscript-notice")).toBeVisible();

    await page.goto("/login");
    await expect(page.getByRole("heading", { name: "Welcome back" })).toBeVisible();
    await expect(page.getByLabel("Email")).toBeVisible();
    await expect(page.getByLabel("Password", { exact: true })).toBeVisible();
    await expect(page).toHaveTitle("Welcome back — Cartner");
    // Nothing on them works without it, and the page says so (text locators skip <noscript>).
    const notice = page.locator("noscript .noscript-notice");
    await expect(notice).toBeVisible();
    expect(await notice.innerText()).toContain("Cartner needs JavaScript to run.");
  });
});

test("React adopts the prerendered pages without redrawing them, and they work", async ({
  page,
}) => {
  const problems = watchHydration(page);
  await page.goto("/");
  const heading = page.getByRole("heading", { level: 1, name: /one cart for your group/i });
  await expect(heading).toBeVisible();
  // The element painted from the HTML is the one React keeps (hydrated, not replaced).
  await heading.evaluate((element) => element.setAttribute("data-first-paint", "yes"));
  await page.getByLabel("Session Name").fill("Picnic");
  await page.getByLabel("Session Type").selectOption("Friends");
  await expect(page.getByRole("button", { name: "Start Session" })).toBeEnabled();
  await expect(heading).toHaveAttribute("data-first-paint", "yes");
  await expect(page.locator(".noscript-notice")).toBeHidden();

  // A client-side navigation to the other prerendered page (no page load: the marker stays).
  await page.evaluate(() => Object.assign(window, { samePage: true }));
  await page.getByRole("link", { name: "Login" }).first().click();
  await expect(page.getByRole("heading", { name: "Welcome back" })).toBeVisible();
  expect(await page.evaluate(() => "samePage" in window)).toBe(true);

  await page.goto("/login");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("Email is required").first()).toBeVisible();
  expect(problems).toEqual([]);
});

test("a signed-in user opening / gets their own page, not the visitor's", async ({ page }) => {
  const problems = watchHydration(page);
  const user = await signUp(page);
  await page.goto("/");
  await expect(page.getByRole("link", { name: `Welcome, ${user.name}` })).toBeVisible();
  await expect(page.getByRole("link", { name: "Login" })).toHaveCount(0);
  expect(problems).toEqual([]);
});
