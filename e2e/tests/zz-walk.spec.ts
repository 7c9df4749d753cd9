import crypto from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { apiCall, cartOf, checkOutFromSummary, person, type Product } from "./fixtures.ts";

const shot = (page: Page, name: string) =>
  page.screenshot({ path: `/tmp/walk/${name}.png`, fullPage: false });

test("walk: a family of three on phones", async ({ browser }) => {
  const phone = { viewport: { width: 390, height: 844 } };
  const [ann, ben, cat] = await Promise.all([
    person(browser, "Ann", phone),
    person(browser, "Ben", phone),
    person(browser, "Cat", phone),
  ]);
  const name = `Family walk ${crypto.randomBytes(2).toString("hex")}`;
  await ann.page.goto("/sessions");
  const form = ann.page.getByRole("form", { name: "Create a session" });
  await form.getByLabel("Session Name").fill(name);
  await form.getByLabel("Session Type").selectOption("Family");
  await form.getByRole("group", { name: "What a Family session sets" }).scrollIntoViewIfNeeded();
  await shot(ann.page, "01-ann-family-form");
  await form.getByLabel(/Passcode/).fill("home-7");
  await form.getByRole("button", { name: "Create Session" }).click();
  await expect(ann.page).toHaveURL(/\/session\/[0-9a-f-]{36}$/);
  const sessionId = ann.page.url().split("/").pop()!;
  const { session } = await apiCall<{ session: { sessionCode: string; cartId: string } }>(
    ann, "GET", `/api/sessions/${sessionId}`);
  for (const m of [ben, cat]) {
    await apiCall(m, "POST", "/api/sessions/join/code", { sessionCode: session.sessionCode, passcode: "home-7" });
    await apiCall(ann, "POST", `/api/sessions/approve/${session.sessionCode}`, { userId: m.id });
  }
  await ann.page.reload();
  await ann.page.getByRole("button", { name: "Mark Cat as a child" }).click();
  await shot(ann.page, "02-ann-mark-child");
  await ann.page.getByRole("group", { name: "Mark Cat as a child" }).getByRole("button", { name: "Mark as child" }).click();
  await expect(ann.page.getByText("Cat is marked as a child.")).toBeVisible();

  const { products } = await apiCall<{ products: Product[] }>(ann, "GET", "/api/products");
  const inStock = products.filter((p) => p.stock >= 5).sort((a, b) => a.price - b.price);
  const [bread, gift] = [inStock[0]!, inStock.at(-1)!];
  const toy = inStock.find((p) => p.price > 30 && p._id !== gift._id)!;
  await apiCall(cat, "POST", `/api/carts/${session.cartId}/product`, { productId: bread._id });

  // Ben adds a free line in the UI.
  await ben.page.goto("/cart");
  const bcart = cartOf(ben.page, name);
  await bcart.getByRole("button", { name: "Add something not in the list" }).click();
  const ff = bcart.getByRole("form", { name: "Add something not in the list" });
  await ben.page.keyboard.type("Birthday candles");
  await ff.getByLabel(/Estimated price each/).fill("3.50");
  await ff.getByLabel(/Note for the shopper/).fill("blue ones");
  await shot(ben.page, "03-ben-free-line-form");
  await ff.getByLabel(/Note for the shopper/).press("Enter");
  await expect(bcart.getByRole("row").filter({ hasText: "Birthday candles" })).toContainText("Estimated");
  await shot(ben.page, "04-ben-cart");

  // Ann adds the gift private from Cat.
  await ann.page.goto(`/product/${gift._id}`);
  await ann.page.getByText("Keep it private from…").click();
  await ann.page.getByRole("checkbox", { name: "Cat" }).check();
  await shot(ann.page, "05-ann-private-add");
  await ann.page.getByRole("button", { name: "Add to Cart" }).click();
  await ann.page.goto("/cart");
  await expect(cartOf(ann.page, name).getByRole("row").filter({ hasText: gift.name })).toContainText("Private");
  await shot(ann.page, "06-ann-cart");

  await cat.page.goto("/cart");
  const ccart = cartOf(cat.page, name);
  await expect(ccart).toContainText(/includes 1 private item/i);
  await shot(cat.page, "07-cat-cart");
  // Cat asks first (marked as child): a toy over her budget waits.
  await apiCall(ann, "PATCH", `/api/sessions/${sessionId}/members/${cat.id}`, { budget: 10, budgetMode: "ask" });
  await apiCall(cat, "POST", `/api/carts/${session.cartId}/product`, { productId: toy._id });
  await expect(ccart.getByRole("row").filter({ hasText: toy.name })).toContainText("Waiting for approval");
  await ccart.getByRole("row").filter({ hasText: toy.name }).scrollIntoViewIfNeeded();
  await shot(cat.page, "08-cat-waiting");
  const bell = ann.page.getByRole("button", { name: /^Notifications, / });
  await expect(bell).not.toHaveAccessibleName("Notifications, none unread");
  await bell.click();
  await shot(ann.page, "09-ann-bell");
  await ann.page.getByRole("dialog", { name: "Notifications" })
    .getByRole("button", { name: new RegExp(`^Approve: Cat asks to add ${toy.name}`) }).click();
  await expect(ann.page.getByText("Approved.").first()).toBeVisible();
  await expect(ccart.getByRole("row").filter({ hasText: toy.name })).not.toContainText("Waiting for approval");
  await shot(cat.page, "10-cat-approved");

  // Look-only link made in the UI? Made through the API, opened in a fresh browser.
  const { link } = await apiCall<{ link: { _id: string; url: string } }>(ann, "POST",
    `/api/sessions/${sessionId}/links`, { lookOnly: true, expiresInHours: 24 });
  const neighbour = await browser.newContext(phone);
  const look = await neighbour.newPage();
  await look.goto(new URL(link.url).pathname);
  await expect(look.getByTestId("look-line").first()).toBeVisible();
  await shot(look, "11-look-only");
  await apiCall(ann, "DELETE", `/api/sessions/${sessionId}/links/${link._id}`);
  await expect(look.getByRole("heading", { name: "This link no longer works" })).toBeVisible();
  await shot(look, "12-look-revoked");

  await ann.page.goto(`/session-summary/${sessionId}`);
  await ann.page.getByRole("button", { name: "Check out" }).click();
  await shot(ann.page, "13-ann-checkout-confirm");
  await ann.page.getByRole("dialog", { name: "Check out this cart?" }).getByRole("button", { name: "Check out" }).click();
  await expect(ann.page).toHaveURL(/\/orders\/[0-9a-f-]{36}$/);
  const orderId = ann.page.url().split("/").pop()!;
  await shot(ann.page, "14-ann-order");
  await cat.page.goto(`/orders/${orderId}`);
  await expect(cat.page.getByRole("main")).toContainText("The total includes 1 private item.");
  await shot(cat.page, "15-cat-order");
  await ben.page.goto(`/orders/${orderId}`);
  await expect(ben.page.getByRole("main")).toContainText("Birthday candles");
  await shot(ben.page, "16-ben-order");
  void checkOutFromSummary;
});
