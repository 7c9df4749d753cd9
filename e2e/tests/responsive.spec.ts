import { expect, test } from "@playwright/test";
import { expectNoA11yViolations } from "./fixtures.ts";

test("at 360 px the navigation collapses into a hamburger that closes on route change", async ({
  page,
}) => {
  await page.goto("/");
  const menu = page.getByRole("button", { name: "Menu" });
  await expect(menu).toBeVisible();
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await menu.click();
  await expect(menu).toHaveAttribute("aria-expanded", "true");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Login" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  // Nothing overflows sideways.
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - window.innerWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
});

for (const path of ["/", "/login", "/register", "/verify-otp", "/nowhere"]) {
  test(`${path} has no serious accessibility violations at 360 px`, async ({ page }) => {
    await page.goto(path);
    await expect(page.locator("main")).toBeVisible();
    await expectNoA11yViolations(page);
  });
}
