import { expect, test, type Page } from "@playwright/test";
import {
  apiCall,
  enterCode,
  expectNoA11yViolations,
  newUser,
  readCode,
  registerViaUi,
  sharedSession,
  signUp,
} from "./fixtures.ts";

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

test("at 360 px the menu has My Orders, with the shares still to pay, and Balances", async ({
  page,
  browser,
}) => {
  // Mia signs up here at 360 px (her empty profile sends her to the profile editor); Ann, in a
  // context of her own, checks out a cart they share through the API.
  const miaUser = newUser("Mia");
  await registerViaUi(page, miaUser);
  await enterCode(page, await readCode(page.request, miaUser.email));
  await expect(page).not.toHaveURL(/\/verify-otp$/);
  const signedIn = (p: Page) =>
    p.evaluate(() => ({
      token: localStorage.getItem("token") ?? "",
      id: (JSON.parse(localStorage.getItem("user") ?? "{}") as { _id?: string })._id ?? "",
    }));
  // Ann's context is a desktop one: the sign-up helper finds her Logout button in the header.
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const ann = { page: await context.newPage(), token: "" };
  await signUp(ann.page, newUser("Ann"));
  ann.token = (await signedIn(ann.page)).token;
  const mia = { page, ...(await signedIn(page)) };
  const session = await sharedSession(ann, [mia], "Mobile menu");
  const { products } = await apiCall<{ products: { _id: string; stock: number }[] }>(
    ann,
    "GET",
    "/api/products",
  );
  // Mia adds the item, so the split gives her a share to pay.
  await apiCall(mia, "POST", `/api/carts/${session.cartId}/product`, {
    productId: products.find((p) => p.stock >= 10)!._id,
  });
  await apiCall(ann, "POST", `/api/sessions/${session._id}/checkout`);

  await page.goto("/editme");
  const menu = page.getByRole("button", { name: "Menu" });
  await menu.click();
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link", { name: "Balances" })).toBeVisible();
  const myOrders = nav.getByRole("link", { name: /^My Orders ?\(1 share to pay\)$/ });
  await expect(myOrders).toBeVisible();
  await expectNoA11yViolations(page, "open menu at 360 px");
  await myOrders.click();
  await expect(page).toHaveURL(/\/orders$/);
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await expect(page.getByRole("heading", { level: 1, name: "My Orders" })).toBeVisible();
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - window.innerWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
  await context.close();
});

test("at 360 px the bell opens the notifications, and /notifications fits with its settings", async ({
  page,
}) => {
  const user = newUser("Noa");
  await registerViaUi(page, user);
  await enterCode(page, await readCode(page.request, user.email));
  await expect(page).not.toHaveURL(/\/verify-otp$/);
  const bell = page.getByRole("button", { name: "Notifications, none unread" });
  await expect(bell).toBeVisible();
  await bell.click();
  const panel = page.getByRole("dialog", { name: "Notifications" });
  await expect(panel.getByText(/Nothing yet/)).toBeVisible();
  await panel.getByRole("link", { name: "See all notifications" }).click();
  await expect(page).toHaveURL(/\/notifications$/);
  await expect(page.getByRole("heading", { name: "Notifications", level: 1 })).toBeVisible();
  await expect(page.getByRole("checkbox", { name: "Changes by others: In app" })).toBeVisible();
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - window.innerWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
  await expectNoA11yViolations(page);
});
