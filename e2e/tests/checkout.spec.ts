import crypto from "node:crypto";
import fs from "node:fs/promises";
import { expect, test, type Page } from "@playwright/test";
import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs";
import {
  apiCall,
  expectNoA11yViolations,
  sharedSession,
  person,
  type Product,
} from "./fixtures.ts";

interface Order {
  _id: string;
  number: string;
  split: { userId: string; name: string; total: number; status: string }[];
}

/** The text a reader would copy out of the PDF, every page. */
async function pdfText(file: string): Promise<string> {
  const data = new Uint8Array(await fs.readFile(file));
  const pdf = await getDocument({ data, isEvalSupported: false }).promise;
  const pages: string[] = [];
  for (let n = 1; n <= pdf.numPages; n++) {
    const content = await (await pdf.getPage(n)).getTextContent();
    pages.push(content.items.map((item) => ("str" in item ? item.str : "")).join(" "));
  }
  await pdf.destroy();
  return pages.join("\n").replace(/\s+/g, " ");
}

const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });

test("two members fill a cart, the creator checks out, the member pays, the creator confirms, both settle up", async ({
  browser,
}) => {
  const [ann, ben] = await Promise.all([person(browser, "Ann"), person(browser, "Ben")]);
  const sessionName = `Picnic ${crypto.randomBytes(3).toString("hex")}`;
  const session = await sharedSession(ann, [ben], sessionName, { passcode: "basket-3" });
  const { products } = await apiCall<{ products: Product[] }>(ann, "GET", "/api/products");
  const [bread, wine] = products.filter((p) => p.stock >= 10);
  await apiCall(ann, "POST", `/api/carts/${session.cartId}/product`, { productId: bread!._id });
  // Ben adds his from the marketplace, as a member would.
  await ben.page.goto("/products");
  await ben.page.getByRole("button", { name: `Add ${wine!.name} to cart` }).click();
  await expect(ben.page.getByText("Added to cart for selected session.")).toBeVisible();

  // Both look at the summary; Ann checks out after a confirm that says who is ready.
  await Promise.all([ann, ben].map((p) => p.page.goto(`/session-summary/${session._id}`)));
  await expect(ben.page.getByText(/Ann checks out for the group/)).toBeVisible();
  await ann.page.getByRole("button", { name: "Check out" }).click();
  const dialog = ann.page.getByRole("dialog", { name: "Check out this cart?" });
  await expect(dialog).toContainText("Not done yet: Ann, Ben.");
  await dialog.getByRole("button", { name: "Check out" }).click();
  await expect(ann.page).toHaveURL(/\/orders\/[0-9a-f-]{36}$/);
  const orderId = ann.page.url().split("/").pop()!;
  const { order } = await apiCall<{ order: Order }>(ann, "GET", `/api/orders/${orderId}`);
  await expect(ann.page.getByRole("heading", { level: 1, name: order.number })).toBeVisible();
  await expectNoA11yViolations(ann.page, "order page (payee)");
  const benShare = order.split.find((s) => s.userId === ben.id)!;

  // Ben's summary, never reloaded, turns into a link to the order.
  await ben.page.getByRole("link", { name: `View order ${order.number}` }).click();
  await expect(ben.page.getByRole("heading", { level: 1, name: order.number })).toBeVisible();
  await expect(ben.page.getByText(`Pay Ann your share, then say so here.`)).toBeVisible();

  // His cart page shows the order, his share and the pay button, not "You have no carts yet".
  await ben.page.goto(`/cart/${session._id}`);
  const checkedOut = ben.page.getByRole("region", { name: `Order ${order.number}` });
  await expect(checkedOut).toContainText(`Your share ${usd.format(benShare.total)}`);
  await expect(checkedOut.getByRole("button", { name: "I've paid my share" })).toBeVisible();
  await expect(ben.page.getByText("You have no carts yet.")).toHaveCount(0);
  // The header's menu counts the share he still has to pay and leads to his orders.
  const myOrders = ben.page
    .getByRole("navigation", { name: "Main" })
    .getByRole("link", { name: /^My Orders ?\(1 share to pay\)$/ });
  await expect(myOrders).toBeVisible();
  await expectNoA11yViolations(ben.page, "cart page of a checked-out session");
  await myOrders.click();
  await expect(ben.page).toHaveURL(/\/orders$/);
  await expect(ben.page.getByRole("heading", { level: 1, name: "My Orders" })).toBeVisible();
  await expect(ben.page.getByRole("link", { name: new RegExp(order.number) })).toBeVisible();

  // Ben's balance says what he owes, and why.
  await ben.page.goto("/balances");
  await expect(ben.page.getByTestId("balance")).toContainText(
    `You owe Ann ${usd.format(benShare.total)}`,
  );
  await expect(ben.page.getByTestId("balance")).toContainText(`${order.number} (${sessionName})`);
  await expectNoA11yViolations(ben.page, "balances");
  await ben.page.getByRole("link", { name: order.number }).click();

  // Ben says he paid; Ann's order page, open all along, offers to confirm it.
  await ben.page.getByRole("button", { name: "I've paid my share" }).click();
  await expect(ben.page.getByText("Paid, awaiting confirmation")).toBeVisible();
  await ann.page.getByRole("button", { name: "Confirm received from Ben" }).click();
  await expect(ann.page.getByText(/Everyone is settled up\./)).toBeVisible();
  // Ben sees it without a reload.
  await expect(ben.page.getByText(/Everyone is settled up\./)).toBeVisible();

  // Both balances are zero.
  for (const p of [ann, ben]) {
    await p.page.goto("/balances");
    await expect(p.page.getByText("You're all settled up.")).toBeVisible();
  }

  // The receipt downloads from the cart history; its text holds the number and both shares.
  await ann.page.goto("/cart-history");
  const history = ann.page.getByRole("region", { name: sessionName });
  const [download] = await Promise.all([
    ann.page.waitForEvent("download"),
    history.getByRole("button", { name: `Download Receipt of ${sessionName}` }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`cartner-${order.number}.pdf`);
  const text = await pdfText(await download.path());
  expect(text).toContain(order.number);
  for (const share of order.split) {
    expect(text).toMatch(
      new RegExp(
        `${share.name}( \\(payee\\))? .*${usd.format(share.total).replace("$", "\\$")} Confirmed`,
      ),
    );
  }

  for (const p of [ann, ben]) expect(p.problems).toEqual([]);
});

/** A link of the header's main navigation: on a phone, behind the Menu button. */
async function openFromMenu(page: Page, name: string) {
  const menu = page.getByRole("banner").getByRole("button", { name: "Menu" });
  if (await menu.isVisible()) await menu.click();
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name }).click();
}

test("after the group checks out, a member's toast, cart page and menu all lead to the order and what they owe @phone", async ({
  browser,
}) => {
  const [ann, ben] = await Promise.all([person(browser, "Ann"), person(browser, "Ben")]);
  const sessionName = `Weekly shop ${crypto.randomBytes(3).toString("hex")}`;
  const session = await sharedSession(ann, [ben], sessionName);
  const { products } = await apiCall<{ products: Product[] }>(ann, "GET", "/api/products");
  const [milk] = products.filter((p) => p.stock >= 10);
  await apiCall(ben, "POST", `/api/carts/${session.cartId}/product`, { productId: milk!._id });

  // Ben has the cart open when Ann checks out: a toast tells him, with a link to the order.
  await ben.page.goto(`/cart/${session._id}`);
  await expect(ben.page.getByRole("region", { name: sessionName, exact: true })).toBeVisible();
  const { order } = await apiCall<{ order: Order }>(
    ann,
    "POST",
    `/api/sessions/${session._id}/checkout`,
  );
  const benShare = order.split.find((s) => s.userId === ben.id)!;
  await expect(
    ben.page.getByText("Your group checked out: the order and your share are ready."),
  ).toBeVisible();
  await ben.page.getByRole("link", { name: "View the order" }).click();
  await expect(ben.page).toHaveURL(new RegExp(`/orders/${order._id}$`));
  await expect(ben.page.getByRole("heading", { level: 1, name: order.number })).toBeVisible();

  // The session's cart page now shows the order: its number, his share and the pay button.
  await ben.page.goto(`/cart/${session._id}`);
  const checkedOut = ben.page.getByRole("region", { name: `Order ${order.number}` });
  await expect(checkedOut).toContainText(`Your share ${usd.format(benShare.total)}`);
  await expect(checkedOut.getByRole("button", { name: "I've paid my share" })).toBeVisible();
  await expect(ben.page.getByText("You have no carts yet.")).toHaveCount(0);

  // The header's menu (a phone's Menu button) counts the share he has to pay and leads to My
  // Orders and to Balances.
  await openFromMenu(ben.page, "My Orders (1 share to pay)");
  await expect(ben.page.getByRole("heading", { level: 1, name: "My Orders" })).toBeVisible();
  await expect(ben.page.getByRole("link", { name: new RegExp(order.number) })).toBeVisible();
  await openFromMenu(ben.page, "Balances");
  await expect(ben.page.getByTestId("balance")).toContainText(
    `You owe Ann ${usd.format(benShare.total)}`,
  );
  for (const p of [ann, ben]) expect(p.problems).toEqual([]);
});
