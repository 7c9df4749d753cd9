import crypto from "node:crypto";
import { expect, test } from "@playwright/test";
import {
  apiCall,
  cartOf,
  checkOutFromSummary,
  orderSummaryTotal,
  pdfText,
  person,
  runningTotals,
  sharedSession,
  sum,
  type Product,
} from "./fixtures.ts";

interface Order {
  total: number;
  lines: { name: string }[];
  split: { name: string; total: number }[];
}

const cents = (amount: number) => Math.round(amount * 100);

test("surprises and limits: Ann hides a gift from Cat, who never sees it (cart, summary, look-only link, order, receipt, notifications) while her figures add up; Cat asks to add a toy over her budget and Ann approves it from the notification; after the shop Ann reveals the gift", async ({
  browser,
}) => {
  const [ann, cat] = await Promise.all([person(browser, "Ann"), person(browser, "Cat")]);
  const sessionName = `Family shop ${crypto.randomBytes(3).toString("hex")}`;
  const { products } = await apiCall<{ products: Product[] }>(ann, "GET", "/api/products");
  const inStock = products.filter((p) => p.stock >= 5).sort((a, b) => a.price - b.price);
  const [bread, gift] = [inStock[0]!, inStock.at(-1)!];
  const toy = inStock.find((p) => p.price > 10 && p._id !== gift._id)!;
  const session = await sharedSession(ann, [], sessionName, { participants: "3+" });
  await apiCall(cat, "POST", "/api/sessions/join/code", {
    sessionCode: session.sessionCode,
    passcode: "sesame-42",
  });
  await apiCall(ann, "POST", `/api/sessions/approve/${session.sessionCode}`, { userId: cat.id });
  await apiCall(cat, "POST", `/api/carts/${session.cartId}/product`, { productId: bread._id });
  await cat.page.goto("/cart");
  const catCart = cartOf(cat.page, sessionName);
  await expect(catCart.getByRole("row").filter({ hasText: bread.name })).toBeVisible();

  // With Cat in the session and her cart open, Ann adds the gift private from her from the start.
  await ann.page.goto(`/product/${gift._id}`);
  await ann.page.getByText("Keep it private from…").click();
  await ann.page.getByRole("checkbox", { name: "Cat" }).check();
  await ann.page.getByRole("button", { name: "Add to Cart" }).click();
  await ann.page.goto("/cart");
  const annCart = cartOf(ann.page, sessionName);
  await expect(annCart.getByRole("row").filter({ hasText: gift.name })).toContainText("Private");

  // Cat's cart, live and on a fresh load, and her summary: no gift, the count beside the total,
  // and her figures add up. Her bell was never told of the add.
  await expect(catCart).toContainText(/includes 1 private item/i);
  await expect(catCart).not.toContainText(gift.name);
  const told = await apiCall<{ notifications: { body: string }[] }>(
    cat,
    "GET",
    "/api/notifications",
  );
  expect(told.notifications.map((n) => n.body).join(" | ")).not.toContain(gift.name);
  await cat.page.reload();
  await expect(catCart.getByRole("row").filter({ hasText: bread.name })).toBeVisible();
  await expect(catCart).not.toContainText(gift.name);
  await expect(catCart).toContainText(/includes 1 private item/i);
  const totals = await runningTotals(cat.page, sessionName);
  expect(sum(totals)).toBe(await orderSummaryTotal(cat.page, sessionName));
  await cat.page.goto(`/session-summary/${session._id}`);
  await expect(cat.page.getByRole("main")).toContainText(/includes 1 private item/i);
  await expect(cat.page.getByRole("main")).not.toContainText(gift.name);

  // Ann gives Cat a budget of $10 that asks first; Cat adds a toy over it: it waits.
  await apiCall(ann, "PATCH", `/api/sessions/${session._id}/members/${cat.id}`, {
    budget: 10,
    budgetMode: "ask",
  });
  await cat.page.goto("/cart");
  await apiCall(cat, "POST", `/api/carts/${session.cartId}/product`, { productId: toy._id });
  const toyRow = catCart.getByRole("row").filter({ hasText: toy.name });
  await expect(toyRow).toContainText("Waiting for approval");

  // Ann approves it from the notification in her bell.
  const bell = ann.page.getByRole("button", { name: /^Notifications, / });
  await expect(bell).not.toHaveAccessibleName("Notifications, none unread");
  await bell.click();
  const panel = ann.page.getByRole("dialog", { name: "Notifications" });
  await panel
    .getByRole("button", { name: new RegExp(`^Approve: Cat asks to add ${toy.name}`) })
    .click();
  await expect(ann.page.getByText("Approved.").first()).toBeVisible();

  // Cat sees it land, live: no longer waiting, in her running total, still no gift.
  await expect(toyRow).not.toContainText("Waiting for approval");
  await expect(catCart).not.toContainText(gift.name);
  await expect
    .poll(async () => sum(await runningTotals(cat.page, sessionName)))
    .toBe(await orderSummaryTotal(cat.page, sessionName));

  // A look-only link for the neighbour doing the shop, opened in a fresh browser: the list
  // without the gift; revoked, it goes dark at once.
  const { link } = await apiCall<{ link: { _id: string; url: string } }>(
    ann,
    "POST",
    `/api/sessions/${session._id}/links`,
    { lookOnly: true, expiresInHours: 24 },
  );
  const neighbour = await browser.newContext();
  const look = await neighbour.newPage();
  await look.goto(new URL(link.url).pathname);
  await expect(look.getByTestId("look-line").filter({ hasText: toy.name })).toBeVisible();
  await expect(look.getByTestId("look-line").filter({ hasText: bread.name })).toBeVisible();
  await expect(look.getByRole("main")).not.toContainText(gift.name);
  await apiCall(ann, "DELETE", `/api/sessions/${session._id}/links/${link._id}`);
  await expect(look.getByRole("heading", { name: "This link no longer works" })).toBeVisible();
  await expect(look.getByTestId("look-line")).toHaveCount(0);
  await neighbour.close();

  // Ann checks out. Cat's order and receipt never show the gift; her figures still add up.
  const orderId = await checkOutFromSummary(ann.page, session._id);
  await cat.page.goto(`/orders/${orderId}`);
  const catOrder = cat.page.getByRole("main");
  await expect(catOrder).toContainText(toy.name);
  await expect(catOrder).toContainText("The total includes 1 private item.");
  await expect(catOrder).not.toContainText(gift.name);
  const seen = await apiCall<{ order: Order }>(cat, "GET", `/api/orders/${orderId}`);
  expect(seen.order.lines.map((l) => l.name)).not.toContain(gift.name);
  expect(sum(Object.fromEntries(seen.order.split.map((s) => [s.name, cents(s.total)])))).toBe(
    cents(seen.order.total),
  );
  const receipt = await cat.page.request.get(`/api/orders/${orderId}/receipt.pdf`, {
    headers: { Authorization: `Bearer ${cat.token}` },
  });
  expect(receipt.status()).toBe(200);
  const text = await pdfText(new Uint8Array(await receipt.body()));
  expect(text).toContain(toy.name);
  expect(text).not.toContain(gift.name);
  // Her notifications never named it either.
  await cat.page.getByRole("button", { name: /^Notifications, / }).click();
  await expect(cat.page.getByRole("dialog", { name: "Notifications" })).not.toContainText(
    gift.name,
  );

  // The present was given: Ann reveals it, and Cat's order shows it, live.
  await ann.page.getByRole("button", { name: "Reveal private items" }).click();
  await ann.page
    .getByRole("dialog", { name: "Reveal the private item?" })
    .getByRole("button", { name: "Reveal" })
    .click();
  await expect(catOrder).toContainText(gift.name);
  await expect(catOrder).not.toContainText("private item");

  for (const who of [ann, cat]) expect(who.problems, who.user.name).toEqual([]);
});
