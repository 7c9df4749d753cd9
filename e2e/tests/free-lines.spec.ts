import crypto from "node:crypto";
import { expect, test } from "@playwright/test";
import {
  apiCall,
  cartOf,
  checkOutFromSummary,
  person,
  sharedSession,
  type Product,
} from "./fixtures.ts";

interface Order {
  _id: string;
  total: number;
  subtotal: number;
  lines: { name: string; estimated: boolean; unitPrice: number }[];
  split: { userId: string; name: string; subtotal: number; total: number }[];
}

const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
const cents = (amount: number) => Math.round(amount * 100);

test("free lines: Ben adds something not in the list, shares it with Ann, Ann checks out and prices it on the order; every share adds up to the cent", async ({
  browser,
}) => {
  const [ann, ben] = await Promise.all([person(browser, "Ann"), person(browser, "Ben")]);
  const sessionName = `Party shop ${crypto.randomBytes(3).toString("hex")}`;
  const session = await sharedSession(ann, [ben], sessionName);
  // Ann's own line from the catalog, through the API.
  const { products } = await apiCall<{ products: Product[] }>(ann, "GET", "/api/products");
  const annProduct = products.find((p) => p.stock >= 5)!;
  await apiCall(ann, "POST", `/api/carts/${session.cartId}/product`, {
    productId: annProduct._id,
  });

  // Ben adds birthday candles, which no catalog has, with the keyboard.
  await ben.page.goto("/cart");
  const cart = cartOf(ben.page, sessionName);
  await cart.getByRole("button", { name: "Add something not in the list" }).click();
  const form = cart.getByRole("form", { name: "Add something not in the list" });
  await expect(form.getByLabel("Name")).toBeFocused();
  await ben.page.keyboard.type("Birthday candles");
  await form.getByLabel("Quantity").fill("2");
  await form.getByLabel(/Estimated price each/).fill("3.50");
  await form.getByLabel(/Note for the shopper/).fill("blue ones");
  await form.getByLabel(/Note for the shopper/).press("Enter");
  const row = cart.getByRole("row").filter({ hasText: "Birthday candles" });
  await expect(row).toContainText("Estimated");
  await expect(row).toContainText("Note: blue ones");
  await expect(row).toContainText(usd.format(7));
  await expect(cart).toContainText("includes estimated prices");

  // He shares it with Ann in equal parts.
  await cart.getByText("Share lines with others").click();
  const sharing = cart.getByRole("group", { name: /Birthday candles/ });
  await sharing.getByLabel("Ann").check();
  await sharing.getByLabel("Ben").check();
  await sharing.getByRole("button", { name: /Save sharing/ }).click();
  await expect(row).toContainText("Shared by Ann, Ben");

  // Ann checks out: the confirm tells her what to know at the shop.
  await ann.page.goto(`/session-summary/${session._id}`);
  await ann.page.getByRole("button", { name: "Check out" }).click();
  await expect(ann.page.getByRole("dialog", { name: "Check out this cart?" })).toContainText(
    "Birthday candles: Estimated price · Note: blue ones",
  );
  await ann.page.keyboard.press("Escape");
  const orderId = await checkOutFromSummary(ann.page, session._id);

  // On the order the line is estimated; the change form starts on pricing it. At the shop the
  // candles were 4.15 each.
  const items = ann.page.getByRole("table", { name: /^Items in / });
  await expect(items.getByRole("row").filter({ hasText: "Birthday candles" })).toContainText(
    "Estimated",
  );
  const change = ann.page.getByRole("form", { name: "Record a change" });
  await expect(change.getByLabel("What changed")).toHaveValue("price");
  await change.getByLabel("Unit price").fill("4.15");
  await change.getByRole("button", { name: "Record change" }).click();
  await expect(ann.page.getByRole("list", { name: "Changes after checkout" })).toContainText(
    "Birthday candles",
  );
  await expect(items.getByRole("row").filter({ hasText: "Birthday candles" })).not.toContainText(
    "Estimated",
  );

  // The server's figures: 8.30 shared equally, 4.15 each; every share adds up to the cent.
  const { order } = await apiCall<{ order: Order }>(ann, "GET", `/api/orders/${orderId}`);
  const annShare = order.split.find((s) => s.userId === ann.id)!;
  const benShare = order.split.find((s) => s.userId === ben.id)!;
  expect(cents(benShare.subtotal)).toBe(415);
  expect(cents(annShare.subtotal)).toBe(cents(annProduct.price) + 415);
  expect(cents(order.subtotal)).toBe(cents(annProduct.price) + 830);
  expect(cents(annShare.total) + cents(benShare.total)).toBe(cents(order.total));
  expect(order.lines.find((l) => l.name === "Birthday candles")!.estimated).toBe(false);

  // Ben's order page shows his share as the server has it, without a reload of the figures.
  await ben.page.goto(`/orders/${orderId}`);
  const benCard = ben.page.getByTestId("order-share").filter({ hasText: "(you)" });
  await expect(benCard).toContainText(usd.format(benShare.total));
  const annCard = ann.page.getByTestId("order-share").filter({ hasText: "(you)" });
  await expect(annCard).toContainText(usd.format(annShare.total));

  expect(ann.problems).toEqual([]);
  expect(ben.problems).toEqual([]);
});
