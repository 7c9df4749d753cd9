import crypto from "node:crypto";
import { expect, test } from "@playwright/test";
import {
  apiCall,
  cartOf,
  expectNoA11yViolations,
  person,
  watchConsole,
  type Product,
} from "./fixtures.ts";

test("a look-only link: Ann makes one, someone without an account opens it and sees the list live, and it goes dark when Ann revokes it", async ({
  browser,
}) => {
  const ann = await person(browser, "Ann");
  const sessionName = `Weekly shop ${crypto.randomBytes(3).toString("hex")}`;
  const { session } = await apiCall<{ session: { _id: string; cartId: string } }>(
    ann,
    "POST",
    "/api/sessions",
    { sessionName, sessionType: "Family", participants: "3+" },
  );
  const { products } = await apiCall<{ products: Product[] }>(ann, "GET", "/api/products");
  const bread = products.find((p) => p.stock >= 5)!;
  await apiCall(ann, "POST", `/api/carts/${session.cartId}/product`, {
    productId: bread._id,
    quantity: 2,
  });

  // Ann makes a look-only link in the lobby: no role, no uses.
  await ann.page.goto(`/session/${session._id}`);
  const card = ann.page.getByRole("region", { name: "Invite links" });
  await card.getByLabel("Kind of link").selectOption("look");
  await expect(card.getByLabel("Role")).toBeHidden();
  await expect(card.getByLabel("Uses")).toBeHidden();
  await expect(card.getByTestId("look-only-help")).toContainText("No names, emails or shares");
  await card.getByRole("button", { name: "Create look-only link" }).click();
  const row = card.getByTestId("invite-link").first();
  await expect(row).toContainText("Look only");
  const url = (await row.locator("p.font-mono").textContent())!.trim();
  expect(url).toMatch(/\/look\/[A-Za-z0-9_-]{22}$/);

  // A fresh browser, no account, on a phone-sized screen, opens it.
  const shopper = await browser.newContext({ viewport: { width: 360, height: 740 } });
  const page = await shopper.newPage();
  const problems = watchConsole(page, { serverErrors: true });
  await page.goto(new URL(url).pathname);
  await expect(page.getByRole("heading", { name: sessionName })).toBeVisible();
  const lines = page.getByTestId("look-line");
  await expect(lines).toHaveCount(1);
  await expect(lines.first()).toContainText(bread.name);
  await expect(lines.first()).toContainText(/Quantity\s*×\s*2/);
  await expect(page.getByText("Live", { exact: true })).toBeVisible();
  // Nothing about the members: not even Ann's name.
  await expect(page.getByRole("main")).not.toContainText("Ann");
  const scrolls = await page.evaluate(
    () => document.documentElement.scrollWidth > document.documentElement.clientWidth,
  );
  expect(scrolls, "the page scrolls sideways at 360 px").toBe(false);
  await expectNoA11yViolations(page);

  // Ann adds something with a note on her cart page: it appears, with the note, by itself.
  await ann.page.goto("/cart");
  const cart = cartOf(ann.page, sessionName);
  await cart.getByRole("button", { name: "Add something not in the list" }).click();
  const form = cart.getByRole("form", { name: "Add something not in the list" });
  await form.getByLabel("Name").fill("Birthday candles");
  await form.getByLabel(/Note for the shopper/).fill("blue ones");
  await form.getByLabel(/Note for the shopper/).press("Enter");
  await expect(cart.getByRole("row").filter({ hasText: "Birthday candles" })).toBeVisible();
  await expect(lines).toHaveCount(2);
  const candles = lines.filter({ hasText: "Birthday candles" });
  await expect(candles).toContainText("Note: blue ones");

  // Ann revokes it: the open page goes dark at once and the list is gone.
  await ann.page.goto(`/session/${session._id}`);
  const lookRow = ann.page
    .getByRole("region", { name: "Invite links" })
    .getByTestId("invite-link")
    .filter({ hasText: "Look only" });
  await lookRow.getByRole("button", { name: "Revoke" }).click();
  await expect(lookRow).toContainText("Revoked");
  await expect(page.getByRole("heading", { name: "This link no longer works" })).toBeVisible();
  await expect(page.getByTestId("look-line")).toHaveCount(0);
  await expect(page.getByRole("main")).not.toContainText(bread.name);

  // Opened again later, it still says so.
  await page.reload();
  await expect(page.getByRole("heading", { name: "This link no longer works" })).toBeVisible();
  expect(problems.filter((p) => !p.includes("/api/look/"))).toEqual([]);
  await shopper.close();
});
